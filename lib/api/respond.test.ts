import { describe, expect, it } from "vitest";
import { z } from "zod";
import { errorResponse, parseBody } from "./respond";

/** The one place API bodies are read: JSON only, declared as JSON. */

const schema = z.object({ title: z.string().optional() });
const post = (body: string, contentType?: string) =>
  new Request("http://site.test/api/studio/notes", { method: "POST", body, headers: contentType === undefined ? {} : { "content-type": contentType } });

async function refusal(request: Request) {
  try {
    await parseBody(request, schema);
  } catch (e) {
    const response = errorResponse(e);
    return { status: response.status, body: await response.json() };
  }
  throw new Error("the body was accepted");
}

describe("API bodies", () => {
  it("are parsed when sent as application/json, with or without a charset", async () => {
    expect(await parseBody(post('{"title":"x"}', "application/json"), schema)).toEqual({ title: "x" });
    expect(await parseBody(post('{"title":"x"}', "Application/JSON; charset=utf-8"), schema)).toEqual({ title: "x" });
    expect(await parseBody(post("", "application/json"), schema)).toEqual({});
  });

  it("sent as anything else (what a cross-site form or no-cors fetch can send) are refused with 415 before they are read", async () => {
    for (const type of ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", undefined]) {
      const { status, body } = await refusal(post('{"title":"x"}', type));
      expect(status).toBe(415);
      expect(body.error.code).toBe("unsupported-media-type");
      expect(body.error.message).toMatch(/takes a JSON body sent as Content-Type: application\/json; the request has (Content-Type ".+"|no Content-Type)$/);
      expect(body.error.where).toEqual([{ field: "content-type", message: "must be application/json" }]);
    }
  });

  it("in JSON but malformed are still a 400 that says so", async () => {
    const { status, body } = await refusal(post("{nope", "application/json"));
    expect(status).toBe(400);
    expect(body.error.code).toBe("bad-json");
  });
});
