import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { ensureContentRepo } from "@/lib/store/api";
import { openContentStore } from "@/lib/working-copy/content-store";
import { tempDir } from "@/lib/store/testing";
import { corpusArg, corpusNote } from "./bench-corpus";
import { idOf } from "./bench-notes";
import { MAIN_REF } from "@/lib/working-copy/layout";
import { pageFile } from "@/lib/read-model/pages";
import { QUERIES } from "./support/bench-queries";

/**
 * The read path at scale, against the production server (`next start` of the build in
 * NEXT_DIST_DIR, default .next): for 21 notes (the seed) and 10,000 (the seed plus bench:commit's
 * generated notes), req/s and p99 of every public page and agent format as a ratio of a static
 * file served by the same server, in interleaved rounds (autocannon, 16 connections), medians;
 * then capsule p99 while a commit is being indexed, search latency (HTTP and in-process), start to
 * first 200 (cold, then warm from the persisted read model: on the same commit, and after a commit
 * made while the server was down), the first request after a one-note commit (on the server that
 * ran the rounds, and again after a warm start, which answered from disk and rendered nothing yet),
 * response sizes and the server's RSS. Prints a table per size and, last, one JSON line.
 *
 * "Does a request wait on indexing" is measured twice: at 16 connections (the first figure; on 2
 * cores its p99 is mostly queueing behind the other 15), and at READER_CONNECTIONS readers, each
 * asking for a capsule as soon as its last one answered, compared with the same readers on the
 * same server with nothing being indexed: once during the full first search build (a fresh
 * server, nothing of the search index persisted, a search arriving while capsules are read) and
 * once during a one-note commit's incremental reindex (a search and the home page asking for it).
 * BENCH_CPU_PROF=<dir> runs the server with `--cpu-prof` into that folder (what held the loop).
 * BENCH_NODE_ARGS="--flag …" starts the server's node with those flags (e.g. a V8 flag to compare).
 *
 * `--corpus realistic` builds the 10,000 notes from the seed's sentences and a natural vocabulary
 * (scripts/bench-corpus.ts) instead of the generator's 50 words.
 *
 *   npm run build && npm run bench:read [-- --corpus generated|realistic]
 *   BENCH_SIZES=21 BENCH_DURATION=3 BENCH_ROUNDS=1 npm run bench:read   (a quick look; BENCH_ROUNDS=0: no req/s table)
 */

const CORPUS = corpusArg();
const SIZES = (process.env.BENCH_SIZES ?? "21,10000").split(",").map(Number);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 16;
// Readers for the "waits on indexing" measures: few enough that a slow answer is the server's, not the queue's.
const READER_CONNECTIONS = 2;
const PORT = Number(process.env.BENCH_PORT ?? 3207);
const DIST = process.env.NEXT_DIST_DIR ?? ".next";
const BASE = `http://127.0.0.1:${PORT}`;
const SEED = path.resolve("content");
const AUTHOR = { name: "Bench Editor", email: "bench@example.org" };
// What a browser or an agent's HTTP client sends: compressed answers where the server has them.
const ACCEPT_ENCODING = "gzip, deflate, br";

const require = createRequire(import.meta.url);
type AutocannonResult = {
  requests: { average: number; total: number };
  latency: { p99: number; p50: number };
  non2xx: number;
  errors: number;
  timeouts: number;
};
const autocannon = require("autocannon") as (opts: Record<string, unknown>) => Promise<AutocannonResult>;

type Target = { name: string; path: string; method?: "GET" | "POST"; body?: string; headers?: Record<string, string> };

const mcpCall = (query: string) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_notes", arguments: { query, limit: 10 } } });

const TARGETS: Target[] = [
  { name: "static file", path: "/bench-static.html" },
  { name: "/", path: "/" },
  { name: "/notes/<id>", path: "/notes/AFN-016" },
  { name: "/notes/<id>/history", path: "/notes/AFN-016/history" },
  { name: "/search?q=", path: "/search?q=transactional+state" },
  { name: "/agents/index.json", path: "/agents/index.json" },
  { name: "capsule", path: "/agents/capsules/AFN-016.json" },
  { name: "/notes/<id>.md", path: "/notes/AFN-016.md" },
  { name: "/llms.txt", path: "/llms.txt" },
  { name: "/agents/search.json", path: "/agents/search.json?q=transactional+state&limit=10" },
  {
    name: "MCP search_notes",
    path: "/agents/mcp",
    method: "POST",
    body: mcpCall("transactional state"),
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
  },
];

