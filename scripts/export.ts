// npm run export -- <folder>
//
// Writes the public view of main, and every agent format, as static files a CDN or any file
// server can serve (deploy/nginx-static.conf serves them with nginx). It starts the production
// build's own server (`next start`, NEXT_DIST_DIR, default .next) on a free loopback port over a
// clone of main of the same content (DATA_DIR / CONTENT_REPO, as the app reads them: one commit
// throughout, and no draft branch in it) with SITE_URL as the origin of
// every absolute link, then reads every public URL from it: the sitemap's pages, the agent routes,
// the Markdown twins, and every same-site link any of them names, so the export holds no dangling
// link. The server is the only renderer, so an exported file is byte for byte what the app answers
// (HTML pages without their scripts: see export-paths.ts). Drafts never appear, because the server
// serves only main; anything answering other than 200 stops the export.
//
// The folder is written beside itself and moved into place at the end, so a failed export leaves
// the previous one untouched. Text files of 1 KiB or more get a gzip twin (`<file>.gz`) for
// nginx's gzip_static. It holds `_export.json` (the commit, and every path with its file
// and content type) and `_headers` (the same types in the format Netlify and Cloudflare Pages read).
//
// Search needs the server: /search and /search.md say so and point at the files an agent can search
// itself (/llms-full.txt, /agents/index.json). See docs/decisions/static-export.md.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { twinPathOf } from "../lib/agents/twin-paths";
import { exported, fileFor, linksIn, staticHtml } from "./export-paths";
import { MAIN_REF } from "../lib/working-copy/layout";
import { freePort } from "./support/free-port";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const CONCURRENCY = 4;
const REQUEST_TIMEOUT_MS = 60_000;

class ExportError extends Error {}

function fail(message: string): never {
  throw new ExportError(message);
}

function usage(): { folder: string; site: string } {
  const args = process.argv.slice(2).filter((a) => a !== "--");
  if (args.length !== 1 || args[0]?.startsWith("-")) fail("usage: npm run export -- <folder>   (with SITE_URL set, e.g. SITE_URL=https://notes.example.org)");
  const raw = process.env.SITE_URL?.trim();
  if (!raw)
    fail(
      "SITE_URL is not set: the export's links are absolute, so it needs the site's public origin, e.g. SITE_URL=https://notes.example.org npm run export -- out",
    );
  let site: URL;
  try {
    site = new URL(raw);
  } catch {
    fail(`SITE_URL "${raw}" is not an absolute URL; expected one like https://notes.example.org`);
  }
  if (site.protocol !== "http:" && site.protocol !== "https:") fail(`SITE_URL "${raw}" must be http(s)`);
  if (site.pathname !== "/" || site.search || site.hash) fail(`SITE_URL "${raw}" must be an origin without a path (the app serves from the root)`);
  return { folder: path.resolve(args[0] ?? ""), site: site.origin };
}

/**
 * main of the content repository the app reads (DATA_DIR / CONTENT_REPO, resolved as lib/env.ts
 * does), cloned with only that branch into a folder of the export's own: the export reads one
 * commit even if main moves meanwhile, and no draft branch is even there to be read.
 */
function pinnedContent(): { dataDir: string; commit: string; remove: () => void } {
  const dataDir = path.resolve(process.cwd(), process.env.DATA_DIR || ".data");
  const repo = path.resolve(process.cwd(), process.env.CONTENT_REPO || path.join(dataDir, "content.git"));
  if (!fs.existsSync(repo)) fail(`no content repository at ${repo}: set DATA_DIR (or CONTENT_REPO) to the app's, or start the app once to create it`);
  const own = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-export-content-"));
  const remove = () => fs.rmSync(own, { recursive: true, force: true });
  try {
    execFileSync("git", ["clone", "--bare", "--quiet", "--no-tags", "--single-branch", "--branch", "main", repo, path.join(own, "content.git")], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    const commit = execFileSync("git", ["--git-dir", path.join(own, "content.git"), "rev-parse", "--verify", MAIN_REF], { encoding: "utf8" }).trim();
    return { dataDir: own, commit, remove };
  } catch (e) {
    remove();
    fail(`could not read main of the content repository at ${repo}: ${String((e as { stderr?: Buffer }).stderr ?? (e as Error).message).trim()}`);
  }
}

/** The environment without what would point the server past the pinned clone (another repository, a remote to fetch from). */
function pinnedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ["CONTENT_REPO", "CONTENT_REMOTE", "CONTENT_REMOTE_USER", "CONTENT_REMOTE_TOKEN", "ACCOUNTS_REMOTE"]) delete env[name];
  return env;
}

