import fs from "node:fs";
import path from "node:path";
import { config } from "@/lib/env";
import type { ContentStore } from "@/lib/working-copy/content-store";
import type { Oid } from "@/lib/store/types";
import { MAIN_REF } from "@/lib/working-copy/layout";
import { readSide } from "@/lib/read-model/read-side";
import { checkLanding, type Finding } from "./check";

/**
 * Which commit of main the public and agents are served: the newest one on main's first-parent line
 * that the rules accept, as content:check judges it. A commit pushed from outside the app (plain
 * git, another host) that the acceptance function refuses — a promotion to verified with a made-up
 * `Approved-by` trailer, a broken file — is not served; the last accepted state is, the refusal is
 * logged once (rule, file, commit) and the studio shows it (lib/studio/main-state.ts). A plain-git commit the
 * rules accept is served on the next request, as before.
 *
 * Each commit is judged once, from the last accepted commit below it (`checkLanding`: the files that
 * differ, so a commit after a refused one is accepted again only when the refused change is undone),
 * and remembered by its id. The newest judgement is also kept in DATA_DIR/main-acceptance.json, so a
 * restart does not take a refused tip as its starting point. With nothing remembered (a new data
 * folder), the tip main has when first read is the starting point: what an operator deploys is
 * checked with `npm run content:check -- --all` (docs/decisions/instances-judge-main.md).
 * A move of main to a commit that does not descend from the one served so far (a rewind) is logged
 * loudly and shown in the studio (a mirror of a git remote refuses it first: lib/store/remote.ts).
 */

export type MainRefusal = { commit: Oid; file: string; line: number; rule: string; message: string; served: Oid };
export type MainRewind = { from: Oid; to: Oid; at: string };
export type Judged = { served: Oid; refusal: MainRefusal | null };

export type AcceptanceState = {
  judged: Map<Oid, Judged>;
  pending: Map<Oid, Promise<Judged>>;
  /** The tip the last answer was for: a new tip that does not descend from it is a rewind. */
  lastTip: Oid | null;
  rewind: MainRewind | null;
  logged: Set<string>;
  /** What the last run kept (main-acceptance.json), read once per process before anything is judged. */
  restoring: Promise<void> | null;
  /**
   * Commits of main the rules refused, each with the first commit served after it (null until one
   * is): a refused commit is never a published revision, and a change it made that a later commit
   * kept reached readers with that commit (./pinned-note.ts, ./published.ts, ./last-change.ts).
   */
  refused: Map<Oid, Oid | null>;
};
/** One state per repository (a process serves one; tests open many). */
const state = (gitdir: string): AcceptanceState => {
  const all = (readSide().acceptance ??= new Map());
  let s = all.get(gitdir);
  if (!s) all.set(gitdir, (s = { judged: new Map(), pending: new Map(), lastTip: null, rewind: null, logged: new Set(), restoring: null, refused: new Map() }));
  return s;
};

// Judgements kept in memory (a few hundred bytes each); the newest is also on disk.
const KEEP = 20_000;
// Refused commits remembered, in memory and on disk (a refusal is rare: a push the rules stop).
const KEEP_REFUSED = 10_000;

/** The commit of main to serve for `tip`, and why not the tip when it is not. */
export async function acceptedMain(store: ContentStore, tip: Oid): Promise<Judged> {
  const s = state(store.gitdir);
  const known = s.judged.get(tip);
  if (known && s.lastTip === tip) return known;
  let under = s.pending.get(tip);
  if (!under) {
    under = judgeTip(store, tip).finally(() => s.pending.delete(tip));
    s.pending.set(tip, under);
  }
  return under;
}

/**
 * The commit served for `tip` when that is known already (judged by this process, or by the last
 * run for the same tip), without judging anything; undefined when it is still to be judged.
 */
export async function knownServed(store: ContentStore, tip: Oid): Promise<Oid | undefined> {
  const s = state(store.gitdir);
  await restoreKept(store, s);
  return s.lastTip === tip ? s.judged.get(tip)?.served : undefined;
}