type Row = Record<string, string | number>;

/**
 * Static references of the same bytes. Next compresses every answer per request when the client
 * accepts gzip or br (a static file too), and that cost grows with the body, so a large format's
 * "ratio" (÷ the small static file) mixes what its route costs with what its size costs. Each GET
 * body of at least SAME_BYTES_MIN is therefore also copied, byte for byte, into a static file
 * served by the same server (public/, named per port; the names exist before the server starts,
 * since `next start` lists public/ once, and the bytes are written once the body is known), and
 * hammered right after its format: "ratio same bytes" (÷ that copy) is how far the format is from
 * static with its bytes. The copies are deleted at the end.
 */
const SAME_BYTES_MIN = 16 * 1024;
const SAME_BYTES_PREFIX = `bench-same-${PORT}-`;
const sameBytesFile = (t: Target) => {
  const ext = /\.(json|txt|md)$/.exec(t.path.split("?")[0]!)?.[1] ?? "html";
  return `${SAME_BYTES_PREFIX}${t.name.replace(/[^a-z0-9]+/gi, "-").replace(/^-+|-+$/g, "") || "home"}.${ext}`;
};
const sameBytesCandidates = () => TARGETS.filter((t) => t.name !== "static file" && (t.method ?? "GET") === "GET");

function removeSameBytes() {
  for (const f of fs.existsSync("public") ? fs.readdirSync("public") : [])
    if (f.startsWith(SAME_BYTES_PREFIX)) fs.rmSync(path.join("public", f), { force: true });
}

async function main() {
  if (!fs.existsSync(path.join(DIST, "BUILD_ID"))) throw new Error(`no production build in ${DIST}: run \`next build\` (with NEXT_DIST_DIR=${DIST}) first`);
  if (!fs.existsSync("public/bench-static.html")) throw new Error("public/bench-static.html is missing: the static reference file");
  const root = tempDir("bench-read");
  const load0 = os.loadavg()[0]!;
  const results: SizeResult[] = [];
  try {
    for (const notes of SIZES) results.push(await benchSize(notes, root));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
    removeSameBytes();
  }
  const load = os.loadavg();
  console.log(
    `\n${os.availableParallelism()} cores; node ${process.version}; autocannon -c ${CONNECTIONS} -d ${DURATION}, ${ROUNDS} interleaved rounds, medians; load average at start ${load0.toFixed(1)}, at end ${load.map((l) => l.toFixed(1)).join(" ")}\n`,
  );
  for (const r of results) {
    console.log(`\n${r.notes} notes: req/s and p99 (ms) as medians of ${ROUNDS} rounds; ratio = req/s ÷ the static file's`);
    console.table(r.rows);
    console.table(r.extras);
  }
  const large = results[results.length - 1]!;
  const ratio = (name: string) => large.ratios[name] ?? null;
  console.log(
    JSON.stringify({
      notes: large.notes,
      corpus: CORPUS,
      home_ratio: ratio("/"),
      note_ratio: ratio("/notes/<id>"),
      history_ratio: ratio("/notes/<id>/history"),
      search_ratio: ratio("/search?q="),
      index_json_ratio: ratio("/agents/index.json"),
      capsule_ratio: ratio("capsule"),
      note_md_ratio: ratio("/notes/<id>.md"),
      llms_txt_ratio: ratio("/llms.txt"),
      search_json_ratio: ratio("/agents/search.json"),
      mcp_ratio: ratio("MCP search_notes"),
      static_rps: large.staticRps,
      p99_during_reindex_ms: large.p99DuringReindex,
      capsule_quiet_p99_ms: large.readers.quiet.p99,
      capsule_first_build_p99_ms: large.readers.firstBuild.p99,
      capsule_first_build_max_ms: large.readers.firstBuild.max,
      first_build_ms: large.readers.firstBuildMs,
      capsule_incremental_p99_ms: large.readers.incremental.p99,
      capsule_incremental_max_ms: large.readers.incremental.max,
      search_p50_ms: large.searchHttp.p50,
      search_p95_ms: large.searchHttp.p95,
      search_inprocess_p50_ms: large.searchInProcess.p50,
      search_inprocess_p95_ms: large.searchInProcess.p95,
      search_inprocess_second_pass_p95_ms: large.searchInProcess.warmP95,
      static_start_ms: large.staticStart,
      start_to_first_200_ms: large.coldStart,
      warm_start_ms: large.warmStart,
      warm_start_moved_ms: large.warmStartMoved,
      warm_first_search_ms: large.warmSearch,
      warm_moved_first_search_ms: large.warmSearchMoved,
      first_after_commit_ms: large.firstAfterCommit["/"],
      first_after_commit_index_json_ms: large.firstAfterCommit["/agents/index.json"],
      first_after_commit_search_ms: large.firstAfterCommit["/agents/search.json"],
      warm_first_after_commit_ms: large.firstAfterWarmCommit["/"],
      warm_first_after_commit_index_json_ms: large.firstAfterWarmCommit["/agents/index.json"],
      warm_first_after_commit_search_ms: large.firstAfterWarmCommit["/agents/search.json"],
      warm_first_after_commit_note_ms: large.firstAfterWarmCommit["/notes/<id>"],
      ...Object.fromEntries(Object.entries(large.sameBytesRatios).map(([name, r]) => [`${RATIO_KEYS[name] ?? name}_same_bytes`, r])),
      home_bytes: large.sizes["/"],
      index_json_bytes: large.sizes["/agents/index.json"],
      llms_txt_bytes: large.sizes["/llms.txt"],
      rss_mb: large.rssMb,
      cores: os.availableParallelism(),
      load_average: Number(load[0]!.toFixed(1)),
    }),
  );
}

