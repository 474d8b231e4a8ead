import { expect, test } from "@playwright/test";
import { AUTHOR, ensureAccounts, newToken } from "./support/studio";

/**
 * A URL with a malformed percent-escape (`%E0%A4`, a lone `%`) is the client's mistake: the server
 * answers 400 or 404 and never 500, on every route that takes a path parameter, in every format,
 * signed in or not. Before the fix Next's own router threw on these and answered 500.
 */

const BAD = "%E0%A4";

const reads = [
  `/notes/${BAD}`,
  `/notes/${BAD}/history`,
  `/notes/${BAD}.md`,
  `/notes/${BAD}.txt`,
  `/notes/${BAD}.json`,
  `/notes/AFN-016${BAD}`,
  `/tags/${BAD}`,
  `/tags/${BAD}.md`,
  "/tags/100%",
  "/tags/%",
  "/tags/R%26D%E0",
  "/tags/100%25",
  `/phases/${BAD}`,
  `/phases/${BAD}.md`,
  `/agents/capsules/${BAD}.json`,
  `/agents/capsules/${BAD}.md`,
  `/agents/notes/${BAD}.md`,
  `/agents/notes/${BAD}.json`,
  `/agents/schema/${BAD}.json`,
  `/studio/notes/${BAD}`,
  `/studio/notes/${BAD}/review`,
  `/api/studio/notes/${BAD}`,
  `/api/studio/notes/${BAD}/threads`,
  `/api/studio/notes/${BAD}/verdicts`,
];

const writes: [method: string, path: string][] = [
  ["PUT", `/api/studio/notes/${BAD}`],
  ["POST", `/api/studio/notes/${BAD}`],
  ["POST", `/api/studio/notes/${BAD}/transitions`],
  ["POST", `/api/studio/notes/${BAD}/publish`],
  ["POST", `/api/studio/notes/${BAD}/threads`],
  ["POST", `/api/studio/notes/${BAD}/verdicts`],
  ["POST", `/api/studio/notes/AFN-016/threads/${BAD}/resolve`],
  ["POST", `/api/studio/notes/AFN-016/threads/${BAD}/reopen`],
  ["POST", `/api/studio/notes/AFN-016/threads/${BAD}/comments`],
  ["PATCH", `/api/studio/notes/AFN-016/threads/0123456789ab/comments/${BAD}`],
  // Next decodes "%25" to "%" before the handler sees it; the handler must not decode it into a throw.
  ["POST", "/api/studio/notes/AFN-016/threads/%25/resolve"],
  ["PATCH", "/api/studio/notes/AFN-016/threads/0123456789ab/comments/%25"],
  ["POST", `/api/studio/phases/${BAD}/close`],
  ["POST", `/api/studio/phases/${BAD}/reopen`],
];

let token = "";
test.beforeAll(() => {
  ensureAccounts();
  token = newToken(AUTHOR.name);
});

test("every read of a malformed path answers 400 or 404, anonymous or signed in", async ({ request }) => {
  const got: string[] = [];
  for (const path of reads) {
    for (const auth of [{}, { authorization: `Bearer ${token}` }] as Record<string, string>[]) {
      const res = await request.get(path, { headers: auth, maxRedirects: 0 });
      got.push(`${path} ${"authorization" in auth ? "author" : "anonymous"} ${res.status()}`);
    }
  }
  expect(got.filter((line) => !/ (400|404)$/.test(line))).toEqual([]);
});

test("every write to a malformed path answers 400 or 404, and names the problem", async ({ request }) => {
  const got: string[] = [];
  for (const [method, path] of writes) {
    const res = await request.fetch(path, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      data: "{}",
      maxRedirects: 0,
    });
    const named = /percent-escape|not a (note|thread|comment) id|not-found|no phase|unknown/.test((await res.text()).toLowerCase());
    got.push(`${method} ${path} ${named ? "" : "(the answer names no problem) "}${res.status()}`);
  }
  expect(got.filter((line) => !/ (400|404)$/.test(line))).toEqual([]);
});

test("the same routes still answer their good paths", async ({ request }) => {
  for (const path of ["/notes/AFN-016", "/notes/AFN%2D016", "/notes/AFN-016.md", "/tags/sparse-attention", "/agents/capsules/AFN-016.json"]) {
    expect((await request.get(path)).status(), path).toBe(200);
  }
  const read = await request.get("/api/studio/notes/AFN-016", { headers: { authorization: `Bearer ${token}` } });
  expect(read.status()).toBe(200);
});
