import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noteListBody } from "@/lib/validations/answers";
import { StudioApiError, studioFetch } from "./fetch";

/**
 * The studio's client over real HTTP (a loopback server answering as the API, or not): an answer
 * the endpoint's schema reads is handed on; one it cannot read becomes an error whose message says
 * what is wrong, where, and what to do, instead of an object that crashes the component reading it.
 */

const answers: Record<string, { status: number; type: string; body: string }> = {
  "/good": { status: 200, type: "application/json", body: JSON.stringify({ notes: [], main: { refused: null, rewind: null } }) },
  "/missing-member": { status: 200, type: "application/json", body: JSON.stringify({ notes: [{ id: "AFN-001", title: "No status" }] }) },
  "/proxy-page": { status: 200, type: "text/html", body: "<html><body>Welcome to the captive portal</body></html>" },
  "/refused": {
    status: 422,
    type: "application/json",
    body: JSON.stringify({ error: { status: 422, code: "invalid-note", message: "title is empty", where: [{ field: "title", message: "empty" }] } }),
  },
};

let server: http.Server;
let origin: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const a = answers[req.url ?? ""] ?? { status: 404, type: "text/plain", body: "no" };
    res.writeHead(a.status, { "content-type": a.type }).end(a.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function failure(path: string, method = "GET"): Promise<StudioApiError> {
  try {
    await studioFetch(`${origin}${path}`, noteListBody, { method, ...(method === "GET" ? {} : { body: {} }) });
  } catch (e) {
    expect(e).toBeInstanceOf(StudioApiError);
    return e as StudioApiError;
  }
  throw new Error(`${path} was read as a good answer`);
}

describe("studioFetch", () => {
  it("hands on an answer its schema reads", async () => {
    expect(await studioFetch(`${origin}/good`, noteListBody)).toEqual({ notes: [], main: { refused: null, rewind: null } });
  });

  it("turns an answer missing a member into an error naming it, and telling a reader to reload", async () => {
    const e = await failure("/missing-member");
    expect(e.body?.error.code).toBe("unreadable-answer");
    expect(e.body?.error.where?.map((w) => w.field)).toEqual(["notes.0.status", "notes.0.publishedStatus", "notes.0.draft"]);
    expect(e.message).toMatch(/^The server's answer could not be read \(notes\.0\.status: .+\): what this page shows may be out of date; reload it\./);
  });

  it("tells a writer the change may have been made, so it is not simply sent again", async () => {
    const e = await failure("/missing-member", "PUT");
    expect(e.message).toMatch(/the change may have been made all the same; reload the page/);
  });

  it("does not read a page that is not JSON as an answer, even with 200", async () => {
    const e = await failure("/proxy-page");
    expect(e.status).toBe(200);
    expect(e.body?.error.code).toBe("unreadable-answer");
  });

  it("keeps the API's own refusal as it was", async () => {
    const e = await failure("/refused", "PUT");
    expect(e.status).toBe(422);
    expect(e.body?.error).toMatchObject({ code: "invalid-note", message: "title is empty", where: [{ field: "title" }] });
  });
});
