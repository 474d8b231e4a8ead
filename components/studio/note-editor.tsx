"use client";

import { useEffect, useMemo, useState } from "react";
import { SECTIONS, STATUS_LABEL, type SectionKey } from "@/lib/notes/schema";
import type { Actor } from "@/lib/rules/status-machine";
import type { Where } from "@/lib/api/errors";
import type { NoteView } from "@/lib/studio/note-view";
import { composeNote, sameFields, validateNote, type NoteFields } from "@/lib/validations/note";
import { useUnsavedEdits } from "@/lib/hooks/use-unsaved-edits";
import { StudioApiError } from "@/lib/queries/fetch";
import { useNote } from "@/lib/queries/use-note";
import { useChangeStatus, usePublishNote, useSaveDraft } from "@/lib/queries/use-note-mutations";
import { ConflictView, type ConflictSides } from "./conflict-view";
import { PublishPanel } from "./publish-panel";
import { SectionField } from "./section-field";
import { StatusActions } from "./status-actions";
import { SectionThreads } from "@/components/review/section-threads";
import { BoundariesField, CoreFields, ListField, TextField } from "./text-fields";
import { shortDate } from "./short-date";
import styles from "./studio.module.css";

/**
 * The note editor. It carries the revision it opened; a save based on an older one comes back as
 * a conflict with both versions. Every keystroke is also kept in the browser until a save
 * succeeds, and the same schema as the server's checks each field as it is typed.
 */

const SECTION_HINTS: Record<SectionKey, string> = {
  decision: "What was decided, in a sentence or a short list.",
  invariant: "The property that must always hold; what a test would check.",
  rejectedShortcut: "The tempting alternative, and why it was refused.",
  evidence: "What shows the decision holds: tests, traces, measurements (public ones only).",
  claimBoundary: "What this note does not claim.",
  notes: "Anything else a reader needs.",
};

type Conflict = ConflictSides & { revision: string; main?: string };

