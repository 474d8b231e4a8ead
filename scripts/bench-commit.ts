import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createContentStore, ensureContentRepo, type ContentStore, type Oid } from "@/lib/store/api";
import { fsck, git, noteFile, siteYaml, tempDir } from "@/lib/store/testing";

/**
 * The store's save and index cost against native git, at 100 and 10,000 notes.
 *
 *   npm run bench:commit            (BENCH_EDITS=200 BENCH_NOTES=10000 by default)
 *
 * For each size: a bare repository is built through the store (one commit of every note), then the
 * same one-note edits are committed through the store (a CAS commit on main each) and through the
 * git CLI in a clone (`git add` + `git commit`, spawned processes). Then a new store instance indexes
 * every note cold, and one more commit is indexed warm (incremental). Prints a table, then one JSON line.
 */

const EDITS = Number(process.env.BENCH_EDITS ?? 200);
const LARGE = Number(process.env.BENCH_NOTES ?? 10_000);
const SMALL = 100;
const AUTHOR = { name: "Bench Editor", email: "bench@example.org" };

const idOf = (i: number) => `AFN-${String(i + 1).padStart(5, "0")}`;
const editOf = (k: number, notes: number) => (k * 7919) % notes; // spread edits over the archive

type SizeResult = {
  notes: number;
  buildMs: number;
  store: number[];
  native: number[];
  coldMs: number;
  warmMs: number;
  coldPackedMs: number;
  parsedWarm: number;
};

async function benchSize(notes: number, root: string): Promise<SizeResult> {
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
  for (let i = 0; i < notes; i++) all[`notes/${idOf(i)}.md`] = noteFile(idOf(i), `Note ${i} of the benchmark archive.`);
  const builder = createContentStore(gitdir);
  let head: Oid = (await builder.commit({ ref: "refs/heads/main", expected: await builder.resolve("main"), author: AUTHOR, message: `Add ${notes} notes`, changes: all })).commit;
  const buildMs = performance.now() - t;

  // A working tree of the same content for native git, before any edit.
  const work = path.join(dir, "work");
  fs.mkdirSync(work);
  git(work, "clone", "--quiet", gitdir, ".");

  // Store: one CAS commit per edit on a warm store (the server's steady state).
  const store: number[] = [];
  for (let k = 0; k < EDITS; k++) {
    const i = editOf(k, notes);
    const text = noteFile(idOf(i), `Edit ${k} through the store.`);
    t = performance.now();
    const rev = await builder.commit({ ref: "refs/heads/main", expected: head, author: AUTHOR, message: `Edit ${idOf(i)} (${k})`, changes: { [`notes/${idOf(i)}.md`]: text } });
    store.push(performance.now() - t);
    head = rev.commit;
  }

  // Native git: the same edits in a clone, one `git add` and one `git commit` process each.
  const native: number[] = [];
  for (let k = 0; k < EDITS; k++) {
    const i = editOf(k, notes);
    const text = noteFile(idOf(i), `Edit ${k} through git.`);
    t = performance.now();
    fs.writeFileSync(path.join(work, "notes", `${idOf(i)}.md`), text);
    git(work, "add", `notes/${idOf(i)}.md`);
    git(work, "commit", "--quiet", "-m", `Edit ${idOf(i)} (${k})`);
    native.push(performance.now() - t);
  }

  // Cold index: a new store instance (a restarted server) reads and parses every note.
  const cold = createContentStore(gitdir);
  t = performance.now();
  const snap = await cold.snapshot("main");
  const coldMs = performance.now() - t;
  if (snap.notes.length !== notes || !snap.notes.every((n) => n.ok)) throw new Error(`cold snapshot has ${snap.notes.length} notes, not ${notes} valid ones`);

  // Warm index: one more commit, then the snapshot of it is built from the previous one.
  const before = cold.stats().notesParsed;
  const next = await cold.commit({ ref: "refs/heads/main", expected: snap.commit, author: AUTHOR, message: "One more", changes: { [`notes/${idOf(0)}.md`]: noteFile(idOf(0), "One more edit.") } });
  t = performance.now();
  await cold.snapshot(next.commit);
  const warmMs = performance.now() - t;
  const parsedWarm = cold.stats().notesParsed - before;

  const problems = fsck(gitdir);
  if (problems) throw new Error(`git fsck --strict found problems:\n${problems}`);

  // Cold index again after `git gc`: every object and ref packed, as after an operator's gc or a big push.
  git(gitdir, "gc", "--quiet");
  const packed = createContentStore(gitdir);
  t = performance.now();
  const packedSnap = await packed.snapshot("main");
  const coldPackedMs = performance.now() - t;
  if (packedSnap.notes.length !== notes) throw new Error("packed snapshot lost notes");

  return { notes, buildMs, store, native, coldMs, warmMs, coldPackedMs, parsedWarm };
}

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
    const large = await benchSize(LARGE, root);
    const small = await benchSize(SMALL, root);

    const rows = [small, large].map((r) => ({
      notes: r.notes,
      "store p50": ms(pct(r.store, 50)),
      "store p95": ms(pct(r.store, 95)),
      "git CLI p50": ms(pct(r.native, 50)),
      "git CLI p95": ms(pct(r.native, 95)),
      "cold index": ms(r.coldMs),
      "cold index (packed)": ms(r.coldPackedMs),
      "warm index": ms(r.warmMs),
      "build": ms(r.buildMs),
    }));
    console.log(`\n${EDITS} one-note commits per size; times in ms; ${os.availableParallelism()} cores; node ${process.version}; ${gitVersion}\n`);
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
        cold_index_ms: ms(large.coldMs),
        cold_index_packed_ms: ms(large.coldPackedMs),
        warm_index_ms: ms(large.warmMs),
        warm_index_parsed: large.parsedWarm,
        p50_ms_100: ms(pct(small.store, 50)),
        p95_ms_100: ms(pct(small.store, 95)),
        native_git_p50_ms_100: ms(pct(small.native, 50)),
        cold_index_ms_100: ms(small.coldMs),
        cores: os.availableParallelism(),
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