// The JSON line's names for the same-bytes ratios (beside the old ratio of each).
const RATIO_KEYS: Record<string, string> = {
  "/": "home_ratio",
  "/notes/<id>": "note_ratio",
  "/notes/<id>/history": "history_ratio",
  "/search?q=": "search_ratio",
  "/agents/index.json": "index_json_ratio",
  capsule: "capsule_ratio",
  "/notes/<id>.md": "note_md_ratio",
  "/llms.txt": "llms_txt_ratio",
  "/agents/search.json": "search_json_ratio",
};

type SizeResult = {
  sameBytesRatios: Record<string, number>;
  notes: number;
  rows: Row[];
  extras: Row[];
  ratios: Record<string, number>;
  staticRps: number;
  p99DuringReindex: number;
  readers: Readers;
  searchHttp: { p50: number; p95: number };
  searchInProcess: { p50: number; p95: number; warmP95: number };
  staticStart: number;
  coldStart: number;
  warmStart: number;
  warmStartMoved: number;
  warmSearch: number;
  warmSearchMoved: number;
  firstAfterCommit: Record<string, number>;
  firstAfterWarmCommit: Record<string, number>;
  sizes: Record<string, number>;
  rssMb: number;
};

async function benchSize(notes: number, root: string): Promise<SizeResult> {
  const dataDir = path.join(root, `n${notes}`);
  const gitdir = path.join(dataDir, "content.git");
  await buildArchive(gitdir, notes);
  const store = openContentStore(gitdir);
  let edit = 0;
  // A one-note commit on main from outside the server, as an agent's plain-git push would be.
  const commitOne = async () => {
    let i = 21 + ((edit * 7919) % Math.max(1, notes - 21));
    // A verified note's summary is its substance, which a commit changes only with approvals
    // (verified-change: main would refuse the commit and go on serving the last one): edit a hypothesis.
    while (notes > 21 && !/^status: hypothesis$/m.test(corpusNote(CORPUS, i, "A note."))) i = 21 + ((i - 20) % (notes - 21));
    const k = edit++;
    const file = notes > 21 ? `notes/${idOf(i)}.md` : "notes/AFN-019.md";
    const text =
      notes > 21
        ? corpusNote(CORPUS, i, `Edit ${k} during the read benchmark.`)
        : (await store.readFile("main", file))!.replace(/^summary: .*$/m, `summary: Edited ${k} during the read benchmark.`);
    const head = await store.resolve("main");
    await store.commit({ ref: MAIN_REF, expected: head, author: AUTHOR, message: `Bench edit ${k}`, changes: { [file]: text } });
  };

  // The floor under every start figure: `next start` of this build to its first 200 of a static
  // file (no content read). What it persisted meanwhile is removed, so the cold start below is cold.
  const staticServer = await startServer(dataDir, "/bench-static.html");
  const staticStart = staticServer.firstOk;
  await stopServer(staticServer);
  fs.rmSync(path.join(dataDir, "read-model"), { recursive: true, force: true });

  // Cold start: no derived index on disk yet.
  // The same-bytes copies' names, empty until their bodies are known (see SAME_BYTES_MIN).
  removeSameBytes();
  for (const t of sameBytesCandidates()) fs.writeFileSync(path.join("public", sameBytesFile(t)), "");
  let server = await startServer(dataDir);
  const coldStart = server.firstOk;
  const rss = sampleRss(server.child.pid!);
  try {
    // Capsule readers on this fresh server: with nothing indexed yet, then while a search makes
    // the full first build (nothing of the search index is on disk: the data folder is new).
    const capsulePath = TARGETS.find((t) => t.name === "capsule")!.path;
    await readersWhile(capsulePath, () => sleep(1000));
    const quietBefore = await readersWhile(capsulePath, () => sleep(3000));
    let firstBuildMs = 0;
    const firstBuild = await readersWhile(capsulePath, async () => {
      await sleep(200);
      const t = performance.now();
      await fetchText(`/agents/search.json?q=first+build`);
      firstBuildMs = ms(performance.now() - t);
      await sleep(200);
    });
    const firstRequest: Row = {};
    for (const t of TARGETS) firstRequest[t.name] = ms(await timed(t));
    const sizes: Record<string, number> = {};
    for (const p of [
      "/",
      "/notes/AFN-016",
      "/search?q=transactional+state",
      "/agents/index.json",
      "/llms.txt",
      "/agents/search.json?q=transactional+state&limit=10",
    ]) {
      sizes[p] = (await fetchText(p, { "accept-encoding": "identity" })).bytes;
    }
    // Each large GET body's static copy of the same bytes, hammered right after its format.
    const sameBytes = new Map<string, Target>();
    for (const t of sameBytesCandidates()) {
      const res = await fetch(`${BASE}${t.path}`, { headers: { "accept-encoding": "identity", ...t.headers } });
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200 || body.length < SAME_BYTES_MIN) continue;
      fs.writeFileSync(path.join("public", sameBytesFile(t)), body);
      sameBytes.set(t.name, { name: `${t.name}: static, same ${body.length} bytes`, path: `/${sameBytesFile(t)}` });
    }

    const runs = new Map<string, AutocannonResult[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const t of TARGETS.flatMap((t) => [t, ...(sameBytes.has(t.name) ? [sameBytes.get(t.name)!] : [])])) {
        const r = await hammer(t, DURATION);
        runs.set(t.name, [...(runs.get(t.name) ?? []), r]);
      }
    }
    const staticRps = median((runs.get("static file") ?? []).map((r) => r.requests.average));
    const ratios: Record<string, number> = {};
    const sameBytesRatios: Record<string, number> = {};
    // "ratio" stays ÷ the small static file; "ratio same bytes" is ÷ the static copy of this body.
    const sameBytesColumns = (t: Target): Row => {
      const copy = sameBytes.get(t.name);
      if (!copy) return { "same-bytes static req/s": "", "ratio same bytes": "" };
      const rps = median((runs.get(t.name) ?? []).map((r) => r.requests.average));
      const copyRps = median((runs.get(copy.name) ?? []).map((r) => r.requests.average));
      sameBytesRatios[t.name] = round3(rps / copyRps);
      return { "same-bytes static req/s": Math.round(copyRps), "ratio same bytes": sameBytesRatios[t.name]! };
    };
    const rows: Row[] = TARGETS.map((t) => {
      const rs = runs.get(t.name) ?? [];
      const rps = median(rs.map((r) => r.requests.average));
      ratios[t.name] = round3(rps / staticRps);
      return {
        target: t.name,
        "req/s": Math.round(rps),
        ratio: ratios[t.name]!,
        "p99 ms": median(rs.map((r) => r.latency.p99)),
        "p50 ms": median(rs.map((r) => r.latency.p50)),
        "non-2xx+errors": rs.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0),
        "first request ms": firstRequest[t.name]!,
        ...sameBytesColumns(t),
      };
    });

    // Search latency over HTTP: 30 queries, one at a time, after one warm-up.
    await fetchText(`/agents/search.json?q=warm`);
    const httpTimes: number[] = [];
    for (const q of QUERIES) httpTimes.push(await timed({ name: q, path: `/agents/search.json?q=${encodeURIComponent(q)}&limit=10` }));
    // The floor under it: the same number of requests, one at a time, for an answer already in memory (a capsule).
    const floorTimes: number[] = [];
    for (let i = 0; i < QUERIES.length; i++) floorTimes.push(await timed(TARGETS.find((t) => t.name === "capsule")!));

    // A capsule under load while the server indexes a new commit: the commit lands, a search and
    // the home page ask for the new index and view, and the capsule's p99 is what a reader waits.
    await commitOne();
    const capsule = TARGETS.find((t) => t.name === "capsule")!;
    const during = hammer(capsule, Math.min(DURATION, 5));
    await sleep(50);
    void fetchText(`/agents/search.json?q=reindex`).catch(() => undefined);
    void fetchText(`/`).catch(() => undefined);
    const p99DuringReindex = (await during).latency.p99;

    // The same at READER_CONNECTIONS readers: quiet, then while a one-note commit is indexed.
    const quiet = await readersWhile(capsule.path, () => sleep(3000));
    await commitOne();
    const incremental = await readersWhile(capsule.path, async () => {
      await sleep(50);
      await Promise.all([fetchText(`/agents/search.json?q=reindex+two`), fetchText(`/`)]);
      await sleep(200);
    });
    const readers: Readers = { quiet, quietBefore, firstBuild, firstBuildMs, incremental };

    // The first request of each kind after a one-note commit (each after its own commit).
    const firstAfterCommit: Record<string, number> = {};
    for (const t of [TARGETS[1]!, TARGETS[5]!, TARGETS[9]!, TARGETS[2]!]) {
      await sleep(300);
      await commitOne();
      firstAfterCommit[t.name] = ms(await timed(t));
    }
    // The server persists its read model a moment after each commit (lib/read-model): stop it only
    // once that names main's commit, as a server that ran a few seconds more would have.
    const head = (await store.resolve("main"))!;
    const persistedHead = await waitForPersisted(dataDir, head);
    // And the home page of that commit, rendered ahead a moment after the commit (lib/http/page-cache.ts):
    // without it the warm start below renders `/` as after a commit made while down.
    const persistedHome = await waitForPage(dataDir, head, `page ${BASE} /`);
    // The search worker saved its index after the first build, and saves again only once it has moved
    // by many notes (lib/search/worker.ts): a restart loads that one and moves it by the commits since.
    const savedIndex = await waitForPersisted(dataDir, "", "search-index.json", 400);
    const rssRun = rss.stop();
    await stopServer(server);

    // Warm start: the same data folder, with whatever the server persisted; then the first search,
    // which loads the saved index instead of building one.
    const firstSearch = async () => {
      const t = performance.now();
      await fetchText(`/agents/search.json?q=after+a+restart`);
      return ms(performance.now() - t);
    };
    server = await startServer(dataDir);
    const warmStart = server.firstOk;
    const warmSearch = await firstSearch();
    await stopServer(server);
    // And once more after a commit made while it was down (plain git, a push to the remote): no
    // page of the new commit is on disk, so / waits for the read model and a render; the saved
    // index is moved by the one changed note.
    await commitOne();
    server = await startServer(dataDir);
    const warmStartMoved = server.firstOk;
    const warmSearchMoved = await firstSearch();
    // It persists that commit's read model and home before it stops, for the start below.
    const movedHead = (await store.resolve("main"))!;
    await waitForPersisted(dataDir, movedHead);
    await waitForPage(dataDir, movedHead, `page ${BASE} /`);
    await stopServer(server);
    // A warm start on the same commit (home from disk), a few seconds idle, then the first request
    // of each kind after a one-note commit (each after its own): the first renders of a process that
    // answered from disk, where the page and route modules load unless something loaded them before.
    server = await startServer(dataDir);
    await sleep(5000);
    const firstAfterWarmCommit: Record<string, number> = {};
    for (const t of [TARGETS[1]!, TARGETS[5]!, TARGETS[9]!, TARGETS[2]!]) {
      await sleep(300);
      await commitOne();
      firstAfterWarmCommit[t.name] = ms(await timed(t));
    }
    await stopServer(server);

    const searchInProcess = await inProcessSearch(dataDir, gitdir);
    const extras: Row[] = [
      { measure: `capsule p99 during a one-note reindex, ${CONNECTIONS} connections (ms)`, value: p99DuringReindex },
      ...readerRows(readers),
      { measure: "search over HTTP p50 / p95 (ms, 30 queries)", value: `${ms(pct(httpTimes, 50))} / ${ms(pct(httpTimes, 95))}` },
      {
        measure: "a kept capsule over HTTP, one at a time, p50 / p95 (ms, 30 requests: the floor)",
        value: `${ms(pct(floorTimes, 50))} / ${ms(pct(floorTimes, 95))}`,
      },
      { measure: "search in-process p50 / p95 (ms, 30 queries)", value: `${searchInProcess.p50} / ${searchInProcess.p95}` },
      { measure: "search in-process, second pass p50 / p95 (ms, 30 queries)", value: `${searchInProcess.warmP50} / ${searchInProcess.warmP95}` },
      { measure: "search in-process first query (index build, ms)", value: searchInProcess.first },
      { measure: "start to first 200 of the static file (the floor, ms)", value: ms(staticStart) },
      { measure: "start to first 200 of / (cold, ms)", value: ms(coldStart) },
      { measure: "start to first 200 of / (warm, ms)", value: ms(warmStart) },
      { measure: "start to first 200 of / (warm, main moved while down, ms)", value: ms(warmStartMoved) },
      { measure: "search index saved (after the first build) before the restart", value: savedIndex ? "yes" : "NO" },
      { measure: "first search after a warm start / after main moved while down (ms)", value: `${warmSearch} / ${warmSearchMoved}` },
      { measure: "read model persisted for main's commit before the restart", value: persistedHead ? "yes" : "no (timed out)" },
      { measure: "home page persisted for main's commit before the restart", value: persistedHome ? "yes" : "no (timed out)" },
      ...Object.entries(firstAfterCommit).map(([k, v]) => ({ measure: `first ${k} after a one-note commit (ms)`, value: v })),
      ...Object.entries(firstAfterWarmCommit).map(([k, v]) => ({ measure: `first ${k} after a one-note commit, after a warm start (ms)`, value: v })),
      ...Object.entries(sizes).map(([k, v]) => ({ measure: `size of ${k} (bytes, uncompressed)`, value: v })),
      { measure: "server RSS, max (MB)", value: rssRun },
    ];
    return {
      notes,
      rows,
      extras,
      ratios,
      sameBytesRatios,
      staticRps: Math.round(staticRps),
      p99DuringReindex,
      readers,
      searchHttp: { p50: ms(pct(httpTimes, 50)), p95: ms(pct(httpTimes, 95)) },
      searchInProcess: { p50: searchInProcess.p50, p95: searchInProcess.p95, warmP95: searchInProcess.warmP95 },
      staticStart: ms(staticStart),
      coldStart: ms(coldStart),
      warmStart: ms(warmStart),
      warmStartMoved: ms(warmStartMoved),
      warmSearch,
      warmSearchMoved,
      firstAfterCommit,
      firstAfterWarmCommit,
      sizes,
      rssMb: rssRun,
    };
  } finally {
    rss.stop();
    await stopServer(server);
  }
}

