import { acceptedMain } from "@/lib/content/accepted-main";
import { readPhases } from "@/lib/content/phases";
import { config } from "@/lib/env";
import { actorIdOfEmail } from "@/lib/rules/identity";
import { FALLBACK_ORIGIN } from "@/lib/origin";
import { isPublishedStatus, type Note } from "@/lib/notes/schema";
import type { Phase } from "@/lib/phases/schema";
import { mailEnabled } from "@/lib/notifications/mail-config";
import { queueMailFor } from "@/lib/notifications/mail-outbox";
import { affectedFeeds, pingHub } from "@/lib/public/websub";
import type { Oid } from "@/lib/store/types";
import { announce } from "@/lib/webhooks/announce";
import { getContentStore, type ContentStore } from "@/lib/working-copy/content-store";
import { MAIN_REF, notePath } from "@/lib/working-copy/layout";
import { writesOfRange, type LastChange, type RangeChange } from "./main-range";
import { announcedMain, moveMarker } from "@/lib/working-copy/announced";

/**
 * Events of commits the app did not make. When the commit of main the app serves (the newest one
 * the rules accept, lib/content/accepted-main.ts) is ahead of the announced marker, the range
 * between them is announced from its diff (lib/events/main-range.ts) through the studio's own
 * functions: `announce` (webhooks), `pingHub` (WebSub) and `queueMailFor` (mail), once the marker
 * has moved over it by compare-and-swap; an instance whose swap lost announces nothing. A refused
 * commit is never served, so never announced; a first start (no marker) sets the marker to the
 * served commit and announces nothing older. Runs at start and every few seconds
 * (`startMainEvents`, instrumentation.ts). docs/decisions/events-from-main-moves.md
 */

/** Longest range walked (first parents); a longer one, or a marker main does not descend from, moves the marker and announces nothing. */
const RANGE_LIMIT = 5_000;
const POLL_MS = 5_000;

export type MainMove =
  | { kind: "started"; to: Oid }
  | { kind: "announced"; from: Oid; to: Oid; events: number }
  | { kind: "lost"; from: Oid; to: Oid }
  | { kind: "skipped"; from: Oid; to: Oid; why: string };

/** One catch-up: null when there is nothing to announce (the marker is at, or ahead of, the served commit). */
export async function announceMainMoves(store?: ContentStore): Promise<MainMove | null> {
  const s = store ?? (await getContentStore());
  const tip = await s.resolve(MAIN_REF);
  if (!tip) return null;
  const served = (await acceptedMain(s, tip)).served;
  const marker = await announcedMain(s);
  if (marker === served) return null;
  if (marker === null) return (await moveMarker(s, null, served)) ? { kind: "started", to: served } : null;

  const range = await s.log(served, { until: marker, limit: RANGE_LIMIT + 1 });
  const reached = range.length <= RANGE_LIMIT && range.at(-1)?.parents[0] === marker;
  if (!reached) {
    // The marker ahead of what is served (the studio's commit, not judged yet here): nothing to do.
    const ahead = await s.log(marker, { until: served, limit: RANGE_LIMIT + 1 });
    if (ahead.length <= RANGE_LIMIT && ahead.at(-1)?.parents[0] === served) return null;
    const why = range.length > RANGE_LIMIT ? `more than ${RANGE_LIMIT} commits` : "main does not descend from it (a rewind)";
    if (!(await moveMarker(s, marker, served))) return { kind: "lost", from: marker, to: served };
    console.error(`events: main moved from the announced ${marker.slice(0, 12)} to ${served.slice(0, 12)}, ${why}: nothing of that range is announced`);
    return { kind: "skipped", from: marker, to: served, why };
  }

  const positions = new Map(range.map((r, i) => [r.commit, range.length - 1 - i] as const));
  const changes = await changesOf(s, marker, served, positions);
  const writes = writesOfRange(changes);
  // Whoever moves the marker announces; the events are queued only after it moved (never twice).
  if (!(await moveMarker(s, marker, served))) return { kind: "lost", from: marker, to: served };
  for (const write of writes) await announce(write);
  const origin = config().siteUrl ?? FALLBACK_ORIGIN;
  const notes = changes.flatMap((c) => (c.kind === "note" ? [c] : []));
  const hub = config().websubHub;
  if (hub && notes.length) {
    const feeds = new Set(notes.flatMap((c) => affectedFeeds(c.before, c.after)));
    void pingHub(
      hub,
      [...feeds].map((feed) => `${origin}${feed}`),
    );
  }
  if (mailEnabled()) for (const commit of new Set(notes.map((c) => c.last.commit))) await queueMailFor(commit.slice(0, 12), origin);
  return { kind: "announced", from: marker, to: served, events: writes.length };
}

/** The published notes and the phases that differ between the range's ends, each with the commit of the range that last changed it. */
async function changesOf(store: ContentStore, from: Oid, to: Oid, positions: ReadonlyMap<Oid, number>): Promise<RangeChange[]> {
  const published = async (commit: Oid) =>
    new Map((await store.snapshot(commit)).notes.flatMap((n) => (n.ok && n.id === n.note.id && isPublishedStatus(n.note.status) ? [[n.id, n] as const] : [])));
  const [before, after, phasesBefore, phasesAfter] = await Promise.all([published(from), published(to), readPhases(store, from), readPhases(store, to)]);
  const lastChange = async (file: string): Promise<LastChange | null> => {
    const [revision] = await store.history(file, to, { limit: 1 });
    const position = revision ? positions.get(revision.commit) : undefined;
    if (!revision || position === undefined) return null;
    return { commit: revision.commit, position, actor: { id: actorIdOfEmail(revision.author.email || revision.author.name), name: revision.author.name } };
  };
  const changes: RangeChange[] = [];
  for (const [id, now] of after) {
    const was = before.get(id);
    if (was?.blob === now.blob || !now.ok) continue;
    const last = await lastChange(notePath(id));
    if (last) changes.push({ kind: "note", before: was?.ok ? (was.note as Note) : null, after: now.note, last });
  }
  const wasPhase = new Map(phasesBefore.map((p) => [p.file, p.phase] as const));
  for (const { file, phase } of phasesAfter) {
    const was: Phase | null = wasPhase.get(file) ?? null;
    if (phase.status !== "closed" || was?.status === "closed") continue;
    const last = await lastChange(file);
    if (last) changes.push({ kind: "phase", before: was, after: phase, last });
  }
  return changes;
}

const KEY = Symbol.for("field-notes.main-events");
const holder = globalThis as typeof globalThis & { [KEY]?: NodeJS.Timeout };

/** At start and every POLL_MS: one catch-up at a time, each failure logged once until one succeeds. */
export function startMainEvents(): void {
  if (holder[KEY]) return;
  let running = false;
  let lastError: string | null = null;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await announceMainMoves();
      lastError = null;
    } catch (e) {
      const message = (e as Error).message;
      if (message !== lastError) console.error(`events: could not announce main's new commits: ${message}`);
      lastError = message;
    } finally {
      running = false;
    }
  };
  void tick();
  holder[KEY] = setInterval(() => void tick(), POLL_MS);
  holder[KEY].unref();
}
