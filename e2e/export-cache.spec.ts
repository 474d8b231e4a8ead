import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startNginx, type RunningNginx } from "./support/nginx";
import { walkPagesTxt } from "./support/pages-walk";
import { AUTHOR, ensureAccounts, newToken } from "./support/studio";

/**
 * deploy/nginx-cache.conf as it ships, in front of this test run's app server: a public page is
 * answered from nginx's cache, and nothing of the studio, nothing asked for with a session or a
 * token, is ever stored there or answered from it.
 */

test.describe.configure({ mode: "serial" });

let cache: RunningNginx;
let cacheDir: string;

test.beforeAll(async () => {
  cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-nginx-cache-"));
  fs.chmodSync(cacheDir, 0o777); // nginx's workers (nobody, under a root master) write here
  const upstream = new URL(process.env.E2E_BASE_URL ?? "").host;
  cache = await startNginx("nginx-cache.conf", { FIELD_NOTES_UPSTREAM: upstream, FIELD_NOTES_CACHE: cacheDir });
});

test.afterAll(async () => {
  await cache?.stop();
  if (cacheDir) fs.rmSync(cacheDir, { recursive: true, force: true });
});

/** The `KEY:` line of every entry nginx stored (its cache files start with a header that names it). */
function storedKeys(): string[] {
  const keys: string[] = [];
  const walk = (dir: string) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) walk(p);
      else {
        const head = fs.readFileSync(p).subarray(0, 4096).toString("latin1");
        const key = /\nKEY: ([^\n]+)\n/.exec(head)?.[1];
        if (key) keys.push(key);
      }
    }
  };
  walk(cacheDir);
  return keys;
}

test("a public page is answered from nginx's cache, and a Markdown client still gets Markdown", async ({ request }) => {
  const url = `${cache.url}/notes/AFN-010`;
  let status = "";
  let body = "";
  // The app renders the first answer (no-store); from its page cache it answers `public, no-cache`,
  // which nginx keeps and then serves itself (HIT) or after a 304 from the app (REVALIDATED).
  for (let attempt = 0; attempt < 8 && !["HIT", "REVALIDATED"].includes(status); attempt++) {
    const res = await request.get(url, { headers: { Accept: "text/html" } });
    expect(res.status()).toBe(200);
    status = res.headers()["x-cache-status"] ?? "";
    body = await res.text();
  }
  expect(["HIT", "REVALIDATED"]).toContain(status);
  expect(body).toContain("Make the whole inference chunk one transaction");
  expect(storedKeys().some((k) => k.endsWith("/notes/AFN-010"))).toBe(true);

  // The app's Vary: Accept is honoured: the stored HTML never answers a Markdown client.
  const md = await request.get(url, { headers: { Accept: "text/markdown" } });
  expect(md.headers()["content-type"]).toBe("text/markdown; charset=utf-8");
  expect(await md.text()).toMatch(/^---\n/);
});

test("through the cache, every address of /agents/pages.txt is Markdown, twice over, and each page's HTML stays HTML", async ({ request }) => {
  // About 800 requests through nginx: a minute and more when the machine is busy.
  test.setTimeout(240_000);
  // Twice: the second walk meets what the first one stored (HIT, or REVALIDATED after its second).
  for (const pass of ["first", "second"]) {
    const { twins, failed, fetched } = await walkPagesTxt(request, cache.url);
    expect(twins.length, pass).toBeGreaterThan(100);
    expect(failed, `${pass} pass: ${failed.length} of ${fetched}`).toEqual([]);
  }
  expect(storedKeys().filter((k) => /\/(index|agents)\.md$|\/tags\/[^/]+\.md$/.test(k)).length).toBeGreaterThan(3);
});

test("the studio, its API and anything with a session or a token never come from or go into the cache", async ({ request }) => {
  ensureAccounts();
  const token = newToken(AUTHOR.name);
  for (let i = 0; i < 3; i++) {
    const mine = await request.get(`${cache.url}/api/studio/notes`, { headers: { Authorization: `Bearer ${token}` } });
    expect(mine.status()).toBe(200);
    expect((await mine.json()).notes.length).toBeGreaterThan(0);
    expect(mine.headers()["x-cache-status"] ?? "").toBe("");
  }
  // Right after, without the token: refused, never the list nginx just passed on.
  const anonymous = await request.get(`${cache.url}/api/studio/notes`);
  expect(anonymous.status()).toBe(401);

  for (let i = 0; i < 3; i++) {
    const studio = await request.get(`${cache.url}/studio`, { maxRedirects: 0 });
    expect(studio.headers()["x-cache-status"] ?? "").toBe("");
    // A public page asked for with a session cookie is passed to the app every time.
    const withSession = await request.get(`${cache.url}/notes/AFN-010`, { headers: { Cookie: "next-auth.session-token=e2e-not-a-real-session" } });
    expect(withSession.status()).toBe(200);
    expect(withSession.headers()["x-cache-status"]).toBe("BYPASS");
    const withToken = await request.get(`${cache.url}/notes/AFN-010.md`, { headers: { Authorization: `Bearer ${token}` } });
    expect(withToken.headers()["x-cache-status"]).toBe("BYPASS");
  }
  const keys = storedKeys();
  expect(keys.filter((k) => /\/(studio|api\/|sign-in)/.test(k))).toEqual([]);
});
