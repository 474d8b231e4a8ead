import type { NoteWriteContext } from "@/lib/rules/accept-write";
import { noteTextMemo } from "@/lib/rules/accept-write";
import { assetPathsOf } from "@/lib/rules/images";
import type { Note } from "@/lib/notes/schema";
import type { ReviewLog } from "@/lib/review/review-log";
import type { Oid } from "@/lib/store/types";
import type { ContentStore } from "@/lib/working-copy/content-store";
import type { Finding } from "./check";

/**
 * What one `checkRepository` run has already read, parsed and judged, so a long history costs what
 * its commits changed rather than commits × notes (an imported archive: 1,000 commits over 200
 * notes). Everything here is keyed by what decides it, so the findings are the ones judging every
 * note of every commit afresh would give:
 *
 * - a file's text and parse, by blob id (a blob id names its text);
 * - what a note's text alone decides (schema, policy scan, diagrams), by the parsed note object,
 *   which is the same object for the same blob (`text`, handed to the acceptance function);
 * - an unchanged note's whole judgement, by every input of that judgement: the kind of write, the
 *   file and its blob, the blob of the note before it (which gives the note on main), the actor,
 *   the commit's context (phases, published notes, editorial orders, reason, approvals required)
 *   and the blob of every image it references. A note a commit changed is always judged afresh
 *   (its review comes from the commit's trailers);
 * - a note's review log, read once per run.
 *
 * The memo lives for one run: refs are read as they stand when the run reads them.
 */
export type CheckWork = {
  /** Note files read and parsed (once per blob). */
  notesParsed: number;
  /** Note writes judged by the acceptance function. */
  notesJudged: number;
  /** Unchanged notes whose judgement at an earlier commit, on the same inputs, was reused. */
  judgementsReused: number;
};

export type JudgementInputs = {
  kind: string;
  file: string;
  blob: Oid | null;
  /** The blob of the note before (null: none, "self": the first commit, judged as it stands). */
  was: Oid | null;
  who: string;
  /** `contextId` of the commit's context. */
  context: number;
  note: Note;
};

export type CheckMemo = ReturnType<typeof checkMemo>;

export function checkMemo() {
  const tables = new Map<string, Map<string, Promise<unknown>>>();
  const contexts = new Map<string, number>();
  const assetPaths = new WeakMap<Note, string[]>();
  return {
    work: { notesParsed: 0, notesJudged: 0, judgementsReused: 0 } as CheckWork,
    text: noteTextMemo(),
    /** Judgements of unchanged notes, by `judgementKey`. */
    judged: new Map<string, Finding[]>(),
    reviewLogs: new Map<string, Promise<ReviewLog>>(),

    /** `compute` once per key of `table` in this run. */
    once<T>(table: string, key: string, compute: () => Promise<T>): Promise<T> {
      let t = tables.get(table);
      if (!t) tables.set(table, (t = new Map()));
      let found = t.get(key) as Promise<T> | undefined;
      if (!found) t.set(key, (found = compute()));
      return found;
    },

    /** A small number naming a commit's context: equal contexts, equal numbers. */
    contextId(base: Omit<NoteWriteContext, "onMain" | "review">): number {
      const key = JSON.stringify([base.phases, [...base.publishedIds], [...(base.orders ?? [])], base.requiredApprovals ?? null, base.reason ?? null]);
      let id = contexts.get(key);
      if (id === undefined) contexts.set(key, (id = contexts.size));
      return id;
    },

    /** The key of an unchanged note's judgement at `commit`: its inputs, images by the blobs the commit holds. */
    async judgementKey(store: ContentStore, commit: Oid, inputs: JudgementInputs): Promise<string> {
      let paths = assetPaths.get(inputs.note);
      if (!paths) assetPaths.set(inputs.note, (paths = assetPathsOf(inputs.note)));
      const images = await Promise.all(paths.map(async (p) => `${p}@${await store.fileId(commit, p)}`));
      return [inputs.kind, inputs.file, inputs.blob, inputs.was, inputs.who, inputs.context, ...images].join("\u0000");
    },
  };
}