/** The seed (21 notes, site.yaml, phases) and, above 21, the generator's notes in one more commit. */
async function buildArchive(gitdir: string, notes: number) {
  await ensureContentRepo(gitdir, SEED);
  if (notes <= 21) return;
  const store = openContentStore(gitdir);
  const changes: Record<string, string> = {};
  for (let i = 21; i < notes; i++) changes[`notes/${idOf(i)}.md`] = corpusNote(CORPUS, i, `Note ${i} of the read benchmark's archive.`);
  await store.commit({ ref: MAIN_REF, expected: await store.resolve("main"), author: AUTHOR, message: `Add ${notes - 21} notes`, changes });
}

/** Waits (up to `tries` × 100 ms) until `found` holds in some build's read-model folder; false if it never does. */
async function waitForReadModel(dataDir: string, found: (folder: string) => boolean, tries = 200): Promise<boolean> {
  const root = path.join(dataDir, "read-model");
  for (let i = 0; i < tries; i++) {
    for (const build of fs.existsSync(root) ? fs.readdirSync(root) : []) if (found(path.join(root, build))) return true;
    await sleep(100);
  }
  return false;
}

/** Waits until the persisted `file` (head.json, the saved index) names `commit`; an empty `commit`: any commit. */
function waitForPersisted(dataDir: string, commit: string, file = "head.json", tries = 200): Promise<boolean> {
  return waitForReadModel(
    dataDir,
    (folder) => fs.existsSync(path.join(folder, file)) && startOf(path.join(folder, file)).includes(commit ? `"commit":"${commit}"` : `"commit":"`),
    tries,
  );
}

