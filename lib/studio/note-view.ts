import type { NoteError } from "@/lib/notes/markdown";
import type { Note, Status } from "@/lib/notes/schema";
import type { PhaseTitles } from "@/lib/phases/schema";
import type { Oid, Person } from "@/lib/store/types";
import type { Where } from "@/lib/rules/api-errors";
import { blankFields, fieldsOf, type NoteFields } from "@/lib/validations/note";
import type { ReviewState } from "@/lib/rules/status-machine";
import { isOnMain, type WorkingCopy } from "@/lib/working-copy/working-copy";
import type { NoteContext } from "./note-context";
import { policyFindings } from "./policy";
import { config } from "@/lib/env";

/** What the studio shows of one note, and what GET /api/studio/notes/<id> answers. */
export type NoteView = {
  id: string;
  source: WorkingCopy["source"];
  /** Send this back with a save, a status change or a publish: a stale one answers 409. */
  revision: Oid;
  /** The revision reviewers approve and the status machine checks: the draft's head, or the commit that last changed the note on main. */
  noteRevision: Oid;
  status: Status;
  /** The stored note; null for a draft never saved, or a file that does not parse. */
  note: Note | null;
  /** What the editor opens with. */
  fields: NoteFields;
  /** Why the stored file is not a valid note (edited outside the studio), by line and field. */
  errors: NoteError[];
  /** Archive-policy findings in the stored note. */
  findings: Where[];
  published: boolean;
  lastChange: { commit: Oid; date: string; author: Person; message: string } | null;
  revisionAuthors: string[];
  publishedIds: string[];
  /** Review verdicts, for the status machine's approval rule (the same data the server checks with). */
  reviews: ReviewState;
  /** The note as main holds it (null: never published): a change to a verified one needs an approval. */
  onMain: Note | null;
  /** Approvals a promotion or a verified change needs (REVIEW_APPROVALS). */
  requiredApprovals: number;
  /** The phases a note may name (the phase files on main). */
  phases: string[];
  /** The renamed phases' titles (name → title): the picker shows a title and sends the name. */
  phaseTitles: PhaseTitles;
};

/** The view of a note, built from one request's context (no further reads of the refs). */
export async function viewOf(ctx: NoteContext): Promise<NoteView> {
  const { copy } = ctx;
  const stored = copy.stored;
  const note = stored?.ok ? stored.note : null;
  const findings = note ? await policyFindings(note) : [];
  const change = ctx.revisions[0];
  return {
    id: copy.id,
    source: copy.source,
    revision: copy.revision,
    noteRevision: ctx.noteRevision,
    status: note?.status ?? "draft",
    note,
    fields: note ? fieldsOf(note) : blankFields(),
    errors: stored && !stored.ok ? stored.errors : [],
    findings,
    published: isOnMain(copy),
    lastChange: change ? { commit: change.commit, date: change.date, author: change.author, message: change.message } : null,
    revisionAuthors: ctx.authors,
    publishedIds: [...ctx.main.publishedIds].sort(),
    reviews: ctx.review.state,
    onMain: copy.onMain?.ok ? copy.onMain.note : null,
    requiredApprovals: config().reviewApprovals,
    phases: ctx.main.phases,
    phaseTitles: ctx.main.phaseTitles,
  };
}