/**
 * The commits of main the rules refused, as judged so far by this data folder (call after
 * `acceptedMain` for the tip), each with the first commit served after it (null: none yet). No
 * reader may be shown a refused commit as a published revision; what it changed and a later
 * commit kept was first shown by that later one. Commits below the starting point of a new data
 * folder were not judged.
 */
export function refusedCommits(store: Pick<ContentStore, "gitdir">): ReadonlyMap<Oid, Oid | null> {
  return state(store.gitdir).refused;
}

/** `revision` as readers first saw it: itself, or for a refused commit, with the commit that first served what it did. */
export function asServed<R extends { commit: Oid }>(refused: ReadonlyMap<Oid, Oid | null>, revision: R): R {
  const by = refused.get(revision.commit);
  return by ? { ...revision, commit: by } : revision;
}

/** The last move of main to a commit that does not descend from the one before it, if this process saw one. */
export function mainRewind(store: Pick<ContentStore, "gitdir">): MainRewind | null {
  return state(store.gitdir).rewind;
}

function restoreKept(store: ContentStore, s: AcceptanceState): Promise<void> {
  return (s.restoring ??= (async () => {
    const kept = readKept();
    if (kept && (await store.log(kept.tip, { limit: 1 }).catch(() => null))) {
      remember(s, kept.tip, { served: kept.served, refusal: kept.refusal });
      if (kept.served !== kept.tip) remember(s, kept.served, { served: kept.served, refusal: null });
      s.lastTip ??= kept.tip;
      for (const [commit, by] of kept.refused ?? []) s.refused.set(commit, by);
    }
  })());
}

async function judgeTip(store: ContentStore, tip: Oid): Promise<Judged> {
  const s = state(store.gitdir);
  await restoreKept(store, s);
  if (s.judged.size === 0) {
    // A new data folder: the tip main has now is the starting point (see above), not history walked and judged again.
    remember(s, tip, { served: tip, refusal: null });
  }
  // Walk back along first parents to a commit already judged: however many commits a push brought,
  // each is judged (a bound here once let the 513th commit below a tip go unjudged, and with it a
  // promotion nobody approved).
  const chain: Oid[] = [];
  let at: Oid | null = tip;
  while (at && !s.judged.has(at)) {
    chain.push(at);
    const [revision] = await store.log(at, { limit: 1 });
    at = revision?.parents[0] ?? null;
  }
  // A request that read the ref before a newer one did is not a move of main: only the ref as it is now counts.
  const current = (await store.resolve(MAIN_REF)) === tip;
  if (current && s.lastTip && s.lastTip !== tip && !(at !== null && at === s.lastTip) && !(await descends(store, tip, s.lastTip))) {
    s.rewind = { from: s.lastTip, to: tip, at: new Date().toISOString() };
    console.error(
      `published view: main moved from ${s.lastTip} to ${tip}, which does not descend from it (a rewind or a force-push): notes published since are no longer on main. Serving the new main; see the studio.`,
    );
  }
  if (!at) {
    // Nothing judged below the tip (an orphan pushed as main, or a rewind past what is remembered):
    // the tip is judged as one landing from the commit served so far, so what readers would be
    // shown next is what the rules judge; the commits below it are not judged one by one.
    const served = s.lastTip ? s.judged.get(s.lastTip)?.served : undefined;
    if (served) {
      const findings = await checkLanding(store, served, tip, { requiredApprovals: config().reviewApprovals });
      remember(s, tip, findings.length === 0 ? { served: tip, refusal: null } : { served, refusal: refusalOf(findings, tip, served) });
      if (findings.length) refuse(s, tip);
      else servedAfterRefusals(s, tip);
      chain.length = 0;
    } else {
      const start = chain.pop() ?? tip;
      remember(s, start, { served: start, refusal: null });
    }
  }
  for (const commit of chain.reverse()) {
    const [revision] = await store.log(commit, { limit: 1 });
    const below = s.judged.get(revision?.parents[0] ?? "") ?? { served: commit, refusal: null };
    const findings = await checkLanding(store, below.served, commit, { requiredApprovals: config().reviewApprovals });
    remember(s, commit, findings.length === 0 ? { served: commit, refusal: null } : { served: below.served, refusal: refusalOf(findings, commit, below.served) });
    if (findings.length) refuse(s, commit);
    else servedAfterRefusals(s, commit);
  }
  const judged = s.judged.get(tip)!;
  if (!current) return judged;
  s.lastTip = tip;
  if (judged.refusal) logRefusal(s, judged.refusal, tip);
  writeKept(tip, judged, s.refused);
  return judged;
}

