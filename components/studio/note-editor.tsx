"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { useHydrated } from "@/lib/hooks/use-hydrated";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { SECTIONS, STATUS_LABEL, type SectionKey } from "@/lib/notes/schema";
import type { Actor } from "@/lib/rules/status-machine";
import type { Where } from "@/lib/rules/api-errors";
import type { NoteView } from "@/lib/studio/note-view";
import type { EditorCatalog } from "@/lib/studio/editor-catalog";
import { blankFields, composeNote, sameFields, validateNote, type NoteFields } from "@/lib/validations/note";
import { changedFields, versionLabel } from "@/lib/hooks/save-status";
import { noteIdIn } from "@/lib/hooks/note-choices";
import { tickClock, useClock } from "@/lib/hooks/use-clock";
import { useUnsavedEdits } from "@/lib/hooks/use-unsaved-edits";
import { StudioApiError } from "@/lib/queries/fetch";
import { conflictOf } from "@/lib/validations/answers";
import { useNote } from "@/lib/queries/use-note";
import { useChangeStatus, useCreateNote, usePublishNote, useSaveDraft } from "@/lib/queries/use-note-mutations";
import { StatusBadge } from "@/components/status-badge";
import { ConflictView, type ConflictSides } from "./conflict-view";
import { PublishPanel } from "./publish-panel";
import { AskReviewPanel } from "./ask-review-panel";
import { DiscardDraft } from "./discard-draft";
import { ReviewPanel, SectionThreadCount, useReviewFollows } from "./review-panel";
import { SaveBar, type SaveMessage } from "./save-bar";
import { SectionField } from "./section-field";
import { StatusActions } from "./status-actions";
import { BoundariesField, ChipsField, CoreFields, PhaseField, TextField } from "./text-fields";
import { exactTime } from "@/lib/hooks/change-time";
import styles from "./studio.module.css";

/**
 * The note editor, one writing column. It carries the revision it opened; a save based on an older
 * one comes back as a conflict with both versions. Every keystroke is also kept in the browser
 * until a save succeeds, and the same schema as the server's checks each field as it is typed.
 * A new note (`initial` null) has no id until its first save, which claims one (POST).
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

// Only for checking a new note's fields as they are typed: the server gives the real id on save.
const PLACEHOLDER_ID = "NEW-000";

/** What a note never saved starts from: blank fields, main's phases and published notes. */
function blankView(catalog: EditorCatalog): NoteView {
  return {
    id: "",
    source: "new",
    revision: catalog.main,
    noteRevision: catalog.main,
    status: "draft",
    note: null,
    fields: blankFields(),
    errors: [],
    findings: [],
    published: false,
    lastChange: null,
    revisionAuthors: [],
    publishedIds: catalog.notes.map((n) => n.id),
    reviews: { verdicts: [] },
    onMain: null,
    requiredApprovals: 1,
    phases: catalog.phases,
    phaseTitles: catalog.phaseTitles,
  };
}