async function startServer(site: string, dataDir: string): Promise<{ url: string; stop: () => void }> {
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  if (!fs.existsSync(path.join(root, distDir, "BUILD_ID")))
    fail(`no production build in ${distDir}/: run \`npm run build\` first (or set NEXT_DIST_DIR to the build's folder)`);
  const port = Number(process.env.EXPORT_PORT) || (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(
    path.join(root, "node_modules", ".bin", "next"),
    ["start", "-p", String(port), "-H", "127.0.0.1", "--keepAliveTimeout", "65000"],
    {
      cwd: root,
      env: { ...pinnedEnv(), DATA_DIR: dataDir, SITE_URL: site, NEXT_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "ignore", "pipe"],
      // Its own process group, so stopping it stops any worker it started.
      detached: true,
    },
  );
  let stderr = "";
  server.stderr?.on("data", (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-4000);
  });
  const stop = () => {
    if (server.exitCode !== null || server.pid === undefined) return;
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      server.kill("SIGTERM");
    }
  };
  const until = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) fail(`next start exited with ${server.exitCode} before answering:\n${stderr}`);
    const ok = await fetch(`${url}/robots.txt`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, stop };
    if (Date.now() > until) {
      stop();
      fail(`next start on ${url} did not answer within 120 s:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}

type Written = { file: string; type: string; bytes: number; sha256: string };

/** The notice the exported search page and its twin carry instead of a search form. */
function searchNotice(site: string): { html: string; md: string } {
  const text = "Search needs the server: this is a static copy of the archive.";
  const where = `Every note is in one file at ${site}/llms-full.txt, and the compact index with every note's title, status, tags and URLs at ${site}/agents/index.json.`;
  return {
    html: `<h1>Search</h1><p>${text}</p><p>Browse <a href="/">all decision records</a>, or read <a href="/llms-full.txt">every note in one file</a> and <a href="/agents/index.json">the compact index</a>.</p>`,
    md: `# Search\n\n${text} ${where} Browse all decision records at ${site}/index.md.\n`,
  };
}

async function main() {
  const { folder, site } = usage();
  const staging = `${folder}.export-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  if (fs.existsSync(folder) && fs.readdirSync(folder).length > 0 && !fs.existsSync(path.join(folder, "_export.json"))) {
    fail(`${folder} exists and is not an earlier export (no _export.json in it); choose an empty or new folder`);
  }
  const started = Date.now();
  console.log(`Exporting the public view of main for ${site} into ${folder}`);
  const content = pinnedContent();
  const { commit } = content;
  console.log(`Reading main at ${commit}`);
  const written = new Map<string, Written>();
  let server: { url: string; stop: () => void } | null = null;
  try {
    server = await startServer(site, content.dataDir);
    const serverUrl = server.url;
    const queue: URL[] = [];
    // Each URL once, with the first answer that named it (for the error message).
    const seen = new Map<string, string>();
    const enqueue = (u: URL, from = "the export's start list") => {
      const key = `${u.pathname}${u.search}`;
      if (seen.has(key) || !exported(u.pathname, u.search)) return;
      seen.set(key, from);
      queue.push(u);
    };
    const local = (p: string) => new URL(p, serverUrl);
    // The seeds: what the sitemap and llms.txt do not link but an agent or a crawler asks for by name.
    for (const p of [
      "/",
      "/agents/",
      "/llms.txt",
      "/llms-full.txt",
      "/sitemap.xml",
      "/robots.txt",
      "/feed.xml",
      "/agents/index.md",
      "/agents/index.json",
      "/agents/pages.txt",
      "/agents/phases.json",
      "/agents.md",
      "/index.md",
      "/search",
      "/search.md",
      "/icon.svg",
    ]) {
      enqueue(local(p));
    }
    for (const name of ["note", "index-entry", "capsule", "index", "search"]) enqueue(local(`/agents/schema/${name}.json`));
    const notice = searchNotice(site);

    let done = 0;
    let lastLine = 0;
    const fetchOne = async (u: URL) => {
      const where = `${u.pathname}${u.search}`;
      const res = await fetch(u, { headers: { Accept: "text/html,*/*;q=0.8" }, redirect: "manual", signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }).catch(
        (e: Error) => fail(`GET ${where}: ${e.message}`),
      );
      if (res.status !== 200) {
        const to = res.headers.get("location") ? ` (to ${res.headers.get("location")})` : "";
        fail(`GET ${where} answered ${res.status}${to}, linked from ${seen.get(where)}; every exported URL must answer 200`);
      }
      const type = res.headers.get("content-type") ?? "";
      const answered = res.headers.get("x-content-commit");
      if (answered && answered !== commit) fail(`GET ${where} was built from commit ${answered}, not the pinned ${commit}`);
      let body = Buffer.from(await res.arrayBuffer());
      const file = fileFor(decodeURI(u.pathname), u.search, type);
      if (type.startsWith("text/html") || type.startsWith("text/css") || /^(text\/|application\/(json|schema\+json|xml|atom\+xml))/.test(type)) {
        let text = body.toString("utf8");
        if (type.startsWith("text/html")) {
          text = staticHtml(text);
          if (u.pathname === "/search") text = text.replace(/(<main\b[^>]*>)[\s\S]*<\/main>/, `$1${notice.html}</main>`);
          // Each HTML page's Markdown twin, which its <link rel="alternate"> names with the query too.
          const twin = twinPathOf(u.pathname);
          if (twin) enqueue(local(`${twin}${u.search}`), where);
        }
        if (u.pathname === "/search.md") text = text.replace(/^# Search\n[\s\S]*$/m, notice.md);
        // Links are read from what is written, so a removed script's chunk is not exported.
        for (const link of linksIn(text, type, new URL(where, site), site)) enqueue(local(`${link.pathname}${link.search}`), where);
        body = Buffer.from(text, "utf8");
      }
      const target = path.join(staging, file);
      if (!target.startsWith(staging + path.sep)) fail(`GET ${where} would be written outside the export (${file})`);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, body);
      // Compressed once here, so nginx (gzip_static) or a CDN serves it without compressing per request.
      const compressible = /^(text\/|application\/(json|schema\+json|xml|atom\+xml)|image\/svg\+xml)/.test(type);
      if (compressible && body.length >= 1024) fs.writeFileSync(`${target}.gz`, gzipSync(body, { level: 9 }));
      written.set(where, { file, type, bytes: body.length, sha256: createHash("sha256").update(body).digest("hex") });
      done++;
      if (done - lastLine >= 25) {
        lastLine = done;
        console.log(`  ${done} written, ${queue.length} queued (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      }
    };

    // A few at a time: the server renders on the same machine.
    await runAll(queue, fetchOne);
    console.log(`  ${done} written`);

    // The page a file server answers for a path it has no file for.
    const missing = await fetch(local("/notes/AFN-000"), { headers: { Accept: "text/html" } });
    if (missing.status !== 404) fail(`GET /notes/AFN-000 answered ${missing.status}; expected the site's 404 page`);
    const notFound = Buffer.from(staticHtml(await missing.text()), "utf8");
    fs.writeFileSync(path.join(staging, "404.html"), notFound);
  } catch (e) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw e;
  } finally {
    server?.stop();
    content.remove();
  }

  const paths = [...written.keys()].sort();
  const manifest = {
    site,
    commit,
    exported_at: new Date().toISOString(),
    paths: Object.fromEntries(paths.map((p) => [p, written.get(p)])),
  };
  fs.writeFileSync(path.join(staging, "_export.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  // Netlify / Cloudflare Pages: a path, then its headers indented. Query variants need a server rule.
  const headers = paths
    .filter((p) => !p.includes("?"))
    .map((p) => `${p}\n  Content-Type: ${written.get(p)?.type}\n  Access-Control-Allow-Origin: *\n`)
    .join("");
  fs.writeFileSync(path.join(staging, "_headers"), headers);

  fs.rmSync(folder, { recursive: true, force: true });
  fs.renameSync(staging, folder);
  const total = [...written.values()].reduce((n, w) => n + w.bytes, 0);
  console.log(
    `Exported ${paths.length} files (${(total / 1024).toFixed(0)} KiB) of commit ${commit.slice(0, 12)} in ${((Date.now() - started) / 1000).toFixed(1)} s to ${folder}`,
  );
}

/** Run `work` over a queue that grows while it runs, CONCURRENCY at a time; the first failure stops it. */
async function runAll(queue: URL[], work: (u: URL) => Promise<void>): Promise<void> {
  let busy = 0;
  let failure: unknown = null;
  await new Promise<void>((resolve, reject) => {
    const pump = () => {
      if (failure) return;
      if (busy === 0 && queue.length === 0) return resolve();
      while (busy < CONCURRENCY && queue.length > 0) {
        const next = queue.shift() as URL;
        busy++;
        work(next).then(
          () => {
            busy--;
            pump();
          },
          (e) => {
            failure = e;
            reject(e);
          },
        );
      }
    };
    pump();
  });
}

main().catch((e) => {
  console.error(`export failed: ${e instanceof ExportError ? e.message : (e as Error).stack}`);
  process.exit(1);
});
