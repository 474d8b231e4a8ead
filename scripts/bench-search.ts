import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { ensureContentRepo } from "@/lib/store/api";
import { openContentStore } from "@/lib/working-copy/content-store";
import { MAIN_REF } from "@/lib/working-copy/layout";
import { corpusArg, corpusNote } from "./bench-corpus";
import { idOf } from "./bench-notes";
import { QUERIES } from "./support/bench-queries";

/**
 * `npm run bench:search`: search latency in-process at 10,000 notes (BENCH_NOTES), the app's own
 * index (`searchNotes`, its answer cache cleared before every query) against the same ranking on
 * MiniSearch's public `search` (lib/testing/minisearch-reference.ts), interleaved query by query,
 * BENCH_ROUNDS rounds; medians of
 * the per-round p50/p95, wall clock and CPU time, and the load average beside them. Then MCP
 * `search_notes` through the real route handler (a new query, and the same query again) against
 * `/agents/search.json`'s handler. `--corpus generated` (the default) is bench:commit's generator
 * (about 50 words, so nearly every query matches nearly every note: the worst case for a scorer);
 * `--corpus realistic` composes the seed's sentences with a natural vocabulary
 * (scripts/bench-corpus.ts). Each archive is built once under BENCH_SEARCH_DIR and reused.
 *
 *   npm run bench:search -- --corpus realistic
 */

const NOTES = Number(process.env.BENCH_NOTES ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CORPUS = corpusArg();
const ROOT = process.env.BENCH_SEARCH_DIR ?? path.join(os.tmpdir(), `fieldnotes-bench-search-${CORPUS}-${NOTES}`);
const SITE = "http://bench.test:3000";

async function archive(): Promise<string> {
  const gitdir = path.join(ROOT, "content.git");
  if (fs.existsSync(path.join(ROOT, "done"))) return gitdir;
  fs.rmSync(ROOT, { recursive: true, force: true });
  fs.mkdirSync(ROOT, { recursive: true });
  await ensureContentRepo(gitdir, path.resolve("content"));
  const store = openContentStore(gitdir);
  const changes: Record<string, string> = {};
  for (let i = 21; i < NOTES; i++) changes[`notes/${idOf(i)}.md`] = corpusNote(CORPUS, i, `Note ${i} of the search benchmark's archive.`);
  const author = { name: "Bench", email: "bench@example.org" };
  await store.commit({ ref: MAIN_REF, expected: await store.resolve("main"), author, message: `Add ${NOTES - 21} notes`, changes });
  fs.writeFileSync(path.join(ROOT, "done"), "");
  return gitdir;
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const median = (xs: number[]) => pct(xs, 50);
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ");
const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));

/** Wall and CPU (user + system) milliseconds of one call. */
async function timed<T>(fn: () => T | Promise<T>): Promise<{ wall: number; cpu: number; value: T }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wall, cpu: (cpu.user + cpu.system) / 1000, value };
}

