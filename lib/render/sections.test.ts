import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sectionRenders } from "./markdown";
import { renderSection, startSectionWorker } from "./sections";

/**
 * Sections rendered off the request thread (issue 32, finding 2): while the worker renders a heavy
 * note (six sections of long C++, each highlighted up to its bound), a reader of another route is
 * answered at once; the heavy sections end rendered (highlighted as far as the bounds go); a
 * section that overruns the time limit is answered as plain text with a notice, and the next one
 * still renders. The worker entry runs as the server runs it, its TypeScript compiled by tsx.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-sections-"));
process.env.DATA_DIR = dataDir;
delete process.env.CONTENT_REPO;
process.env.SITE_URL = "http://notes.test";

// The worker entry bundled as Next bundles it (our modules in one ESM file, packages imported from
// node_modules): tsx's loaders run our TypeScript as CommonJS, which cannot load the ESM-only
// packages the pipeline imports. Written under node_modules/.cache so those packages resolve.
const bundle = path.join(process.cwd(), "node_modules", ".cache", "field-notes-tests", `section-worker-${process.pid}.mjs`);
const spawn = () => new Worker(bundle);

// A long C++ block: about 29 KB and 500 lines, as the issue measured (8.3 s of a stalled server).
const cpp = (n: number) =>
  "```cpp\n" +
  Array.from({ length: 500 }, (_, i) =>
    i % 3 === 0
      ? `#define M${n}_${i}(a, b) ((a) < (b) ? "x\\"y" : 'c')`
      : i % 3 === 1
        ? `  auto v${i} = std::make_unique<Foo<int, std::string>>(/* c */ ${i}, R"(raw)");`
        : `template <class T> struct S${i} : B<T> { int x; };`,
  ).join("\n") +
  "\n```";
// Blocks of 250 lines (about 14,000 characters): each is highlighted until the section's budget is spent.
const heavy = (n: number) =>
  [
    cpp(n).split("\n").slice(0, 251).join("\n") + "\n```",
    "Between the blocks.",
    cpp(n + 100)
      .split("\n")
      .slice(0, 251)
      .join("\n") + "\n```",
  ].join("\n\n");

let llms: (request: Request) => Promise<Response> | Response;
beforeAll(async () => {
  await build({
    entryPoints: [path.join(import.meta.dirname, "section-worker.ts")],
    outfile: bundle,
    bundle: true,
    format: "esm",
    platform: "node",
    packages: "external",
    logLevel: "error",
  });
  (await import("@/lib/env")).resetConfig();
  llms = (await import("@/app/llms.txt/route")).GET as typeof llms;
  // Warm: the reader below measures waiting, not its route's first build.
  expect((await llms(new Request("http://notes.test/llms.txt"))).status).toBe(200);
});
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(bundle, { force: true });
});

describe("sections rendered in the worker thread", () => {
  it("answer another reader within 2 s while a heavy note renders, and end rendered", async () => {
    const worker = startSectionWorker(spawn);
    try {
      // The worker compiles its modules and grammars first, as a server's does once.
      await renderSection("```cpp\nint x = 1;\n```", { idPrefix: "warm" });
      const asked = performance.now();
      // The reader arrives with the heavy request: its latency counts from then, whatever runs between.
      const reader = new Promise<number>((resolve) =>
        setTimeout(async () => {
          const res = await llms(new Request("http://notes.test/llms.txt"));
          expect(res.status).toBe(200);
          await res.text();
          resolve(performance.now() - asked);
        }, 0),
      );
      const sections = await Promise.all(Array.from({ length: 6 }, (_, i) => renderSection(heavy(i), { idPrefix: `s${i}` })));
      const latency = await reader;
      expect(latency).toBeLessThan(2000);
      for (const html of sections) {
        expect(html).toContain('class="code highlighted"');
        // The second block is past the section's highlighting budget: shown plain, still labelled.
        expect(html.match(/class="code highlighted"/g)).toHaveLength(1);
        expect(html).toContain('<pre class="code" tabindex="0"><code class="language-cpp">');
      }
    } finally {
      await worker?.stop();
      startSectionWorker(null);
    }
  }, 120_000);

  it("answers a section that overruns the time limit as plain text, and renders the next", async () => {
    const worker = startSectionWorker(spawn, 1);
    try {
      const slow = await renderSection(heavy(7), { idPrefix: "slow" });
      expect(slow).toContain("This section is shown as plain text: it took too long to lay out.");
      expect(slow).toContain("&lt;class T&gt;");
    } finally {
      await worker?.stop();
    }
    const next = startSectionWorker(spawn);
    try {
      expect(await renderSection("Plain *words*.", { idPrefix: "next" })).toBe("<p>Plain <em>words</em>.</p>");
    } finally {
      await next?.stop();
      startSectionWorker(null);
    }
  }, 120_000);

  it("keeps a long section once rendered: the same text asked again, by another page or the feed, is not rendered again", async () => {
    const long = heavy(9) + "\n\n" + "Words. ".repeat(4000);
    expect(long.length).toBeGreaterThan(20_000);
    const first = await renderSection(long, { idPrefix: "long" });
    const renders = sectionRenders();
    expect(await renderSection(long, { idPrefix: "long" })).toBe(first);
    // The feed prefixes ids with the note's id: a section with no footnote, diagram or "#" link is shared.
    expect(await renderSection(long, { idPrefix: "AFN-001-long" })).toBe(first);
    expect(sectionRenders()).toBe(renders);
  }, 60_000);
});
