import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseNote } from "@/lib/notes/markdown";
import { ensureContentRepo, type Oid } from "@/lib/store/api";
import { openContentStore } from "@/lib/working-copy/content-store";
import { fsck, git, siteYaml, tempDir } from "@/lib/store/testing";
import { benchNote, idOf } from "./bench-notes";
import { MAIN_REF } from "@/lib/working-copy/layout";

/**
 * The store's save and index cost against native git, at 100 and 10,000 notes.
 *
 *   npm run bench:commit            (BENCH_EDITS=200 BENCH_NOTES=10000 by default)
 *
 * For each size: a bare repository is built through the store (one commit of every note), then the
 * same one-note edits are committed through the store (a CAS commit on main each) and, at 10,000
 * notes, through the git CLI in a clone (`git add` + `git commit`, spawned processes). Then a new store instance indexes
 * every note cold, one more commit is indexed warm (incremental), and a new instance walks one note's
 * history over every commit. Prints a table, then one JSON line.
 */

const EDITS = Number(process.env.BENCH_EDITS ?? 200);
const LARGE = Number(process.env.BENCH_NOTES ?? 10_000);
const SMALL = 100;
const AUTHOR = { name: "Bench Editor", email: "bench@example.org" };

const editOf = (k: number, notes: number) => (k * 7919) % notes; // spread edits over the archive

type SizeResult = {
  notes: number;
  buildMs: number;
  store: number[];
  native: number[];
  coldMs: number;
  warmMs: number;
  coldPackedMs: number;
  coldCpuMs: number;
  parseOnlyMs: number;
  historyMs: number;
  storeCpuMs: number;
  nativeCpuMs: number;
  parsedWarm: number;
};

async function benchSize(notes: number, root: string, { native: withNative }: { native: boolean }): Promise<SizeResult> {
  const dir = path.join(root, `n${notes}`);
  fs.mkdirSync(dir);
  const seed = path.join(dir, "seed");
  fs.mkdirSync(seed);
  fs.writeFileSync(path.join(seed, "site.yaml"), siteYaml());
  const gitdir = path.join(dir, "content.git");
  await ensureContentRepo(gitdir, seed);

  // Build: every note in one commit through the store.
  let t = performance.now();
  const all: Record<string, string> = {};
  for (let i = 0; i < notes; i++) all[`notes/${idOf(i)}.md`] = benchNote(i, `Note ${i} of the benchmark archive.`);
  const builder = openContentStore(gitdir);
  let head: Oid = (
    await builder.commit({ ref: MAIN_REF, expected: await builder.resolve("main"), author: AUTHOR, message: `Add ${notes} notes`, changes: all })
  ).commit;
  const buildMs = performance.now() - t;

  // A working tree of the same content for native git, before any edit.
  const work = path.join(dir, "work");
  fs.mkdirSync(work);
  git(work, "clone", "--quiet", gitdir, ".");

  // Store: one CAS commit per edit on a warm store (the server's steady state).
  const store: number[] = [];
  let storeCpu = 0;
  for (let k = 0; k < EDITS; k++) {
    const i = editOf(k, notes);
    const text = benchNote(i, `Edit ${k} through the store.`);
    t = performance.now();
    const cpu0 = cpuMs();
    const rev = await builder.commit({
      ref: MAIN_REF,
      expected: head,
      author: AUTHOR,
      message: `Edit ${idOf(i)} (${k})`,
      changes: { [`notes/${idOf(i)}.md`]: text },
    });
    store.push(performance.now() - t);
    storeCpu += cpuMs() - cpu0;
    head = rev.commit;
  }
  const storeCpuMs = storeCpu / EDITS;

  // Native git: the same edits in a clone, one `git add` and one `git commit` process each.
  const native: number[] = [];
  const nativeCpuStart = childrenCpuMs();
  for (let k = 0; k < (withNative ? EDITS : 0); k++) {
    const i = editOf(k, notes);
    const text = benchNote(i, `Edit ${k} through git.`);
    t = performance.now();
    fs.writeFileSync(path.join(work, "notes", `${idOf(i)}.md`), text);
    git(work, "add", `notes/${idOf(i)}.md`);
    git(work, "commit", "--quiet", "-m", `Edit ${idOf(i)} (${k})`);
    native.push(performance.now() - t);
  }
  const nativeCpuMs = withNative ? (childrenCpuMs() - nativeCpuStart) / EDITS : NaN;

  // Cold index: a new store instance (a restarted server) reads and parses every note.
  const cold = openContentStore(gitdir);
  t = performance.now();
  const cpu = process.cpuUsage();
  const snap = await cold.snapshot("main");
  const coldMs = performance.now() - t;
  const used = process.cpuUsage(cpu);
  const coldCpuMs = (used.user + used.system) / 1000;
  if (snap.notes.length !== notes || !snap.notes.every((n) => n.ok)) throw new Error(`cold snapshot has ${snap.notes.length} notes, not ${notes} valid ones`);

  // Warm index: one more commit, then the snapshot of it is built from the previous one.
  const before = cold.stats().notesParsed;
  const next = await cold.commit({
    ref: MAIN_REF,
    expected: snap.commit,
    author: AUTHOR,
    message: "One more",
    changes: { [`notes/${idOf(0)}.md`]: benchNote(0, "One more edit.") },
  });
  t = performance.now();
  await cold.snapshot(next.commit);
  const warmMs = performance.now() - t;
  const parsedWarm = cold.stats().notesParsed - before;

  // History of one note on a restarted server: a walk over every commit on main (first parents).
  const fresh = openContentStore(gitdir);
  t = performance.now();
  const revisions = await fresh.history(`notes/${idOf(editOf(1, notes))}.md`, "main");
  const historyMs = performance.now() - t;
  if (revisions.length < 2) throw new Error("history lost revisions");

  // What parsing alone costs (same texts, no git, JIT already warm): the floor under any cold index.
  const texts = Object.values(all);
  t = performance.now();
  for (const text of texts) parseNote(text);
  const parseOnlyMs = performance.now() - t;

  const problems = fsck(gitdir);
  if (problems) throw new Error(`git fsck --strict found problems:\n${problems}`);

  // Cold index again after `git gc`: every object and ref packed, as after an operator's gc or a big push.
  git(gitdir, "gc", "--quiet");
  const packed = openContentStore(gitdir);
  t = performance.now();
  const packedSnap = await packed.snapshot("main");
  const coldPackedMs = performance.now() - t;
  if (packedSnap.notes.length !== notes) throw new Error("packed snapshot lost notes");

  return { notes, buildMs, store, native, coldMs, warmMs, coldPackedMs, coldCpuMs, parseOnlyMs, historyMs, storeCpuMs, nativeCpuMs, parsedWarm };
}

