import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sessionSecret } from "@/lib/auth/secret";
import { resetConfig } from "@/lib/env";
import { commitNonce, pagePolicy } from "@/lib/http/csp";
import { cachedAgentFormat, cachedPage } from "@/lib/http/page-cache";
import { requestOrigin } from "@/lib/origin";
import { keyByBuild } from "@/lib/read-model";
import { forgetCleaned, readPage, writePage } from "@/lib/read-model/pages";
import { forgetReadSide } from "@/lib/read-model/read-side";
import { tempDir } from "@/lib/store/testing";
import { acceptedNoteFile, commitWithGit } from "@/lib/testing/plain-git";
import { getContentStore } from "@/lib/working-copy/content-store";
import { MAIN_REF } from "@/lib/working-copy/layout";

/**
 * Pages kept on disk for main's commit (lib/read-model/pages.ts): a restarted server answers a page
 * the previous run rendered, for the same commit and origin, from disk at once; never for another
 * commit (a plain-git commit made while it was down is seen on the first request), another origin,
 * or with a CSP nonce this server would not give that page. The page cache fills through a real
 * HTTP request to "this server", here a small server that renders like the app: its page carries
 * the commit's nonce in its policy and on its stylesheet and script, as Next's render would.
 */

const root = tempDir("read-model-pages");
let dataDir = "";
let run = 0;
let renders = 0;
let renderer: http.Server;
const HOST = "notes.example";