/** Waits until the page of `key` is on disk for `commit`. */
function waitForPage(dataDir: string, commit: string, key: string): Promise<boolean> {
  return waitForReadModel(dataDir, (folder) => fs.existsSync(pageFile(folder, commit, key)));
}

/** The first bytes of a file: where head.json and the saved search index name their commit. */
function startOf(file: string): string {
  const fd = fs.openSync(file, "r");
  try {
    const buffer = Buffer.alloc(200);
    return buffer.subarray(0, fs.readSync(fd, buffer, 0, 200, 0)).toString("utf8");
  } finally {
    fs.closeSync(fd);
  }
}

type Server = { child: ChildProcess; firstOk: number };

async function startServer(dataDir: string, first = "/"): Promise<Server> {
  const bin = require.resolve("next/dist/bin/next");
  const started = performance.now();
  const prof = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, ...prof, bin, "start", "-p", String(PORT), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_DIST_DIR: DIST,
      DATA_DIR: dataDir,
      CONTENT_REPO: "",
      SITE_URL: "",
      PORT: String(PORT),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  let exited = false;
  child.on("exit", () => (exited = true));
  for (;;) {
    if (exited) throw new Error("the server exited before answering");
    try {
      const res = await fetch(`${BASE}${first}`, { signal: AbortSignal.timeout(60_000) });
      await res.arrayBuffer();
      if (res.status === 200) return { child, firstOk: performance.now() - started };
    } catch {
      // not listening yet
    }
    await sleep(20);
  }
}