/** CPU time of finished child processes (the git CLI runs), from /proc: user + system, in ms. */
function childrenCpuMs(): number {
  const fields = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ") ?? [];
  // After "pid (comm) ", cutime and cstime are fields 14 and 15 (0-based), in clock ticks of 10 ms.
  return (Number(fields[14]) + Number(fields[15])) * 10;
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const ms = (x: number) => Math.round(x * 10) / 10;

async function main() {
  const root = tempDir("bench-commit");
  const started = performance.now();
  try {
    const gitVersion = execFileSync("git", ["--version"], { encoding: "utf8" }).trim();
    // The large size first: the JIT is as cold for its index as a restarted server's would be.
    const large = await benchSize(LARGE, root, { native: true });
    // At 100 notes only the store's own cost matters: that it stays flat from 100 to 10,000.
    const small = await benchSize(SMALL, root, { native: false });

    const rows = [small, large].map((r) => ({
      notes: r.notes,
      "store p50": ms(pct(r.store, 50)),
      "store p95": ms(pct(r.store, 95)),
      "git CLI p50": r.native.length ? ms(pct(r.native, 50)) : "-",
      "git CLI p95": r.native.length ? ms(pct(r.native, 95)) : "-",
      "store CPU/commit": ms(r.storeCpuMs),
      "git CLI CPU/commit": r.native.length ? ms(r.nativeCpuMs) : "-",
      "cold index": ms(r.coldMs),
      "cold index (packed)": ms(r.coldPackedMs),
      "parse only": ms(r.parseOnlyMs),
      "warm index": ms(r.warmMs),
      "history (cold)": ms(r.historyMs),
      build: ms(r.buildMs),
    }));
    const load = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ");
    console.log(
      `\n${EDITS} one-note commits per size; times in ms; ${os.availableParallelism()} cores; node ${process.version}; ${gitVersion}; load average ${load}\n`,
    );
    console.table(rows);
    console.log(`warm index after one commit parsed ${large.parsedWarm} note(s); total bench time ${ms((performance.now() - started) / 1000)} s\n`);
    console.log(
      JSON.stringify({
        notes: large.notes,
        edits: EDITS,
        p50_ms: ms(pct(large.store, 50)),
        p95_ms: ms(pct(large.store, 95)),
        native_git_p50_ms: ms(pct(large.native, 50)),
        native_git_p95_ms: ms(pct(large.native, 95)),
        store_cpu_ms_per_commit: ms(large.storeCpuMs),
        native_git_cpu_ms_per_commit: ms(large.nativeCpuMs),
        store_cpu_ms_per_commit_100: ms(small.storeCpuMs),
        cold_index_ms: ms(large.coldMs),
        cold_index_packed_ms: ms(large.coldPackedMs),
        cold_index_cpu_ms: ms(large.coldCpuMs),
        parse_only_ms: ms(large.parseOnlyMs),
        warm_index_ms: ms(large.warmMs),
        warm_index_parsed: large.parsedWarm,
        history_cold_ms: ms(large.historyMs),
        p50_ms_100: ms(pct(small.store, 50)),
        p95_ms_100: ms(pct(small.store, 95)),
        cold_index_ms_100: ms(small.coldMs),
        cores: os.availableParallelism(),
        load_average: Number(os.loadavg()[0]!.toFixed(1)),
      }),
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