beforeAll(async () => {
  renderer = http.createServer((req, res) => {
    void (async () => {
      renders++;
      const commit = (await (await getContentStore()).resolve(MAIN_REF))!;
      const origin = requestOrigin(new Headers(req.headers as Record<string, string>));
      const nonce = commitNonce(sessionSecret(), commit, origin);
      if (req.url?.startsWith("/agents/")) {
        res.writeHead(200, { "content-type": "application/json", etag: `"${commit}.index"`, "x-content-commit": commit });
        res.end(JSON.stringify({ commit, origin }));
        return;
      }
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": pagePolicy(nonce) });
      // Next stamps the nonce on its stylesheets and scripts; the page cache keeps the page without the scripts.
      res.end(
        `<!doctype html><link rel="stylesheet" href="/s.css" nonce="${nonce}"/><p>rendered for ${commit} at ${origin}</p><script nonce="${nonce}"></script>`,
      );
    })();
  });
  await new Promise<void>((resolve) => renderer.listen(0, "127.0.0.1", resolve));
  process.env.PORT = `${(renderer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  delete process.env.PORT;
  keyByBuild(undefined);
  await new Promise((resolve) => renderer.close(resolve));
  fs.rmSync(root, { recursive: true, force: true });
});
beforeEach(() => {
  dataDir = path.join(root, `d${run++}`);
  process.env.DATA_DIR = dataDir;
  delete process.env.CONTENT_REPO;
  resetConfig();
  restart();
});

/** A new server process, as far as the page cache can tell: every per-process cache forgotten. */
function restart() {
  forgetReadSide();
  delete (globalThis as Record<symbol, unknown>)[Symbol.for("field-notes.content-store")];
  forgetCleaned();
  keyByBuild("b1");
}

const request = (url: string, host = HOST) => new NextRequest(new URL(url, `http://${host}`), { headers: { host, accept: "text/html" } });
const pagesDir = () => path.join(dataDir, "read-model", "b1", "pages");
const pageFiles = () =>
  fs.existsSync(pagesDir()) ? fs.readdirSync(pagesDir()).flatMap((c) => fs.readdirSync(path.join(pagesDir(), c)).map((f) => `${c}/${f}`)) : [];

/** Ask for `url` (a miss), and see it rendered once and that very page kept on disk. */
async function renderAndKeep(url: string, ask = cachedPage, host = HOST) {
  const commit = (await (await getContentStore()).resolve(MAIN_REF))!;
  const key = `${ask === cachedPage ? "page" : "agent"} http://${host} ${url}`;
  const folder = path.join(dataDir, "read-model", "b1");
  // A miss: rendered once, and the request answered with that render.
  const before = renders;
  const answer = await ask(request(url, host));
  expect(answer?.status).toBe(200);
  expect(renders).toBe(before + 1);
  // Written behind the answer.
  for (let i = 0; i < 250 && !(await readPage(folder, commit, key)); i++) await new Promise((r) => setTimeout(r, 20));
  expect(await readPage(folder, commit, key)).not.toBeNull();
}

describe("pages kept on disk for main's commit", () => {
  it("a restarted server answers a page the previous run rendered for the same commit, without rendering it", async () => {
    const commit = (await (await getContentStore()).resolve(MAIN_REF))!;
    await renderAndKeep("/");
    restart();
    renders = 0;
    const answer = await cachedPage(request("/"));
    expect(answer?.status).toBe(200);
    const body = await answer!.text();
    expect(body).toContain(`rendered for ${commit} at http://${HOST}`);
    expect(renders).toBe(0);
    // The body's nonce is the one this server derives for the commit and origin, and its policy carries it.
    const nonce = commitNonce(sessionSecret(), commit, `http://${HOST}`);
    expect(body).toContain(`nonce="${nonce}"`);
    expect(answer!.headers.get("content-security-policy")).toContain(`'nonce-${nonce}'`);
    // Its ETag is the one the first run gave: a browser's copy revalidates to a 304 across the restart.
    const etag = answer!.headers.get("etag")!;
    expect(etag).toContain(commit);
    restart();
    const revalidated = await cachedPage(new NextRequest(new URL("/", `http://${HOST}`), { headers: { host: HOST, "if-none-match": etag } }));
    expect(revalidated?.status).toBe(304);
  });

  it("a commit made with plain git while the server was down is seen on the first request, never the kept page", async () => {
    await renderAndKeep("/");
    const before = await (await getContentStore()).resolve(MAIN_REF);
    restart();
    // A commit the rules accept (a new hypothesis): an unapproved change to a verified note would not be served at all.
    commitWithGit(path.join(dataDir, "content.git"), { "notes/AFN-940.md": acceptedNoteFile("AFN-940", "Published by plain git while the server was down.") });
    restart();
    const moved = (await (await getContentStore()).resolve(MAIN_REF))!;
    expect(moved).not.toBe(before);
    // A miss: the page renders again, for the new commit.
    renders = 0;
    const answer = await cachedPage(request("/"));
    expect(renders).toBe(1);
    expect(await answer!.text()).toContain(`rendered for ${moved}`);
    // Keeping a page of the new commit (written behind the answer) removed the old commit's pages.
    const commits = () => new Set(pageFiles().map((f) => f.split("/")[0]));
    for (let i = 0; i < 250 && !(commits().size === 1 && commits().has(moved)); i++) await new Promise((r) => setTimeout(r, 20));
    expect(commits()).toEqual(new Set([moved]));
  });

  it("readers arriving together at a page not yet rendered share one render", async () => {
    renders = 0;
    const answers = await Promise.all([1, 2, 3].map(() => cachedPage(request("/tags/x"))));
    expect(renders).toBe(1);
    expect(answers.map((a) => a?.status)).toEqual([200, 200, 200]);
  });

  it("another origin never gets a page kept for this one", async () => {
    await renderAndKeep("/");
    restart();
    // A miss, rendered (and kept) for that origin on its own.
    renders = 0;
    await renderAndKeep("/", cachedPage, "other.example");
    const own = await cachedPage(request("/"));
    expect(await own!.text()).toContain(`at http://${HOST}`);
    restart();
    const other = await cachedPage(request("/", "other.example"));
    expect(await other!.text()).toContain("at http://other.example");
  });

  it("a kept page whose nonce this server would not give (its secret changed) is rendered again", async () => {
    await renderAndKeep("/");
    restart();
    process.env.NEXTAUTH_SECRET = "another secret of at least thirty-two characters, configured now";
    resetConfig();
    try {
      renders = 0;
      const answer = await cachedPage(request("/"));
      expect(renders).toBe(1);
      expect(await answer!.text()).toContain(`nonce="${commitNonce(sessionSecret(), (await (await getContentStore()).resolve(MAIN_REF))!, `http://${HOST}`)}"`);
    } finally {
      delete process.env.NEXTAUTH_SECRET;
      resetConfig();
    }
  });

  it("an agent format is kept too, with its route's own tag", async () => {
    const commit = (await (await getContentStore()).resolve(MAIN_REF))!;
    await renderAndKeep("/agents/index.json", cachedAgentFormat);
    restart();
    const answer = await cachedAgentFormat(request("/agents/index.json"));
    expect(answer?.status).toBe(200);
    expect(answer!.headers.get("etag")).toBe(`"${commit}.index"`);
    expect(JSON.parse(await answer!.text())).toEqual({ commit, origin: `http://${HOST}` });
  });

  it("a damaged page file is not used", async () => {
    const folder = path.join(root, "damaged");
    const commit = "a".repeat(40);
    const page = {
      kind: "page" as const,
      key: "page http://x /",
      headers: [["content-type", "text/html"]] as [string, string][],
      body: Buffer.from("<p>kept</p>"),
    };
    await writePage(folder, commit, page);
    expect((await readPage(folder, commit, page.key))?.body.toString()).toBe("<p>kept</p>");
    expect(await readPage(folder, "b".repeat(40), page.key)).toBeNull();
    expect(await readPage(folder, commit, "page http://y /")).toBeNull();
    const [file] = fs.readdirSync(path.join(folder, "pages", commit));
    const full = path.join(folder, "pages", commit, file!);
    fs.writeFileSync(full, fs.readFileSync(full, "utf8").replace("kept", "KEPT"));
    expect(await readPage(folder, commit, page.key)).toBeNull();
  });
});