export function NoteEditor({ initial, actor, catalog }: { initial: NoteView | null; actor: Actor; catalog: EditorCatalog }) {
  const isNew = initial === null;
  const router = useRouter();
  const [start] = useState(() => initial ?? blankView(catalog));
  const id = start.id;
  const { data: view = start } = useNote(isNew ? null : id, initial ?? undefined);
  const save = useSaveDraft(id);
  const create = useCreateNote();
  const transition = useChangeStatus(id);
  const publish = usePublishNote(id);
  const unsaved = useUnsavedEdits(isNew ? "new" : id);
  const readOnly = actor.role !== "author";
  // The fields are rendered on the server too; until the page has hydrated they take no input: a
  // phase chosen or a title typed before then would be reset by React's first render.
  const hydrated = useHydrated();
  const fieldsReadOnly = readOnly || !hydrated;
  const now = useClock();
  useReviewFollows(id, view.noteRevision);

  const [fields, setFields] = useState<NoteFields>(start.fields);
  const [base, setBase] = useState({ revision: start.revision, fields: start.fields });
  const [serverProblems, setServerProblems] = useState<Where[]>([]);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [showAll, setShowAll] = useState(false);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  // Revisions this editor has merged past: the note query may still hold one for a moment after a merge.
  const [mergedPast, setMergedPast] = useState<ReadonlySet<string>>(new Set());
  const [mainSeen, setMainSeen] = useState<string | undefined>(undefined);
  const [message, setMessage] = useState<SaveMessage | null>(null);
  const [restoreDecided, setRestoreDecided] = useState(false);
  const [publishedAt, setPublishedAt] = useState<string | null>(null);
  const [reason, setReason] = useState("");
  const [claimed, setClaimed] = useState<string | null>(null);

  const changes = changedFields(base.fields, fields);
  const dirty = !sameFields(fields, base.fields);
  const moved = view.revision !== base.revision && !mergedPast.has(view.revision);

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
    if (dirty && !offer && !claimed) unsaved.keep(base.revision, fields);
  }, [dirty, offer, claimed, base.revision, fields, unsaved]);

  useEffect(() => {
    const warn = (e: BeforeUnloadEvent) => {
      if (dirty) e.preventDefault();
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  // A link inside the app leaves without a page unload, so beforeunload never asks: ask here, before
  // next/link acts (it skips a click whose default was prevented), and say where the text stays.
  const unsavedCount = changes.length;
  useEffect(() => {
    if (!dirty) return;
    const ask = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const link = e.target instanceof Element ? e.target.closest("a[href]") : null;
      if (!(link instanceof HTMLAnchorElement) || link.target === "_blank" || link.hasAttribute("download")) return;
      const to = new URL(link.href, window.location.href);
      if (to.origin !== window.location.origin || (to.pathname === window.location.pathname && to.search === window.location.search)) return;
      const n = unsavedCount === 1 ? "1 unsaved change" : `${unsavedCount} unsaved changes`;
      if (!window.confirm(`This note has ${n}. Leave the editor? They stay in this browser and are offered back when you open the note again.`)) {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    document.addEventListener("click", ask, true);
    return () => document.removeEventListener("click", ask, true);
  }, [dirty, unsavedCount]);

  const stored = view.note;
  const checked = useMemo(() => validateNote(composeNote(stored ?? { id: id || PLACEHOLDER_ID, status: "draft", order: 1 }, fields)), [stored, id, fields]);
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

  const busy = save.isPending || create.isPending || transition.isPending || publish.isPending || claimed !== null;

  async function onSave(e?: React.FormEvent) {
    e?.preventDefault();
    if (readOnly || busy) return;
    setShowAll(true);
    setMessage(null);
    if (!checked.ok) {
      setMessage({ kind: "error", text: `Not saved: ${checked.problems.length} field${checked.problems.length === 1 ? " needs" : "s need"} attention.` });
      focusField(checked.problems[0]?.field);
      return;
    }
    try {
      if (isNew) {
        // The first save claims the id and writes the note in one commit; the editor then moves to its address.
        const created = await create.mutateAsync(fields);
        unsaved.forget();
        setFields(created.fields);
        setBase({ revision: created.revision, fields: created.fields });
        setClaimed(created.id);
        tickClock();
        setMessage({ kind: "ok", text: `Saved as ${created.id}.` });
        router.replace(`/studio/notes/${created.id}`);
        return;
      }
      const result = await save.mutateAsync({ revision: base.revision, fields, reason: reason.trim() || undefined });
      setFields(result.fields);
      setBase({ revision: result.revision, fields: result.fields });
      setServerProblems([]);
      setReason("");
      unsaved.forget();
      tickClock();
      setMessage({ kind: "ok", text: result.saved ? "Saved." : "Nothing changed since the last save." });
    } catch (error) {
      handleError(error);
    }
  }

  // Ctrl+S (Cmd+S on a Mac) saves from anywhere on the page, as in any editor.
  const saveRef = useRef(onSave);
  useEffect(() => {
    saveRef.current = onSave;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "s") {
        e.preventDefault();
        void saveRef.current();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  function handleError(error: unknown) {
    if (!(error instanceof StudioApiError) || !error.body) {
      setMessage({ kind: "error", text: error instanceof Error ? error.message : String(error) });
      return;
    }
    const body = error.body;
    const theirs = conflictOf(error.status, body);
    if (theirs) {
      setConflict({
        theirs: theirs.theirs,
        yours: fields,
        base: theirs.base ?? (theirs.main ? null : base.fields),
        by: theirs.by,
        revision: theirs.revision ?? base.revision,
        main: theirs.main,
      });
      return;
    }
    if (body.error.where?.length) setServerProblems(body.error.where);
    setMessage({ kind: "error", text: body.error.message, unmet: body.error.unmet });
    focusField(body.error.where?.[0]?.field);
  }

  const blockers = dirty || moved ? ["save your changes first: status changes and publishing apply to the saved revision"] : [];
  const titles = useMemo(() => new Map(catalog.notes.map((n) => [n.id, n.title])), [catalog.notes]);

  if (conflict) {
    return (
      <ConflictView
        sides={conflict}
        me={actor.id}
        onCancel={() => setConflict(null)}
        onResolve={(merged) => {
          setFields(merged);
          if (conflict.main) setMainSeen(conflict.main);
          else {
            setMergedPast((past) => new Set([...past, base.revision, view.revision].filter((r) => r !== conflict.revision)));
            setBase({ revision: conflict.revision, fields: conflict.theirs });
          }
          setConflict(null);
          setMessage({
            kind: "ok",
            text: conflict.main ? "Merged with main's version: save it, then publish." : "Merged: review it and save.",
          });
        }}
      />
    );
  }

  const tz = now === null ? "UTC" : undefined;
  const change = view.lastChange;
  return (
    <div className={styles.editorLayout}>
      <form className={styles.editor} onSubmit={onSave} noValidate aria-labelledby="editor-heading">
        <header className={styles.editorHeader}>
          <h1 id="editor-heading">
            {isNew ? (
              <>{fields.title.trim() || "New note"}</>
            ) : (
              <>
                <span className={styles.noteId}>{id}</span> {fields.title.trim() || "Untitled note"}
              </>
            )}
          </h1>
          <p className={styles.headerLine}>
            {isNew ? "A new note: it gets its id when you first save it." : null}
            {!isNew && view.source === "new" ? "Its id is claimed; nothing is saved yet." : null}
            {view.source === "published" ? (
              <>
                <StatusBadge status={view.status} link={false} /> Published. Saving starts an unpublished version; readers keep the published one until you
                publish.
              </>
            ) : null}
            {view.source === "draft" ? (
              <>
                <StatusBadge status={view.status} link={false} />{" "}
                {view.published ? "Unpublished version: readers see the published one until you publish." : "Not published yet."}
              </>
            ) : null}
            {change ? (
              <>
                {" "}
                Last saved by {change.author.name}, {versionLabel(change.date, tz)}
                {tz ? " UTC" : ""}{" "}
                <span className={styles.commitId} title="The commit that saved this version">
                  {change.commit.slice(0, 7)}
                </span>
              </>
            ) : null}
          </p>
        </header>

        {readOnly ? null : (
          <SaveBar
            label="Save"
            disabled={busy}
            message={message}
            state={{
              source: isNew ? "new" : view.source === "new" ? "claimed" : view.source,
              savedAt: change?.date ?? null,
              unsaved: changes.length,
              saving: save.isPending || create.isPending,
            }}
          />
        )}

        {readOnly ? (
          <p className={styles.banner}>
            You review unpublished versions; authors write them. Comments and verdicts are on <Link href={`/studio/notes/${id}/review`}>the review page</Link>.
          </p>
        ) : null}
        {offer ? (
          <div className={styles.banner} role="alert">
            <p>
              You have unsaved edits of this note from {exactTime(offer.savedAt)}, kept in this browser.
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

        <TextField
          label="Title"
          value={fields.title}
          problems={problemsAt("title")}
          readOnly={fieldsReadOnly}
          onBlur={blur("title")}
          onChange={(title) => edit("title", { ...fields, title })}
        />
        <TextField
          label="Summary"
          multiline
          hint="One or two sentences: the decision as a reader meets it in the index."
          value={fields.summary}
          problems={problemsAt("summary")}
          readOnly={fieldsReadOnly}
          onBlur={blur("summary")}
          onChange={(summary) => edit("summary", { ...fields, summary })}
        />
        <div className={styles.pair}>
          <PhaseField
            value={fields.phase}
            phases={view.phases}
            titles={view.phaseTitles}
            problems={problemsAt("phase")}
            readOnly={fieldsReadOnly}
            onBlur={blur("phase")}
            onChange={(phase) => edit("phase", { ...fields, phase })}
          />
          <ChipsField
            label="Tags"
            hint="Press Enter or a comma after each tag."
            value={fields.tags}
            suggestions={catalog.tags.map((t) => ({ value: t }))}
            problems={problemsAt("tags")}
            readOnly={fieldsReadOnly}
            onBlur={blur("tags")}
            onChange={(tags) => edit("tags", { ...fields, tags })}
          />
        </div>
        <ChipsField
          label="Related notes"
          hint="Published notes, by id or title."
          value={fields.related}
          suggestions={catalog.notes.filter((n) => n.id !== id).map((n) => ({ value: n.id, label: n.title }))}
          normalize={noteIdIn}
          display={(r) => (titles.has(r.toUpperCase()) ? `${r.toUpperCase()} ${titles.get(r.toUpperCase())}` : r)}
          problems={problemsAt("related")}
          readOnly={fieldsReadOnly}
          onBlur={blur("related")}
          onChange={(related) => edit("related", { ...fields, related })}
        />
        <ChipsField
          label="Affects"
          hint="What this note governs: code paths or globs (src/cache/**), or component:<name>. Press Enter after each."
          value={fields.affects}
          suggestions={[]}
          commaSeparates={false}
          problems={problemsAt("affects")}
          readOnly={fieldsReadOnly}
          onBlur={blur("affects")}
          onChange={(affects) => edit("affects", { ...fields, affects })}
        />
        <BoundariesField
          value={fields.boundaries}
          problems={problemsAt("boundaries")}
          readOnly={fieldsReadOnly}
          onBlur={blur("boundaries")}
          onChange={(boundaries) => edit("boundaries", { ...fields, boundaries })}
        />
        <CoreFields
          value={fields.core}
          rankProblems={problemsAt("core.rank")}
          labelProblems={[...problemsAt("core.label"), ...problemsAt("core")]}
          readOnly={fieldsReadOnly}
          onBlur={blur("core.rank")}
          onChange={(core) => edit("core.rank", { ...fields, core })}
        />

        {SECTIONS.map(({ key, heading }) => (
          <div key={key}>
            <SectionField
              name={heading}
              hint={SECTION_HINTS[key]}
              value={fields.sections[key]}
              problems={problemsAt(`sections.${key}`)}
              readOnly={readOnly}
              notes={catalog.notes}
              onBlur={blur(`sections.${key}`)}
              onChange={(text) => edit(`sections.${key}`, { ...fields, sections: { ...fields.sections, [key]: text } })}
            />
            {view.note ? <SectionThreadCount id={id} section={key} heading={heading} /> : null}
          </div>
        ))}

        {view.published && base.fields.boundaries.some((b) => !fields.boundaries.includes(b)) ? (
          <TextField
            label="Why remove a boundary"
            hint="Readers and agents rely on boundaries; say why this one no longer applies."
            value={reason}
            problems={problemsAt("boundaries-reason")}
            readOnly={fieldsReadOnly}
            onBlur={() => undefined}
            onChange={setReason}
          />
        ) : null}
      </form>

      <aside className={styles.sidebar} aria-label="Status, publishing and review">
        {isNew ? (
          <section className={styles.panel} aria-labelledby="status-heading">
            <h2 id="status-heading">Status: {STATUS_LABEL.draft}</h2>
            <p className={styles.hint}>Proposing, review and publishing open once the note is saved.</p>
          </section>
        ) : null}
        {!isNew && !readOnly ? (
          <>
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
            {(view.source === "draft" && view.note) || (view.source === "published" && view.status === "hypothesis") ? (
              <AskReviewPanel view={view} busy={busy} />
            ) : null}
            {view.source !== "published" ? (
              <DiscardDraft
                view={view}
                busy={busy}
                onDiscarded={(published) => {
                  unsaved.forget();
                  // A full load: the editor opens on the published version, with nothing of the discarded draft.
                  if (published) window.location.reload();
                  else router.push("/studio");
                }}
              />
            ) : null}
          </>
        ) : null}
        {!isNew && view.source === "draft" ? <ReviewPanel id={id} reviewer={readOnly} /> : null}
        {!isNew && readOnly && view.source !== "draft" ? (
          <section className={styles.panel} aria-labelledby="status-heading">
            <h2 id="status-heading">Status: {STATUS_LABEL[view.status]}</h2>
            <p className={styles.hint}>No unpublished version of this note is open, so there is nothing to review.</p>
          </section>
        ) : null}
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
