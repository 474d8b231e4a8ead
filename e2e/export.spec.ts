import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { schemaValidator } from "../lib/agents/schema-validator";
import { parseLlmsTxt } from "./support/agents-llms-txt";
import { commitWithGit, readWithGit } from "./support/content-repo";
import { freePort, startNginx, type RunningNginx } from "./support/nginx";
import { SEED_IDS } from "./support/public-seed";

/**
 * `npm run export` run against this production build and this content, served by nginx with
 * deploy/nginx-static.conf as it ships: the site and its agent surface must work with no app
 * server behind them, and a draft written to the content first must be nowhere in the export.
 */

const DRAFT_ON_MAIN = "AFN-953";
const DRAFT_ON_BRANCH = "AFN-963";
const LEAK = new RegExp(`${DRAFT_ON_MAIN}|${DRAFT_ON_BRANCH}|Wombat`);
const run = promisify(execFile);

function draftNote(id: string): string {
  return readWithGit("notes/AFN-016.md")
    .replace(/^id: AFN-016$/m, `id: ${id}`)
    .replace(/^title: .*$/m, `title: Wombat export draft ${id}`)
    .replace(/^status: .*$/m, "status: draft")
    .replace(/^ {2}rank: 1\n {2}label: .*\n/m, "")
    .replace(/^core:\n/m, "");
}

/** Every file under a folder, relative, with forward slashes. */
function filesUnder(dir: string, rel = ""): string[] {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((d) => {
    const p = rel ? `${rel}/${d.name}` : d.name;
    return d.isDirectory() ? filesUnder(dir, p) : [p];
  });
}

async function inBatches<T>(items: T[], check: (item: T) => Promise<void>, size = 6) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(check));
}

test.describe.configure({ mode: "serial" });

let site: RunningNginx;
let out: string;
let exportLog = "";

test.beforeAll(async () => {
  test.setTimeout(240_000);
  commitWithGit({ [`notes/${DRAFT_ON_MAIN}.md`]: draftNote(DRAFT_ON_MAIN) }, { message: "A draft on main, before the export" });
  commitWithGit({ [`notes/${DRAFT_ON_BRANCH}.md`]: draftNote(DRAFT_ON_BRANCH) }, { branch: `drafts/${DRAFT_ON_BRANCH}`, message: "A draft on its branch" });
  // nginx must listen where SITE_URL says, so the export's absolute links lead back to it.
  const port = await freePort();
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-export-"));
  fs.chmodSync(parent, 0o755); // nginx's workers (nobody) read it
  out = path.join(parent, "site");
  const { stdout } = await run(path.resolve("node_modules/.bin/tsx"), ["scripts/export.ts", out], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, SITE_URL: `http://127.0.0.1:${port}` },
    timeout: 180_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  exportLog = stdout;
  site = await startNginx("nginx-static.conf", { FIELD_NOTES_ROOT: out }, port);
});

test.afterAll(async () => {
  await site?.stop();
  if (out) fs.rmSync(path.dirname(out), { recursive: true, force: true });
});

const get = (request: APIRequestContext, p: string, headers: Record<string, string> = {}) => request.get(`${site.url}${p}`, { headers, maxRedirects: 0 });

test("the export reports its progress and holds every seed note and no draft", async () => {
  expect(exportLog).toMatch(/^ {2}\d+ written, \d+ queued/m);
  expect(exportLog).toMatch(/^Exported \d+ files .* of commit [0-9a-f]{12} in [\d.]+ s to /m);
  const files = filesUnder(out);
  for (const id of SEED_IDS) {
    for (const f of [
      `notes/${id}.html`,
      `notes/${id}.md`,
      `notes/${id}.txt`,
      `notes/${id}.json`,
      `notes/${id}/history.html`,
      `agents/capsules/${id}.md`,
      `agents/capsules/${id}.json`,
    ]) {
      expect(files, f).toContain(f);
    }
  }
  const text = (f: string) => {
    const bytes = fs.readFileSync(path.join(out, f));
    return (f.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("latin1");
  };
  const leaks = files.filter((f) => LEAK.test(f) || LEAK.test(text(f)));
  expect(leaks).toEqual([]);
  const manifest = JSON.parse(fs.readFileSync(path.join(out, "_export.json"), "utf8"));
  expect(manifest.site).toBe(site.url);
  expect(manifest.paths["/notes/AFN-016.md"]).toMatchObject({ file: "notes/AFN-016.md", type: "text/markdown; charset=utf-8" });
});

test("without SITE_URL, or over a folder that is not an export, it stops with what is wrong and writes nothing", async () => {
  const tsx = path.resolve("node_modules/.bin/tsx");
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR };
  const target = path.join(path.dirname(out), "not-written");
  delete env.SITE_URL;
  await expect(run(tsx, ["scripts/export.ts", target], { env })).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/SITE_URL is not set/) });
  const mine = path.join(path.dirname(out), "somebody-elses");
  fs.mkdirSync(mine);
  fs.writeFileSync(path.join(mine, "keep.txt"), "mine");
  await expect(run(tsx, ["scripts/export.ts", mine], { env: { ...env, SITE_URL: site.url } })).rejects.toMatchObject({
    code: 1,
    stderr: expect.stringMatching(/is not an earlier export \(no _export.json in it\)/),
  });
  expect(fs.existsSync(target)).toBe(false);
  expect(fs.readdirSync(mine)).toEqual(["keep.txt"]);
});