async function stopServer(server: Server) {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const gone = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGTERM");
  await Promise.race([gone, sleep(5000)]);
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
  await sleep(200);
}

type Latency = { count: number; p50: number; p99: number; max: number };
type Readers = { quiet: Latency; quietBefore: Latency; firstBuild: Latency; firstBuildMs: number; incremental: Latency };

function readerRows(r: Readers): Row[] {
  const show = (l: Latency) => `${l.p50} / ${l.p99} / ${l.max} (${l.count} requests)`;
  const n = READER_CONNECTIONS;
  return [
    { measure: `capsule p50 / p99 / max, ${n} readers, fresh server, nothing indexed (ms)`, value: show(r.quietBefore) },
    { measure: `capsule p50 / p99 / max, ${n} readers, during the full first search build (ms)`, value: show(r.firstBuild) },
    { measure: "full first search build, the search's wait (ms)", value: r.firstBuildMs },
    { measure: `capsule p50 / p99 / max, ${n} readers, nothing being indexed (ms)`, value: show(r.quiet) },
    { measure: `capsule p50 / p99 / max, ${n} readers, during a one-note reindex (ms)`, value: show(r.incremental) },
  ];
}

/**
 * READER_CONNECTIONS readers, each asking for `p` again as soon as it answered (one kept-alive
 * connection each), for as long as `work` runs; the latencies they saw.
 */
