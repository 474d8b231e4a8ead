import { STATUS_LABEL, type Note, type Status } from "@/lib/notes/schema";
import { phaseTitle, type Phase } from "@/lib/phases/schema";
import type { ReviewRecord } from "@/lib/review/records";
import { EVENT_TYPES, type EventType } from "@/lib/validations/webhook-events";

/**
 * What a subscriber (a chat room, a CI, an agent) is told after a write has committed: one event
 * per write that matters to someone outside the studio, as a JSON body that names the note, the
 * revision (the commit the write made), the actor and the public URL, with a `text` line a chat
 * tool shows as it is. Pure: the write path says what it committed (`CommittedWrite`), this says
 * what that means; lib/webhooks/announce.ts queues it.
 */

export { EVENT_TYPES, type EventType };

export type Who = { id: string; name: string };

/** A write that has committed, as the write path knows it. */
export type CommittedWrite =
  | { kind: "publish"; actor: Who; commit: string; note: Note; before: Note | null }
  | { kind: "status-change"; actor: Who; commit: string; before: Note; after: Note; reason?: string; published: boolean }
  | { kind: "review"; actor: Who; commit: string; noteId: string; note: Note | null; published: boolean; record: ReviewRecord }
  | { kind: "phase-close"; actor: Who; commit: string; phase: Phase };

export type NoteRef = { id: string; title: string | null; status: Status | null; url: string | null; studio_url: string };

export type WebhookEvent = {
  id: string;
  type: EventType;
  at: string;
  site: string;
  /** The commit the write made: on main (a publish, a phase close), on the draft branch, or on the note's review ref. */
  revision: string;
  actor: Who;
  /** The public page the event is about (null: a note not published yet). */
  url: string | null;
  note: NoteRef | null;
  /** One line for chat tools, shown as it is. */
  text: string;
} & Record<string, unknown>;

const clip = (s: string, n = 280) => {
  const line = s.replace(/\s+/g, " ").trim();
  return line.length > n ? `${line.slice(0, n - 1)}…` : line;
};

/**
 * The events of one committed write (none for a write nobody subscribes to: a save, a resolved
 * thread, a withdrawn verdict). `id` makes each event's id (the receivers' de-duplication key).
 */
export function eventsOf(write: CommittedWrite, site: string, at: string, id: () => string): WebhookEvent[] {
  const noteRef = (noteId: string, note: Pick<Note, "title" | "status"> | null, published: boolean): NoteRef => ({
    id: noteId,
    title: note?.title ?? null,
    status: note?.status ?? null,
    url: published ? `${site}/notes/${noteId}` : null,
    studio_url: `${site}/studio/notes/${noteId}`,
  });
  const named = (n: NoteRef) => (n.title ? `${n.id} “${n.title}”` : n.id);
  const link = (n: NoteRef) => n.url ?? n.studio_url;
  const base = (type: EventType, note: NoteRef | null, url: string | null, text: string) => ({
    id: id(),
    type,
    at,
    site,
    revision: write.commit,
    actor: write.actor,
    url,
    note,
    text,
  });

  switch (write.kind) {
    case "publish": {
      const note = noteRef(write.note.id, write.note, true);
      const label = STATUS_LABEL[write.note.status];
      const what = write.before ? "published a new version of" : "published";
      return [
        {
          ...base("note.published", note, note.url, `${write.actor.name} ${what} ${named(note)} as ${label}: ${link(note)}`),
          first_time: write.before === null,
          previous_status: write.before?.status ?? null,
        },
      ];
    }
    case "status-change": {
      if (write.before.status === write.after.status) return [];
      // The public page (of the version still published) when there is one; the change itself is on the draft.
      const note = noteRef(write.after.id, write.after, write.published);
      const from = STATUS_LABEL[write.before.status];
      const to = STATUS_LABEL[write.after.status];
      return [
        {
          ...base("note.status_changed", note, note.url, `${write.actor.name} moved ${named(note)} from ${from} to ${to}: ${note.studio_url}`),
          from: write.before.status,
          to: write.after.status,
          reason: write.reason ?? null,
        },
      ];
    }
    case "review": {
      const note = noteRef(write.noteId, write.note, write.published);
      const review = `${note.studio_url}/review`;
      const r = write.record;
      if (r.kind === "request") {
        const who = r.reviewers.map((p) => p.name).join(", ") || "any reviewer";
        return [
          {
            ...base("review.requested", note, note.url, `${write.actor.name} asked ${who} to review ${named(note)}: ${review}`),
            review_url: review,
            reviewers: r.reviewers,
            purpose: r.purpose,
            note_revision: r.revision,
            message: r.text ?? null,
          },
        ];
      }
      if (r.kind === "verdict") {
        const said = r.verdict === "approve" ? "approved" : "requested changes on";
        return [
          {
            ...base("review.verdict", note, note.url, `${write.actor.name} ${said} ${named(note)}${r.summary ? `: “${clip(r.summary, 120)}”` : ""} ${review}`),
            review_url: review,
            verdict: r.verdict,
            summary: r.summary ?? null,
            note_revision: r.revision,
          },
        ];
      }
      if (r.kind === "thread" || r.kind === "reply") {
        const thread = r.kind === "thread" ? r.id : r.thread;
        const where = `${review}#thread-${thread}`;
        return [
          {
            ...base("review.comment", note, note.url, `${write.actor.name} commented on ${named(note)}: “${clip(r.text, 120)}” ${where}`),
            review_url: where,
            thread,
            comment: r.id,
            reply: r.kind === "reply",
            section: r.kind === "thread" ? r.section : null,
            excerpt: clip(r.text),
          },
        ];
      }
      return [];
    }
    case "phase-close": {
      const url = `${site}/phases/${write.phase.slug}`;
      const closeout = write.phase.closeout;
      const delta = closeout?.kind === "delta" ? `with decision delta ${closeout.notes.join(", ")}` : "with no new decision delta";
      return [
        {
          ...base("phase.closed", null, url, `${write.actor.name} closed phase ${phaseTitle(write.phase)} ${delta}: ${url}`),
          phase: { slug: write.phase.slug, name: write.phase.name, url },
          delta: closeout?.kind === "delta" ? closeout.notes.map((n) => ({ id: n, url: `${site}/notes/${n}` })) : [],
          why: closeout?.kind === "no-delta" ? closeout.why : null,
        },
      ];
    }
  }
}
