import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cachedPage } from "./page-cache";
import { pageCacheUrl } from "./page-query";

/**
 * The page cache keys a page on what changes it (issue 32, finding 2): `/notes/<id>?q=<anything>`
 * re-rendered a note for every new query, seconds each for a long one. Renders are counted where
 * they happen: the cache fills a miss by asking this same server for the page, here a stand-in
 * server on the loopback that counts what it is asked for.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-page-cache-"));
process.env.DATA_DIR = dataDir;
delete process.env.CONTENT_REPO;
delete process.env.SITE_URL;
delete process.env.ALLOWED_HOSTS;

const asked: string[] = [];
const server = http.createServer((req, res) => {
  asked.push(req.url ?? "");
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  res.end(`<!doctype html><p>rendered ${req.url}</p>`);
});

beforeAll(async () => {
  (await import("@/lib/env")).resetConfig();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.__NEXT_PRIVATE_ORIGIN = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  delete process.env.__NEXT_PRIVATE_ORIGIN;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const get = (url: string, host = "notes.test") => cachedPage(new NextRequest(url, { headers: { host, accept: "text/html" } }));

describe("the page cache's key", () => {
  it("renders a note page once whatever query it is asked with", async () => {
    const first = await get("http://notes.test/notes/AFN-001?q=one");
    expect(first?.status).toBe(200);
    const body = await first!.text();
    for (const query of ["?q=two", "?q=three&utm_source=x", "", "?_=1"]) {
      const again = await get(`http://notes.test/notes/AFN-001${query}`);
      expect(again?.status, query).toBe(200);
      expect(await again!.text()).toBe(body);
    }
    expect(asked.filter((u) => u.startsWith("/notes/AFN-001"))).toEqual(["/notes/AFN-001"]);
  });

  it("keeps the parameters a page reads, and only those", async () => {
    await get("http://notes.test/search?q=cache&page=2");
    await get("http://notes.test/search?utm=1&q=cache");
    await get("http://notes.test/search?q=other");
    expect(asked.filter((u) => u.startsWith("/search"))).toEqual(["/search?q=cache", "/search?q=other"]);
    expect(pageCacheUrl("/", new URLSearchParams("utm=1&sort=title&status=hypothesis&x=2"))).toBe("/?status=hypothesis&sort=title");
    expect(pageCacheUrl("/tags/cache", new URLSearchParams("page=3&q=x"))).toBe("/tags/cache?page=3");
    expect(pageCacheUrl("/phases/5", new URLSearchParams("q=x"))).toBe("/phases/5");
    expect(pageCacheUrl("/notes/AFN-001/history", new URLSearchParams("q=x"))).toBe("/notes/AFN-001/history");
  });
});