async function readersWhile(p: string, work: () => Promise<unknown>): Promise<Latency> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: READER_CONNECTIONS });
  const times: number[] = [];
  let running = true;
  const get = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.get(`${BASE}${p}`, { agent, headers: { "accept-encoding": ACCEPT_ENCODING } }, (res) => {
        res.resume();
        res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`${p} answered ${res.statusCode}`))));
      });
      req.on("error", reject);
    });
  const reader = async () => {
    while (running) {
      const t = performance.now();
      await get();
      times.push(performance.now() - t);
    }
  };
  const readers = Array.from({ length: READER_CONNECTIONS }, reader);
  try {
    await work();
  } finally {
    running = false;
    await Promise.all(readers);
    agent.destroy();
  }
  return { count: times.length, p50: ms(pct(times, 50)), p99: ms(pct(times, 99)), max: ms(Math.max(...times)) };
}

function hammer(t: Target, seconds: number): Promise<AutocannonResult> {
  return autocannon({
    url: `${BASE}${t.path}`,
    method: t.method ?? "GET",
    body: t.body,
    headers: { "accept-encoding": ACCEPT_ENCODING, ...t.headers },
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 30,
  });
}

async function timed(t: Target): Promise<number> {
  const start = performance.now();
  const res = await fetch(`${BASE}${t.path}`, { method: t.method ?? "GET", body: t.body, headers: { "accept-encoding": ACCEPT_ENCODING, ...t.headers } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${t.path} answered ${res.status}`);
  return performance.now() - start;
}

async function fetchText(p: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${BASE}${p}`, { headers });
  const bytes = (await res.arrayBuffer()).byteLength;
  if (res.status !== 200) throw new Error(`${p} answered ${res.status}`);
  return { bytes };
}

/** The search module in this process, on the same repository: 30 queries after the first. */
async function inProcessSearch(dataDir: string, gitdir: string) {
  process.env.DATA_DIR = dataDir;
  process.env.CONTENT_REPO = gitdir;
  const { resetConfig } = await import("@/lib/env");
  resetConfig();
  const { getPublishedView } = await import("@/lib/content/published");
  const search = (await import("@/lib/search")) as typeof import("@/lib/search") & { whenIndexed?: (view: unknown) => Promise<void> };
  const view = await getPublishedView();
  let t = performance.now();
  if (search.whenIndexed) await search.whenIndexed(view);
  await search.searchNotes(view, "warm", { limit: 10 });
  const first = ms(performance.now() - t);
  const times: number[] = [];
  for (const q of QUERIES) {
    t = performance.now();
    await search.searchNotes(view, q, { limit: 10 });
    times.push(performance.now() - t);
  }
  // The same queries once more (answers forgotten): the first pass runs right after the view and
  // the index were built in this process, and pays their garbage collection and the first calls'
  // compilation; bench:search times warm passes only, hence its lower figures.
  const again: number[] = [];
  for (const q of QUERIES) {
    search.forgetAnswers();
    t = performance.now();
    await search.searchNotes(view, q, { limit: 10 });
    again.push(performance.now() - t);
  }
  return { first, p50: ms(pct(times, 50)), p95: ms(pct(times, 95)), warmP50: ms(pct(again, 50)), warmP95: ms(pct(again, 95)) };
}

/** The server's resident memory (its process and any children), sampled; stop() gives the max in MB. */
function sampleRss(pid: number) {
  let max = 0;
  const timer = setInterval(() => (max = Math.max(max, treeRssKb(pid))), 250);
  return {
    stop() {
      clearInterval(timer);
      max = Math.max(max, treeRssKb(pid));
      return Math.round(max / 1024);
    },
  };
}

function treeRssKb(root: number): number {
  const parent = new Map<number, number>();
  for (const d of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, "utf8");
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // the process ended
    }
  }
  let kb = 0;
  for (const pid of parent.keys()) {
    let p: number | undefined = pid;
    while (p && p !== root) p = parent.get(p);
    if (p !== root) continue;
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // the process ended
    }
  }
  return kb;
}

const sleep = (n: number) => new Promise((r) => setTimeout(r, n));
const median = (xs: number[]) => pct(xs, 50);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const ms = (x: number) => Math.round(x * 10) / 10;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
