import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

/**
 * The site's address with SITE_URL unset, on a production server of its own: playwright.config.ts
 * gives the shared server a SITE_URL, so this file starts `next start` itself (same build, a fresh
 * DATA_DIR, another port, no SITE_URL) with ALLOWED_HOSTS naming the hosts it may answer for.
 * Requests go over plain node:http so the Host header is exactly what a client (or forger) sends.
 */

const PORT = Number(process.env.E2E_ORIGIN_PORT || Number(process.env.E2E_PORT || 3100) + 1000);
const ALLOWED = `notes.example.org,evil.example,127.0.0.1:${PORT}`;

let server: ChildProcess;
let dataDir: string;
let log = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(90_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-origin-e2e-"));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ALLOWED_HOSTS: ALLOWED, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" };
  delete env.SITE_URL;
  delete env.CONTENT_REPO;
  delete env.NEXTAUTH_URL;
  server = spawn(process.execPath, [path.resolve("node_modules/next/dist/bin/next"), "start", "-p", String(PORT), "-H", "127.0.0.1"], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout!.on("data", (d) => (log += d));
  server.stderr!.on("data", (d) => (log += d));
  // Bounded: the server answers within 60 s or the file fails with its log.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}:\n${log}`);
    const res = await get("/llms.txt", { host: "notes.example.org" }).catch(() => null);
    if (res?.status === 200) break;
    if (Date.now() > deadline) throw new Error(`next start did not answer /llms.txt within 60 s:\n${log}`);
    await new Promise((r) => setTimeout(r, 250));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once("exit", r));
    server.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    if (server.exitCode === null) server.kill("SIGKILL");
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

function get(pathname: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port: PORT, path: pathname, headers, timeout: 30_000 }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("timeout", () => req.destroy(new Error(`GET ${pathname} timed out`)));
    req.on("error", reject);
  });
}

/** Every absolute http(s) URL in a document. */
function absoluteUrls(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s)<>"'\]`]+/g)].map((m) => m[0]);
}

test("/llms.txt reached as notes.example.org links only to http://notes.example.org/…", async () => {
  const res = await get("/llms.txt", { host: "notes.example.org" });
  expect(res.status).toBe(200);
  const urls = absoluteUrls(res.body);
  expect(urls.length).toBeGreaterThan(20); // the guide, the index, every note's capsule …
  expect(urls.filter((u) => !u.startsWith("http://notes.example.org/"))).toEqual([]);
});

test("/llms.txt behind a proxy that terminates TLS links only to https://notes.example.org/…", async () => {
  const proxied: Record<string, string>[] = [
    { host: "notes.example.org", "x-forwarded-proto": "https" },
    { host: "127.0.0.1:3000", "x-forwarded-host": "notes.example.org", "x-forwarded-proto": "https" },
  ];
  for (const headers of proxied) {
    const res = await get("/llms.txt", headers);
    expect(res.status).toBe(200);
    const urls = absoluteUrls(res.body);
    expect(urls.length).toBeGreaterThan(20);
    expect(
      urls.filter((u) => !u.startsWith("https://notes.example.org/")),
      JSON.stringify(headers),
    ).toEqual([]);
  }
});

test("the agent index, the guide, the feed, the sitemap, robots.txt and a note page agree on the address", async () => {
  for (const pathname of ["/agents/index.md", "/agents/", "/feed.xml", "/sitemap.xml", "/robots.txt", "/notes/AFN-001"]) {
    const headers = { host: "notes.example.org", "x-forwarded-proto": "https" };
    let res = await get(pathname, headers);
    if (res.status === 307 || res.status === 308) {
      // A canonical-slash redirect must stay on the address the client used.
      const location = String(res.headers.location);
      expect(location.startsWith("/") || location.startsWith("https://notes.example.org/"), `${pathname} → ${location}`).toBe(true);
      res = await get(new URL(location, "https://notes.example.org").pathname, headers);
    }
    expect(res.status, pathname).toBe(200);
    const own = absoluteUrls(res.body).filter((u) => /notes\.example\.org|localhost|127\.0\.0\.1/.test(u));
    expect(own.length, pathname).toBeGreaterThan(0);
    expect(
      own.filter((u) => !u.startsWith("https://notes.example.org/") && u !== "https://notes.example.org"),
      pathname,
    ).toEqual([]);
  }
});

for (const pathname of ["/feed.xml", "/sitemap.xml", "/llms.txt", "/agents/index.md", "/"]) {
  test(`${pathname}: a forged host's answer never reaches the next client`, async () => {
    const normal = { host: "notes.example.org" };
    const before = await get(pathname, normal);
    const forgeries: Record<string, string>[] = [{ host: "evil.example" }, { host: "notes.example.org", "x-forwarded-host": "evil.example" }];
    for (const forged of forgeries) {
      const forgedAnswer = await get(pathname, forged);
      expect(forgedAnswer.status).toBe(200);
      expect(forgedAnswer.body).toContain("evil.example"); // the forger gets its own host back …

      const after = await get(pathname, normal); // … and the next client none of it
      expect(after.status).toBe(200);
      expect(after.body).not.toContain("evil.example");
      expect(JSON.stringify(after.headers)).not.toContain("evil");
      if (before.headers.etag !== undefined) {
        expect(after.headers.etag).toBe(before.headers.etag);
        expect(forgedAnswer.headers.etag).not.toBe(before.headers.etag);
        // A cache revalidating the forged answer for a normal client is given the normal one in full.
        const revalidated = await get(pathname, { ...normal, "if-none-match": String(forgedAnswer.headers.etag) });
        expect(revalidated.status).toBe(200);
        expect(revalidated.body).not.toContain("evil.example");
      }
    }
  });
}

test("ALLOWED_HOSTS: any other host is answered 421, the listed ones are served", async () => {
  const cases: [Record<string, string>, number][] = [
    [{ host: "other.example" }, 421],
    [{ host: `127.0.0.1:${PORT + 1}` }, 421],
    [{ host: "notes.example.org", "x-forwarded-host": "other.example" }, 421],
    [{ host: "not a host" }, 421],
    [{ host: "notes.example.org" }, 200],
    [{ host: "notes.example.org:8443" }, 200],
    [{ host: `127.0.0.1:${PORT}` }, 200],
    [{ host: "other.example", "x-forwarded-host": "notes.example.org" }, 200],
  ];
  for (const [headers, status] of cases) {
    for (const pathname of ["/", "/llms.txt", "/feed.xml", "/sitemap.xml", "/notes/AFN-001"]) {
      const res = await get(pathname, headers);
      expect(res.status, `${pathname} ${JSON.stringify(headers)}`).toBe(status);
      if (status === 421) expect(res.body).toMatch(/Misdirected Request.*ALLOWED_HOSTS/);
    }
  }
});

test("the server warned once, at start, that SITE_URL is unset", async () => {
  expect(log.match(/SITE_URL is not set/g) ?? []).toHaveLength(1);
  expect(log).toContain(`Only ALLOWED_HOSTS (${ALLOWED.split(",").join(", ")}) are answered.`);
});