async function main() {
  const gitdir = await archive();
  process.env.DATA_DIR = ROOT;
  process.env.CONTENT_REPO = gitdir;
  process.env.SITE_URL = SITE;
  const { resetConfig } = await import("@/lib/env");
  resetConfig();
  const { getPublishedView } = await import("@/lib/content/published");
  const search = await import("@/lib/search");
  const { referenceIndex, referenceSearch } = await import("@/lib/testing/minisearch-reference");
  const { SLICE_MS, searchQuery } = await import("@/lib/search/engine");
  const loadBefore = load();
  const view = await getPublishedView();

  // The first build, and how long the event loop (so any request) waits behind it: searchReady's
  // slices of the app's own index, then MiniSearch's index of the same notes (built at once).
  const blocked = async (build: () => Promise<unknown>) => {
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const t = await timed(build);
    delay.disable();
    return { wall: t.wall, p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 };
  };
  const newBuild = await blocked(() => search.searchReady(view));
  let reference = referenceIndex([]);
  const oldBuild = await blocked(async () => void (reference = referenceIndex(view.notes)));
  console.log(`${view.notes.length} notes, ${CORPUS} corpus; load average ${loadBefore}`);
  console.log("\nfirst index build: total, and the event loop's delay while it runs (ms):");
  console.log("| build | total | loop delay p99 | loop delay max |\n| --- | ---: | ---: | ---: |");
  console.log(`| own index, slices of ${SLICE_MS} ms | ${fmt(newBuild.wall)} | ${fmt(newBuild.p99)} | ${fmt(newBuild.max)} |`);
  console.log(`| MiniSearch, at once | ${fmt(oldBuild.wall)} | ${fmt(oldBuild.p99)} | ${fmt(oldBuild.max)} |`);
  // Warm both paths (JIT, the per-commit field lengths) before timing.
  const old = (q: string) => referenceSearch(reference, view.byId, searchQuery(q), 10).map(({ id, score }) => ({ id, score: Number(score.toPrecision(9)) }));
  const own = async (q: string) => (await search.searchNotes(view, q, { limit: 10 })).map(({ id, score }) => ({ id, score: Number(score.toPrecision(9)) }));
  old("warm");
  await search.searchNotes(view, "warm", { limit: 10 });

  type Series = { wall: number[]; cpu: number[] };
  const rounds: Record<"old" | "new", { p50: number; p95: number; cpu50: number; cpu95: number }[]> = { old: [], new: [] };
  let differing = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const series: Record<"old" | "new", Series> = { old: { wall: [], cpu: [] }, new: { wall: [], cpu: [] } };
    for (const [i, q] of QUERIES.entries()) {
      // Alternate which goes first, so neither always runs on a cache the other warmed.
      const order = (round + i) % 2 ? (["old", "new"] as const) : (["new", "old"] as const);
      const answers: Record<string, string> = {};
      for (const which of order) {
        search.forgetAnswers();
        const t = await timed(() => (which === "old" ? old(q) : own(q)));
        series[which].wall.push(t.wall);
        series[which].cpu.push(t.cpu);
        answers[which] = JSON.stringify(t.value);
      }
      if (answers.old !== answers.new) differing++;
    }
    for (const which of ["old", "new"] as const) {
      const s = series[which];
      rounds[which].push({ p50: pct(s.wall, 50), p95: pct(s.wall, 95), cpu50: pct(s.cpu, 50), cpu95: pct(s.cpu, 95) });
    }
  }
  const row = (which: "old" | "new") => {
    const r = rounds[which];
    return {
      p50: median(r.map((x) => x.p50)),
      p95: median(r.map((x) => x.p95)),
      cpu50: median(r.map((x) => x.cpu50)),
      cpu95: median(r.map((x) => x.cpu95)),
    };
  };
  const [before, after] = [row("old"), row("new")];
  console.log(`\nin-process search, ${QUERIES.length} queries × ${ROUNDS} rounds, limit 10, medians of per-round percentiles (ms):`);
  console.log("| path | wall p50 | wall p95 | CPU p50 | CPU p95 |\n| --- | ---: | ---: | ---: | ---: |");
  console.log(`| MiniSearch's public search | ${fmt(before.p50)} | ${fmt(before.p95)} | ${fmt(before.cpu50)} | ${fmt(before.cpu95)} |`);
  console.log(`| own index (searchNotes) | ${fmt(after.p50)} | ${fmt(after.p95)} | ${fmt(after.cpu50)} | ${fmt(after.cpu95)} |`);
  console.log(`| ratio own/MiniSearch | ${(after.p50 / before.p50).toFixed(3)} | ${(after.p95 / before.p95).toFixed(3)} | | |`);
  console.log(`answers that differ: ${differing} of ${QUERIES.length * ROUNDS}`);

  // MCP search_notes and /agents/search.json through their route handlers, in this process. They
  // import server-only, which throws outside Next's server bundle: it is the empty module here,
  // as in the tests (vitest.config.mts).
  const require = createRequire(import.meta.url);
  const serverOnly = require.resolve("server-only");
  require.cache[serverOnly] = { id: serverOnly, filename: serverOnly, loaded: true, exports: {} } as NodeJS.Module;
  const { POST } = await import("@/app/agents/mcp/route");
  const { GET } = await import("@/app/agents/search.json/route");
  const headers = { host: "bench.test:3000", "content-type": "application/json", accept: "application/json, text/event-stream" };
  let id = 0;
  const mcp = (query: string) =>
    POST(
      new Request(`${SITE}/agents/mcp`, {
        method: "POST",
        headers,
        body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: "search_notes", arguments: { query, limit: 10 } } }),
      }),
    ).then((r) => r.text());
  const json = (query: string) =>
    GET(new Request(`${SITE}/agents/search.json?q=${encodeURIComponent(query)}&limit=10`, { headers: { host: "bench.test:3000" } })).then((r) => r.text());
  const http: Record<string, number[]> = {
    "MCP, new query": [],
    "MCP, same query again": [],
    "search.json, new query": [],
    "search.json, same query again": [],
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const q of QUERIES.slice(0, 10)) {
      const query = `${q} r${round}`;
      http["MCP, new query"]!.push((await timed(() => mcp(query))).wall);
      http["MCP, same query again"]!.push((await timed(() => mcp(query))).wall);
      http["search.json, new query"]!.push((await timed(() => json(`${query} j`))).wall);
      http["search.json, same query again"]!.push((await timed(() => json(`${query} j`))).wall);
    }
  }
  console.log(`\nroute handlers in-process, 10 queries × ${ROUNDS} rounds (ms):`);
  console.log("| call | p50 | p95 |\n| --- | ---: | ---: |");
  for (const [name, xs] of Object.entries(http)) console.log(`| ${name} | ${fmt(pct(xs, 50))} | ${fmt(pct(xs, 95))} |`);
  console.log(`\nload average at the start ${loadBefore}, at the end ${load()}`);
  console.log(
    JSON.stringify({
      notes: view.notes.length,
      corpus: CORPUS,
      before_p50_ms: before.p50,
      before_p95_ms: before.p95,
      after_p50_ms: after.p50,
      after_p95_ms: after.p95,
      after_cpu_p95_ms: after.cpu95,
      differing,
      build_loop_delay_max_ms_before: oldBuild.max,
      build_loop_delay_max_ms_after: newBuild.max,
      load: load(),
    }),
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