export function NoteEditor({ initial, actor }: { initial: NoteView; actor: Actor }) {
  const id = initial.id;
  const { data: view = initial } = useNote(id, initial);
  const save = useSaveDraft(id);
  const transition = useChangeStatus(id);
  const publish = usePublishNote(id);
  const unsaved = useUnsavedEdits(id);
  const readOnly = actor.role !== "author";

  const [fields, setFields] = useState<NoteFields>(initial.fields);
  const [base, setBase] = useState({ revision: initial.revision, fields: initial.fields });
  const [serverProblems, setServerProblems] = useState<Where[]>([]);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [showAll, setShowAll] = useState(false);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [mainSeen, setMainSeen] = useState<string | undefined>(undefined);
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string; unmet?: string[] } | null>(null);
  const [restoreDecided, setRestoreDecided] = useState(false);
  const [publishedAt, setPublishedAt] = useState<string | null>(null);
  const [reason, setReason] = useState("");

  const dirty = !sameFields(fields, base.fields);
  const moved = view.revision !== base.revision;

  // Someone else saved, and nothing here is unsaved: follow their version (adjusted while rendering, as React advises).
  const [seenRevision, setSeenRevision] = useState(view.revision);
  if (view.revision !== seenRevision) {
    setSeenRevision(view.revision);
    if (!dirty && !conflict) {
      setFields(view.fields);
      setBase({ revision: view.revision, fields: view.fields });
    }
  }

  // Keep every change in the browser until it is saved (restoring is decided first, so an offer is never overwritten).
  const offer = unsaved.found && !restoreDecided && !sameFields(unsaved.found.fields, view.fields) ? unsaved.found : null;
  useEffect(() => {
    if (dirty && !offer) unsaved.keep(base.revision, fields);
  }, [dirty, offer, base.revision, fields, unsaved]);

  useEffect(() => {
    const warn = (e: BeforeUnloadEvent) => {
      if (dirty) e.preventDefault();
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const stored = view.note;
  const checked = useMemo(() => validateNote(composeNote(stored ?? { id, status: "draft", order: 1 }, fields)), [stored, id, fields]);
  const clientProblems: Where[] = checked.ok ? [] : checked.problems;
  const problemsAt = (field: string): Where[] => {
    const visible = showAll || touched.has(field);
    return [...(visible ? clientProblems.filter((p) => p.field === field) : []), ...serverProblems.filter((p) => p.field === field)];
  };

  const edit = (field: string, next: NoteFields) => {
    setFields(next);
    setServerProblems((ps) => ps.filter((p) => p.field !== field));
    setMessage(null);
  };
  const blur = (field: string) => () => setTouched((t) => (t.has(field) ? t : new Set(t).add(field)));

  async function onSave(e?: React.FormEvent) {
    e?.preventDefault();
    setShowAll(true);
    setMessage(null);
    if (!checked.ok) {
      setMessage({ kind: "error", text: `Not saved: ${checked.problems.length} field${checked.problems.length === 1 ? " needs" : "s need"} attention.` });
      focusField(checked.problems[0]?.field);
      return;
    }
    try {
      const result = await save.mutateAsync({ revision: base.revision, fields, reason: reason.trim() || undefined });
      setFields(result.fields);
      setBase({ revision: result.revision, fields: result.fields });
      setServerProblems([]);
      setReason("");
      unsaved.forget();
      setMessage({ kind: "ok", text: result.saved ? `Saved as revision ${result.revision.slice(0, 7)}.` : "Nothing changed since the last save." });
    } catch (error) {
      handleError(error);
    }
  }

  function handleError(error: unknown) {
    if (!(error instanceof StudioApiError) || !error.body) {
      setMessage({ kind: "error", text: error instanceof Error ? error.message : String(error) });
      return;
    }
    const body = error.body as Record<string, unknown> & { error: { code: string; message: string; where?: Where[]; unmet?: string[] } };
    if (error.status === 409 && body.theirs && (body.error.code === "stale-revision" || body.error.code === "main-changed")) {
      const theirs = body.theirs as { fields: NoteFields | null; revision?: string; lastChange?: { author: { name: string } } | null; author?: { name: string } };
      if (theirs.fields) {
        setConflict({
          theirs: theirs.fields,
          yours: fields,
          base: (body.base as NoteFields | null | undefined) ?? (body.error.code === "main-changed" ? null : base.fields),
          by: theirs.lastChange?.author.name ?? theirs.author?.name ?? "Someone",
          revision: body.error.code === "main-changed" ? base.revision : (theirs.revision ?? base.revision),
          main: typeof body.main === "string" ? body.main : undefined,
        });
        return;
      }
    }
    if (body.error.where?.length) setServerProblems(body.error.where);
    setMessage({ kind: "error", text: body.error.message, unmet: body.error.unmet });
    focusField(body.error.where?.[0]?.field);
  }

  const blockers = dirty || moved ? ["save your changes first: status changes and publishing apply to the saved revision"] : [];
  const busy = save.isPending || transition.isPending || publish.isPending;

  if (conflict) {
    return (
      <ConflictView
        sides={conflict}
        onCancel={() => setConflict(null)}
        onResolve={(merged) => {
          setFields(merged);
          if (conflict.main) setMainSeen(conflict.main);
          else setBase({ revision: conflict.revision, fields: conflict.theirs });
          setConflict(null);
          setMessage({ kind: "ok", text: conflict.main ? "Merged with main's version: save the draft, then publish." : "Merged: review it and save the draft." });
        }}
      />
    );
  }

  return (
    <div className={styles.editorLayout}>
      <form className={styles.editor} onSubmit={onSave} noValidate aria-labelledby="editor-heading">
        <header className={styles.editorHeader}>
          <h1 id="editor-heading">
            <span className={styles.noteId}>{id}</span> {fields.title.trim() || "Untitled note"}
          </h1>
          <p className={styles.hint}>
            {view.source === "published" ? "Published note: saving starts a draft; the public version stays as it is until you publish." : null}
            {view.source === "new" ? "New draft: nothing is saved yet." : null}
            {view.source === "draft" ? `Draft (${STATUS_LABEL[view.status]}) on drafts/${id}.` : null}
            {view.lastChange ? ` Last change by ${view.lastChange.author.name}, ${shortDate(view.lastChange.date)}.` : null}
          </p>
        </header>

        {offer ? (
          <div className={styles.banner} role="alert">
            <p>
              You have unsaved edits of this note from {shortDate(offer.savedAt)}, kept in this browser.
              {offer.revision !== view.revision ? " The note has changed since then: saving them will show both versions side by side." : ""}
            </p>
            <button
              type="button"
              onClick={() => {
                setFields(offer.fields);
                setBase((b) => (offer.revision === b.revision ? b : { revision: offer.revision, fields: view.fields }));
                setRestoreDecided(true);
              }}
            >
              Restore unsaved edits
            </button>
            <button
              type="button"
              onClick={() => {
                unsaved.forget();
                setRestoreDecided(true);
              }}
            >
              Discard them
            </button>
          </div>
        ) : null}
        {moved && dirty ? (
          <p className={styles.banner} role="status">
            Someone saved a newer version of this note. Your edits are kept; saving will show both versions side by side.
          </p>
        ) : null}
        {view.errors.length ? (
          <div className={styles.banner} role="alert">
            <p>The stored file is not a valid note (it was edited outside the studio):</p>
            <ul>
              {view.errors.map((e, i) => (
                <li key={i}>
                  line {e.line}, {e.field}: {e.message}
                </li>
              ))}
            </ul>
          </div>
        ) : null}

        <TextField label="Title" value={fields.title} problems={problemsAt("title")} readOnly={readOnly} onBlur={blur("title")} onChange={(title) => edit("title", { ...fields, title })} />
        <TextField label="Summary" multiline hint="One or two sentences: the decision as a reader meets it in the index." value={fields.summary} problems={problemsAt("summary")} readOnly={readOnly} onBlur={blur("summary")} onChange={(summary) => edit("summary", { ...fields, summary })} />
        <div className={styles.pair}>
          <TextField label="Phase" hint={`One of the phases, e.g. ${initial.phases[0] ?? "6 architecture"} (shown as "Phase ${initial.phases[0] ?? "6 architecture"}")`} suggestions={initial.phases} value={fields.phase} problems={problemsAt("phase")} readOnly={readOnly} onBlur={blur("phase")} onChange={(phase) => edit("phase", { ...fields, phase })} />
          <ListField label="Tags" hint="Comma-separated." value={fields.tags} problems={problemsAt("tags")} readOnly={readOnly} onBlur={blur("tags")} onChange={(tags) => edit("tags", { ...fields, tags })} />
        </div>
        <ListField label="Related notes" hint="Comma-separated ids, e.g. AFN-011, AFN-017." value={fields.related} problems={problemsAt("related")} readOnly={readOnly} onBlur={blur("related")} onChange={(related) => edit("related", { ...fields, related })} />
        <BoundariesField value={fields.boundaries} problems={problemsAt("boundaries")} readOnly={readOnly} onBlur={blur("boundaries")} onChange={(boundaries) => edit("boundaries", { ...fields, boundaries })} />
        <CoreFields value={fields.core} rankProblems={problemsAt("core.rank")} labelProblems={[...problemsAt("core.label"), ...problemsAt("core")]} readOnly={readOnly} onBlur={blur("core.rank")} onChange={(core) => edit("core.rank", { ...fields, core })} />

        {SECTIONS.map(({ key, heading }) => (
          <div key={key}>
            <SectionField
              name={heading}
              hint={SECTION_HINTS[key]}
              value={fields.sections[key]}
              problems={problemsAt(`sections.${key}`)}
              readOnly={readOnly}
              onBlur={blur(`sections.${key}`)}
              onChange={(text) => edit(`sections.${key}`, { ...fields, sections: { ...fields.sections, [key]: text } })}
            />
            {view.note ? <SectionThreads noteId={id} section={key} heading={heading} revision={view.noteRevision} actor={actor} /> : null}
          </div>
        ))}

        {view.published && base.fields.boundaries.some((b) => !fields.boundaries.includes(b)) ? (
          <TextField label="Why remove a boundary" hint="Readers and agents rely on boundaries; say why this one no longer applies." value={reason} problems={problemsAt("boundaries-reason")} readOnly={readOnly} onBlur={() => undefined} onChange={setReason} />
        ) : null}

        <div className={styles.saveBar}>
          <button type="submit" className={styles.primary} disabled={readOnly || busy}>
            {save.isPending ? "Saving…" : "Save draft"}
          </button>
          {readOnly ? <span className={styles.hint}>Reviewers read drafts; only authors save them.</span> : null}
          {dirty ? <span className={styles.hint}>Unsaved changes (kept in this browser)</span> : null}
          <div aria-live="polite" className={message?.kind === "error" ? styles.error : styles.ok}>
            {message ? <p>{message.text}</p> : null}
            {message?.unmet?.length ? (
              <ul>
                {message.unmet.map((u) => (
                  <li key={u}>{u}</li>
                ))}
              </ul>
            ) : null}
          </div>
        </div>
      </form>

      <aside className={styles.sidebar}>
        <StatusActions
          view={view}
          actor={actor}
          blockers={blockers}
          busy={busy}
          onChange={async (request) => {
            setMessage(null);
            try {
              const next = await transition.mutateAsync({ ...request, revision: view.revision });
              setFields(next.fields);
              setBase({ revision: next.revision, fields: next.fields });
              setMessage({ kind: "ok", text: `Status is now ${STATUS_LABEL[next.status]}.` });
            } catch (error) {
              handleError(error);
            }
          }}
        />
        <PublishPanel
          view={view}
          actor={actor}
          blockers={blockers}
          busy={busy}
          publishedAt={publishedAt}
          onPublish={async () => {
            setMessage(null);
            try {
              const result = await publish.mutateAsync({ revision: view.revision, main: mainSeen });
              setFields(result.view.fields);
              setBase({ revision: result.view.revision, fields: result.view.fields });
              setPublishedAt(result.commit);
              setMainSeen(undefined);
              unsaved.forget();
              setMessage({ kind: "ok", text: result.draftKept ? "Published. Someone saved to the draft meanwhile, so it stays open." : "Published." });
            } catch (error) {
              handleError(error);
            }
          }}
        />
      </aside>
    </div>
  );
}

/** Move focus to a field by its path ("title", "sections.evidence"), once the render that marks it has happened. */
function focusField(field: string | undefined) {
  if (!field) return;
  const [first, second] = field.split(".");
  const heading = SECTIONS.find((s) => s.key === second)?.heading;
  const id =
    first === "sections" && heading
      ? `section-${heading.toLowerCase().replace(/\s+/g, "-")}`
      : first === "core"
        ? `field-core-${second ?? "rank"}`
        : first === "related"
          ? "field-related-notes"
          : `field-${first}`;
  requestAnimationFrame(() => document.getElementById(id)?.focus());
}
