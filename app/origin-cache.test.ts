import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Host headers and caches, with SITE_URL unset (the absolute URLs then follow the request's host):
 * a client that forges Host or X-Forwarded-Host gets links to its own forged host, and nobody else
 * ever does. The real route handlers run in-process over a real content repository seeded from
 * content/; the app's own per-commit caches are warm between the requests, as on a live server.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-origin-"));
process.env.DATA_DIR = dataDir;
delete process.env.CONTENT_REPO;
delete process.env.SITE_URL;
delete process.env.ALLOWED_HOSTS;

type Handler = (request: Request) => Promise<Response> | Response;
const routes: Record<string, Handler> = {};

beforeAll(async () => {
  (await import("@/lib/env")).resetConfig();
  routes["/feed.xml"] = (await import("@/app/feed.xml/route")).GET;
  routes["/llms.txt"] = (await import("@/app/llms.txt/route")).GET as Handler;
  routes["/llms-full.txt"] = (await import("@/app/llms-full.txt/route")).GET as Handler;
  routes["/agents/index.md"] = (await import("@/app/agents/index.md/route")).GET as Handler;
});

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const NORMAL = { host: "notes.example.org" };
const FORGERIES: [string, Record<string, string>][] = [
  ["a forged Host", { host: "evil.example" }],
  ["a forged X-Forwarded-Host", { host: "notes.example.org", "x-forwarded-host": "evil.example" }],
];

async function get(pathname: string, headers: Record<string, string>) {
  // The URL's own host is deliberately a third one: only the headers may decide the origin.
  const res = await routes[pathname]!(new Request(`http://127.0.0.1:3000${pathname}`, { headers }));
  return { status: res.status, etag: res.headers.get("etag"), vary: res.headers.get("vary"), body: await res.text() };
}

describe.each(["/feed.xml", "/llms.txt", "/llms-full.txt", "/agents/index.md"])("%s with SITE_URL unset", (pathname) => {
  it("links to the host it was reached as, with https behind X-Forwarded-Proto", async () => {
    const plain = await get(pathname, NORMAL);
    expect(plain.status).toBe(200);
    expect(plain.body).toContain("http://notes.example.org/");
    expect(plain.body).not.toMatch(/localhost|127\.0\.0\.1/);
    const secure = await get(pathname, { ...NORMAL, "x-forwarded-proto": "https" });
    expect(secure.body).toContain("https://notes.example.org/");
    expect(secure.body).not.toContain("http://notes.example.org/");
    expect(secure.etag).not.toBe(plain.etag);
  });

  it.each(FORGERIES)("after %s, the next normal request carries no trace of it", async (_label, forged) => {
    const before = await get(pathname, NORMAL);
    const forgedAnswer = await get(pathname, forged);
    // The forger is answered with its own host: that is the case the caches must keep apart.
    expect(forgedAnswer.body).toContain("http://evil.example/");
    expect(forgedAnswer.etag).not.toBe(before.etag);
    expect(forgedAnswer.vary).toMatch(/X-Forwarded-Host/);

    const after = await get(pathname, NORMAL);
    expect(after.status).toBe(200);
    expect(after.body).not.toContain("evil.example");
    expect(after.body).toBe(before.body);
    expect(after.etag).toBe(before.etag);
    expect(after.etag).not.toContain("evil");

    // A cache holding the forged answer revalidates it with its tag: the normal host must get the
    // full normal answer, never "304 unchanged" (which would let the cache serve the forgery).
    const revalidated = await get(pathname, { ...NORMAL, "if-none-match": forgedAnswer.etag! });
    expect(revalidated.status).toBe(200);
    expect(revalidated.body).toBe(before.body);
    // Its own tag still gets 304.
    expect((await get(pathname, { ...NORMAL, "if-none-match": before.etag! })).status).toBe(304);
  });
});