function refusalOf(findings: Finding[], commit: Oid, served: Oid): MainRefusal {
  const first = findings[0]!;
  return { commit: first.commit ?? commit, file: first.file, line: first.line, rule: first.rule, message: first.message, served };
}

function logRefusal(s: AcceptanceState, r: MainRefusal, tip: Oid): void {
  const key = `${r.commit} ${r.file} ${r.rule}`;
  if (s.logged.has(key)) return;
  s.logged.add(key);
  console.error(
    `published view: main's commit ${r.commit} is refused by the rules and not served (${r.file}:${r.line}: ${r.rule}: ${r.message}); serving ${r.served}, the last accepted commit, until it is undone (main is at ${tip})`,
  );
}

function refuse(s: AcceptanceState, commit: Oid): void {
  if (s.refused.size >= KEEP_REFUSED) s.refused.delete(s.refused.keys().next().value!);
  s.refused.set(commit, null);
}

/** `commit` is accepted: the refused commits still waiting were first served by it. */
function servedAfterRefusals(s: AcceptanceState, commit: Oid): void {
  for (const [refused, by] of s.refused) if (by === null) s.refused.set(refused, commit);
}

function remember(s: AcceptanceState, commit: Oid, judged: Judged): void {
  const map = s.judged;
  if (map.size >= KEEP) map.delete(map.keys().next().value!);
  map.set(commit, judged);
}

/** Whether `ancestor` is reachable from `commit` through any parents (a merge's second parent too). */
async function descends(store: ContentStore, commit: Oid, ancestor: Oid): Promise<boolean> {
  const seen = new Set<Oid>();
  const queue: Oid[] = [commit];
  while (queue.length) {
    const at = queue.shift()!;
    if (at === ancestor) return true;
    if (seen.has(at)) continue;
    seen.add(at);
    const [revision] = await store.log(at, { limit: 1 }).catch(() => []);
    // log() answers first parents only; a merge's others are read from the commit itself.
    for (const p of revision?.parents ?? []) if (!seen.has(p)) queue.push(p);
  }
  return false;
}

type Kept = { tip: Oid; served: Oid; refusal: MainRefusal | null; refused?: [Oid, Oid | null][] };
const keptFile = () => path.join(config().dataDir, "main-acceptance.json");

function readKept(): Kept | null {
  try {
    const kept = JSON.parse(fs.readFileSync(keptFile(), "utf8")) as Kept;
    const oid = (v: unknown): v is Oid => typeof v === "string" && /^[0-9a-f]{40}$/.test(v);
    if (!oid(kept.tip) || !oid(kept.served)) return null;
    const pairs = Array.isArray(kept.refused) ? kept.refused : [];
    return { ...kept, refused: pairs.filter((p): p is [Oid, Oid | null] => Array.isArray(p) && oid(p[0]) && (p[1] === null || oid(p[1]))) };
  } catch {
    return null;
  }
}

/** The newest judgement and the refused commits, for the next start; a failed write (read-only folder) costs only that. */
function writeKept(tip: Oid, judged: Judged, refused: ReadonlyMap<Oid, Oid | null>): void {
  const file = keptFile();
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(tmp, `${JSON.stringify({ tip, served: judged.served, refusal: judged.refusal, refused: [...refused] })}\n`);
    fs.renameSync(tmp, file);
  } catch {
    fs.rmSync(tmp, { force: true });
  }
}
