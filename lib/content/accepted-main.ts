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
  restored: boolean;
};
/** One state per repository (a process serves one; tests open many). */
const state = (gitdir: string): AcceptanceState => {
  const all = (readSide().acceptance ??= new Map());
  let s = all.get(gitdir);
  if (!s) all.set(gitdir, (s = { judged: new Map(), pending: new Map(), lastTip: null, rewind: null, logged: new Set(), restored: false }));
  return s;
};

// Commits walked back from a new tip looking for one already judged, before taking the oldest as the start.
const WALK_LIMIT = 512;
// Judgements kept in memory (a few hundred bytes each); the newest is also on disk.
const KEEP = 20_000;

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

/** The last move of main to a commit that does not descend from the one before it, if this process saw one. */
export function mainRewind(store: Pick<ContentStore, "gitdir">): MainRewind | null {
  return state(store.gitdir).rewind;
}

async function judgeTip(store: ContentStore, tip: Oid): Promise<Judged> {
  const s = state(store.gitdir);
  if (!s.restored) {
    s.restored = true;
    const kept = readKept();
    if (kept && (await store.log(kept.tip, { limit: 1 }).catch(() => null))) {
      remember(s, kept.tip, { served: kept.served, refusal: kept.refusal });
      s.lastTip ??= kept.tip;
    }
  }
  if (s.judged.size === 0) {
    // A new data folder: the tip main has now is the starting point (see above), not history walked and judged again.
    remember(s, tip, { served: tip, refusal: null });
  }
  // Walk back along first parents to a commit already judged.
  const chain: Oid[] = [];
  let at: Oid | null = tip;
  while (at && !s.judged.has(at) && chain.length < WALK_LIMIT) {
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
  if (!at || !s.judged.has(at)) {
    // Nothing judged below: the oldest commit reached is the starting point (the first read of a new data folder).
    const start = chain.pop() ?? tip;
    remember(s, start, { served: start, refusal: null });
  }
  for (const commit of chain.reverse()) {
    const [revision] = await store.log(commit, { limit: 1 });
    const below = s.judged.get(revision?.parents[0] ?? "") ?? { served: commit, refusal: null };
    const findings = await checkLanding(store, below.served, commit, { requiredApprovals: config().reviewApprovals });
    remember(s, commit, findings.length === 0 ? { served: commit, refusal: null } : { served: below.served, refusal: refusalOf(findings, commit, below.served) });
  }
  const judged = s.judged.get(tip)!;
  if (!current) return judged;
  s.lastTip = tip;
  if (judged.refusal) logRefusal(s, judged.refusal, tip);
  writeKept(tip, judged);
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

type Kept = { tip: Oid; served: Oid; refusal: MainRefusal | null };
const keptFile = () => path.join(config().dataDir, "main-acceptance.json");

function readKept(): Kept | null {
  try {
    const kept = JSON.parse(fs.readFileSync(keptFile(), "utf8")) as Kept;
    return /^[0-9a-f]{40}$/.test(kept.tip) && /^[0-9a-f]{40}$/.test(kept.served) ? kept : null;
  } catch {
    return null;
  }
}

/** The newest judgement, for the next start; a failed write (read-only folder) costs only that. */
function writeKept(tip: Oid, judged: Judged): void {
  const file = keptFile();
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(tmp, `${JSON.stringify({ tip, served: judged.served, refusal: judged.refusal })}\n`);
    fs.renameSync(tmp, file);
  } catch {
    fs.rmSync(tmp, { force: true });
  }
}