test("home and a note read as on the app, with no script and no server", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  const home = await page.goto(`${site.url}/`);
  expect(home?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Inference Architecture Field Notes");
  for (const id of SEED_IDS) await expect(page.locator(`a[href="/notes/${id}"]`).first()).toBeAttached();
  expect(await page.locator("script").count()).toBe(0);
  // The stylesheet came with the export.
  expect(await page.evaluate(() => [...document.styleSheets].filter((s) => s.cssRules.length > 0).length)).toBeGreaterThan(0);

  await page.locator('a[href="/notes/AFN-016"]').first().click();
  await expect(page).toHaveURL(`${site.url}/notes/AFN-016`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("A sparse mask is not sparse attention");
  await expect(page.locator('link[rel="alternate"][type="text/markdown"]')).toHaveAttribute("href", `${site.url}/notes/AFN-016.md`);
  // The capsule's "where the evidence is" points at this page's Evidence section, on the static site.
  const capsule = await (await page.request.get(`${site.url}/agents/capsules/AFN-016.json`)).json();
  expect(capsule.evidence.url.startsWith(`${site.url}/notes/AFN-016#`)).toBe(true);
  await expect(page.locator(new URL(capsule.evidence.url).hash)).toContainText("Evidence");
  expect(errors).toEqual([]);

  // The status filter is a file too, which nginx finds by the query.
  await page.goto(`${site.url}/?status=hypothesis`);
  await expect(page).toHaveTitle(/^Status: hypothesis/);
  await expect(page.locator('a[href="/notes/AFN-021"]').first()).toBeAttached();
  await expect(page.locator('a[href="/notes/AFN-016"]')).toHaveCount(0);

  const missing = await page.goto(`${site.url}/notes/AFN-999`);
  expect(missing?.status()).toBe(404);
});

test("every note in every format, and every capsule, with the types and schemas of the app", async ({ request }) => {
  const validator = async (name: string) => {
    const res = await get(request, `/agents/schema/${name}.json`);
    expect(res.headers()["content-type"]).toBe("application/schema+json; charset=utf-8");
    return schemaValidator(await res.json());
  };
  const index = await get(request, "/agents/index.json");
  expect(index.headers()["content-type"]).toBe("application/json; charset=utf-8");
  const doc = await index.json();
  expect((await validator("index"))(doc)).toEqual([]);
  const ids = doc.entries.map((e: { id: string }) => e.id);
  expect(ids).toEqual(expect.arrayContaining(SEED_IDS));
  const noteSchema = await validator("note");
  const capsuleSchema = await validator("capsule");
  await inBatches(ids as string[], async (id) => {
    const md = await get(request, `/notes/${id}.md`);
    expect(md.status(), id).toBe(200);
    expect(md.headers()["content-type"]).toBe("text/markdown; charset=utf-8");
    const mdText = await md.text();
    expect(mdText).toMatch(new RegExp(`^---\\n# For agents: the index of this archive is ${site.url}/llms\\.txt\\nid: ${id}\\n`));
    const txt = await get(request, `/notes/${id}.txt`);
    expect(txt.headers()["content-type"]).toBe("text/plain; charset=utf-8");
    expect((await txt.text()).startsWith(`${id}: `)).toBe(true);
    const json = await get(request, `/notes/${id}.json`);
    expect(json.headers()["content-type"]).toBe("application/json; charset=utf-8");
    expect(noteSchema(await json.json()), id).toEqual([]);
    const capsule = await get(request, `/agents/capsules/${id}.json`);
    expect(capsuleSchema(await capsule.json()), id).toEqual([]);
    const capsuleMd = await get(request, `/agents/capsules/${id}.md`);
    expect(capsuleMd.headers()["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(await capsuleMd.text()).toContain(`> For agents: the index of this archive is ${site.url}/llms.txt\n\n# ${id}: `);
    // Accept: text/markdown at the page's own URL answers the twin, and says the answer varies on it.
    const negotiated = await get(request, `/notes/${id}`, { Accept: "text/markdown" });
    expect(negotiated.headers()["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(negotiated.headers()["vary"]).toMatch(/Accept/);
    expect(await negotiated.text()).toBe(mdText);
  });
});

test("Accept negotiation: a browser keeps the page, a Markdown client gets each page's twin", async ({ request }) => {
  const browser = await get(request, "/notes/AFN-016", { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" });
  expect(browser.headers()["content-type"]).toBe("text/html; charset=utf-8");
  expect(browser.headers()["link"]).toBe('</notes/AFN-016.md>; rel="alternate"; type="text/markdown", </llms.txt>; rel="describedby"');
  for (const [page, twin] of [
    ["/", "/index.md"],
    ["/agents/", "/agents.md"],
    ["/notes/AFN-016/history", "/notes/AFN-016/history.md"],
    ["/?status=hypothesis", "/index.md?status=hypothesis"],
  ]) {
    const res = await get(request, page ?? "", { Accept: "text/markdown, text/html;q=0.5" });
    expect(res.headers()["content-type"], page).toBe("text/markdown; charset=utf-8");
    expect(await res.text(), page).toBe(await (await get(request, twin ?? "")).text());
  }
  expect(await (await get(request, "/index.md?status=hypothesis")).text()).toMatch(/^# Status: /m);
  for (const [p, type] of [
    ["/llms.txt", "text/plain; charset=utf-8"],
    ["/robots.txt", "text/plain; charset=utf-8"],
    ["/sitemap.xml", "application/xml; charset=utf-8"],
    ["/feed.xml", "application/atom+xml; charset=utf-8"],
    ["/agents/phases.json", "application/json; charset=utf-8"],
    ["/agents/pages.txt", "text/plain; charset=utf-8"],
  ]) {
    expect((await get(request, p ?? "")).headers()["content-type"], p).toBe(type);
  }
});

test("llms.txt parses, and every link in it and in the sitemap resolves on the static site", async ({ request }) => {
  const parsed = parseLlmsTxt(await (await get(request, "/llms.txt")).text());
  const links = parsed.sections.flatMap((s) => s.links.map((l) => l.url));
  for (const id of SEED_IDS) expect(links).toContain(`${site.url}/agents/capsules/${id}.md`);
  const sitemap = await (await get(request, "/sitemap.xml")).text();
  const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? "");
  expect(locs).toContain(`${site.url}/notes/AFN-016`);
  const full = await (await get(request, "/llms-full.txt")).text();
  for (const id of SEED_IDS) expect(full).toContain(`\n${id}: `);
  await inBatches([...links, ...locs], async (url) => {
    expect(url.startsWith(`${site.url}/`), url).toBe(true);
    const res = await request.get(url, { maxRedirects: 0 });
    expect(res.status(), url).toBe(200);
  });
});

test("ETags revalidate, a CORS preflight is answered, gzip comes precompressed, and search says it needs the server", async ({ request }) => {
  for (const p of ["/", "/notes/AFN-016.md", "/agents/index.json", "/llms.txt"]) {
    const first = await get(request, p);
    const etag = first.headers()["etag"] ?? "";
    expect(etag, p).toMatch(/^(W\/)?"[^"]+"$/);
    expect(first.headers()["cache-control"], p).toBe("public, max-age=0, must-revalidate");
    const again = await get(request, p, { "If-None-Match": etag });
    expect(again.status(), p).toBe(304);
  }
  const preflight = await request.fetch(`${site.url}/agents/index.json`, {
    method: "OPTIONS",
    headers: { Origin: "https://agent.example", "Access-Control-Request-Method": "GET" },
  });
  expect(preflight.status()).toBe(204);
  expect(preflight.headers()["access-control-allow-origin"]).toBe("*");
  expect(preflight.headers()["access-control-allow-methods"]).toContain("GET");
  // Served from the export's own .gz file to a client that takes gzip.
  const full = await get(request, "/llms-full.txt", { "Accept-Encoding": "gzip" });
  expect(full.headers()["content-encoding"]).toBe("gzip");
  // nginx's own on-the-fly gzip would weaken the ETag; the precompressed file keeps a strong one.
  expect(full.headers()["etag"]).toMatch(/^"[^"]+"$/);
  expect(await full.text()).toContain("\nAFN-016: ");
  const search = await get(request, "/search?q=sparse");
  expect(await search.text()).toContain("Search needs the server");
  expect(await (await get(request, "/search.md")).text()).toMatch(/^> For agents: .*\n\n# Search\n\nSearch needs the server/);
  expect((await get(request, "/_export.json")).status()).toBe(404);
});
