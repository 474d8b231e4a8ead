import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getContentStore } from "@/lib/working-copy/content-store";
import { MAIN_REF } from "@/lib/working-copy/layout";
import { cachedAgentFormat, cachedPage } from "./page-cache";
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
// Main's commit, which an agent format's fill must say it was built from to be kept.
let main = "";
// Set: the next render of /phases/raced moves main first, as a plain-git push during a render would.
let raceOnce = true;
async function moveMain() {
  const store = await getContentStore();
  const head = await store.resolve(MAIN_REF);
  await store.commit({
    ref: MAIN_REF,
    expected: head,
    author: { name: "Racer", email: "racer@example.org" },
    message: "A push during a render",
    changes: { "raced.txt": `${Date.now()}\n` },
  });
  main = (await store.resolve(MAIN_REF))!;
}
const server = http.createServer(async (req, res) => {
  asked.push(req.url ?? "");
  if (req.url === "/phases/raced" && raceOnce) {
    raceOnce = false;
    await moveMain();
  }
  if (req.url?.startsWith("/agents/")) {
    res.writeHead(200, { "content-type": "application/json", "x-content-commit": main });
    res.end(JSON.stringify({ rendered: req.url }));
    return;
  }
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  // As Next renders a page: its client runtime's preload, chunks and inline payload around the markup.
  const runtime = [
    `<link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/a.js" nonce="n0"/>`,
    `<script src="/_next/static/chunks/a.js" async="" nonce="n0"></script>`,
  ];
  res.end(
    `<!doctype html><html><head><link rel="stylesheet" href="/_next/static/chunks/s.css" nonce="n0"/>${runtime.join("")}</head>` +
      `<body><p>rendered ${req.url}</p><script nonce="n0">self.__next_f.push([1,"rendered"])</script></body></html>`,
  );
});

beforeAll(async () => {
  (await import("@/lib/env")).resetConfig();
  main = (await (await getContentStore()).resolve(MAIN_REF))!;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.PORT = `${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  delete process.env.PORT;
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

describe("an agent's search query", () => {
  it("goes on to its route the first time it is asked under a commit, and is kept from the second ask", async () => {
    // The route's module loaded, as in a server that has answered a search (it once offered its handler to the proxy).
    await import("@/app/agents/search.json/route");
    const url = "http://notes.test/agents/search.json?q=kept+twice";
    const ask = () => cachedAgentFormat(new NextRequest(url, { headers: { host: "notes.test", accept: "application/json" } }));
    // First ask: nothing answers it here, the route does (no route handler is called from the proxy).
    expect(await ask()).toBeNull();
    expect(asked.filter((u) => u.startsWith("/agents/search.json"))).toEqual([]);
    // Second ask: rendered once through the server and kept, then answered from memory.
    const second = await ask();
    expect(second?.status).toBe(200);
    expect(second?.headers.get("x-content-commit")).toBe(main);
    expect(await second!.json()).toEqual({ rendered: "/agents/search.json?q=kept+twice" });
    expect((await ask())?.status).toBe(200);
    expect(asked.filter((u) => u.startsWith("/agents/search.json"))).toEqual(["/agents/search.json?q=kept+twice"]);
  });
});

describe("what the page cache answers", () => {
  // What the proxy sees of a browser's request: Next strips its router's RSC, Next-Router-* headers
  // and `_rsc` before the proxy runs, so a client-side navigation looks like a page request but for
  // the browser's Sec-Fetch headers.
  const browser = (url: string, dest: "document" | "empty") =>
    cachedPage(
      new NextRequest(url, {
        headers: {
          host: "notes.test",
          accept: dest === "document" ? "text/html" : "*/*",
          "sec-fetch-dest": dest,
          "sec-fetch-mode": dest === "document" ? "navigate" : "cors",
          "sec-fetch-site": "same-origin",
        },
      }),
    );

  it("answers a page load with the page, and the router's fetch of it with 204 so that it loads the page", async () => {
    const load = await browser("http://notes.test/?view=table", "document");
    expect(load?.status).toBe(200);
    expect(load?.headers.get("content-type")).toMatch(/^text\/html/);
    // Answered the HTML, the router fetched the page a second time as a document; an RSC payload
    // would be rendered per link and reader, uncached. 204, empty: Next's router loads the address.
    const before = asked.length;
    for (const url of ["http://notes.test/?view=table", "http://notes.test/notes/AFN-002", "http://notes.test/tags/cache"]) {
      const routed = await browser(url, "empty");
      expect(routed?.status, url).toBe(204);
      expect(await routed!.text()).toBe("");
    }
    expect(asked.length).toBe(before);
    // Nobody's browser: curl, an agent, a proxy in front; the page from memory.
    expect((await get("http://notes.test/?view=table"))?.status).toBe(200);
  });
});

describe("a page as the cache serves it", () => {
  it("has no script and no script preload (Next's client runtime), and everything else as rendered", async () => {
    const page = await get("http://notes.test/phases/runtime-free");
    expect(page?.status).toBe(200);
    const html = await page!.text();
    expect(html).not.toMatch(/<script|as="script"|__next_f/);
    expect(html).toContain('<link rel="stylesheet" href="/_next/static/chunks/s.css" nonce="n0"/>');
    expect(html).toContain("<p>rendered /phases/runtime-free</p>");
    expect(Number(page!.headers.get("content-length"))).toBe(Buffer.byteLength(html));
  });
});

describe("a page whose render races a commit on main", () => {
  it("is answered from that render, without scripts, and not kept: the next ask renders it again", async () => {
    const before = asked.length;
    const page = await get("http://notes.test/phases/raced");
    expect(page?.status).toBe(200);
    const html = await page!.text();
    expect(html).not.toMatch(/<script|as="script"|__next_f/);
    expect(html).toContain("<p>rendered /phases/raced</p>");
    expect(page!.headers.get("cache-control")).toBe("no-store");
    expect((await get("http://notes.test/phases/raced"))?.status).toBe(200);
    expect(asked.slice(before).filter((u) => u === "/phases/raced")).toHaveLength(2);
  });
});

describe("home's filter form", () => {
  it("is redirected to its tidy address before any render (the form sends its empty choices)", async () => {
    const { proxy } = await import("@/proxy");
    const before = asked.length;
    const apply = await proxy(
      new NextRequest("http://notes.test/?status=&tag=sparse-attention&phase=&sort=order", { headers: { host: "notes.test", accept: "text/html" } }),
    );
    expect(apply.status).toBe(307);
    expect(apply.headers.get("location")).toBe("http://notes.test/?tag=sparse-attention");
    // Nothing rendered for it: the page's own redirect came after a render that nothing kept.
    expect(asked.length).toBe(before);
    // The tidy address is the page (from the cache), and one the page does not understand is left to it.
    expect((await proxy(new NextRequest("http://notes.test/?tag=sparse-attention", { headers: { host: "notes.test", accept: "text/html" } }))).status).toBe(
      200,
    );
    expect((await proxy(new NextRequest("http://notes.test/?status=nonsense&tag=", { headers: { host: "notes.test", accept: "text/html" } }))).status).toBe(
      200,
    );
  });
});
