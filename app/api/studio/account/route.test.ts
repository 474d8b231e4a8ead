import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findAccount } from "@/lib/auth/accounts";
import { answer, params, request, studioFixture, type Caller } from "@/lib/testing/studio";
import * as account from "./route";

/** PUT /api/studio/account: a person names themself; a bad name is a field error that changes nothing. */

let f: Awaited<ReturnType<typeof studioFixture>>;
beforeAll(async () => {
  f = await studioFixture();
});
afterAll(() => f.cleanup());

const put = (c: Caller, body: unknown) => account.PUT(request(c, "PUT", "/api/studio/account", body), params({})).then(answer);
const get = (c: Caller) => account.GET(request(c, "GET", "/api/studio/account"), params({})).then(answer);

describe("PUT /api/studio/account", () => {
  it("shows the login until a display name is set, then the name, on the session's next request", async () => {
    expect((await get(f.reviewer)).body).toEqual({ id: "rita", displayName: "rita", role: "reviewer" });
    const set = await put(f.reviewer, { displayName: "  Rita Levi-Montalcini " });
    expect(set).toEqual({ status: 200, body: { id: "rita", displayName: "Rita Levi-Montalcini" } });
    expect((await get(f.reviewer)).body).toEqual({ id: "rita", displayName: "Rita Levi-Montalcini", role: "reviewer" });
    expect((await findAccount("rita"))?.displayName).toBe("Rita Levi-Montalcini");
  });

  it("refuses an empty, too long or marked-up name with a field error, and keeps the one it had", async () => {
    await put(f.authorToken, { displayName: "Ada Lovelace" });
    for (const [displayName, message] of [
      ["   ", "the display name is empty"],
      ["x".repeat(81), "the display name is longer than 80 characters"],
      ["<b>Ada</b>", "the display name may not hold control characters, < or >"],
    ] as const) {
      const refused = await put(f.author, { displayName });
      expect(refused.status).toBe(400);
      expect(refused.body.error.where).toEqual([{ field: "displayName", message }]);
    }
    expect((await put(f.author, { name: "Ada" })).status).toBe(400);
    expect((await findAccount("ada"))?.displayName).toBe("Ada Lovelace");
    expect((await put(f.anonymous, { displayName: "Nobody" })).status).toBe(401);
  });
});
