"use client";

import Link from "next/link";
import { useState } from "react";
import { changeRequestMessage, checkPublish, missingApprovals, openChangeRequests, type Actor } from "@/lib/rules/status-machine";
import { listOfLabels, verifiedChanges } from "@/lib/rules/verified-change";
import type { Note } from "@/lib/notes/schema";
import type { NoteView } from "@/lib/studio/note-view";
import { buttonClass } from "@/components/ui/button";
import styles from "./studio.module.css";

/**
 * Publish: enabled only when the saved draft may go onto main; otherwise every reason is listed.
 * Publishing is asked once more, saying what it does: readers and agents see the revision at once.
 */
export function PublishPanel(props: { view: NoteView; actor: Actor; blockers: string[]; busy: boolean; publishedAt: string | null; onPublish: () => void }) {
  const { view } = props;
  const [confirming, setConfirming] = useState(false);
  const unmet = [
    ...(props.actor.role === "author" ? [] : ["only authors publish"]),
    ...(view.source === "published" ? ["nothing to publish: this is the published version; edit and save it to start an unpublished version"] : []),
    ...(view.source === "new" ? ["save the note first"] : []),
    ...props.blockers,
    ...(view.note && view.source === "draft" ? checkPublish(view.note).unmet : []),
    ...(view.note && view.source === "draft" ? reviewUnmet(view, view.note) : []),
    ...view.errors.map((e) => `line ${e.line}, ${e.field}: ${e.message}`),
    ...view.findings.map((f) => `${f.field} line ${f.line}: ${f.message}`),
  ];
  return (
    <section className={styles.panel} aria-labelledby="publish-heading">
      <h2 id="publish-heading">Publish</h2>
      <p className={styles.hint}>Puts the saved version onto the public site and the agent formats, as one commit that touches only this note.</p>
      {confirming && unmet.length === 0 ? (
        <div role="group" aria-labelledby="publish-question">
          <p id="publish-question">
            <strong>Publish {view.id} now?</strong> This revision goes onto the public site, the feed and the agent formats at once
            {view.onMain ? ", in place of the published version" : ""}, as one commit on main.
          </p>
          <p className={styles.buttonRow}>
            <button
              type="button"
              className={buttonClass("primary")}
              disabled={props.busy}
              autoFocus
              onClick={() => {
                setConfirming(false);
                props.onPublish();
              }}
            >
              Publish now
            </button>
            <button type="button" className={buttonClass("quiet")} onClick={() => setConfirming(false)}>
              Not yet
            </button>
          </p>
        </div>
      ) : (
        <button
          type="button"
          className={buttonClass("primary")}
          disabled={props.busy || unmet.length > 0}
          aria-describedby={unmet.length ? "unmet-publish" : undefined}
          onClick={() => setConfirming(true)}
        >
          Publish
        </button>
      )}
      {unmet.length ? (
        <ul id="unmet-publish" className={styles.unmet}>
          {unmet.map((u) => (
            <li key={u}>{u}</li>
          ))}
        </ul>
      ) : null}
      {view.published ? (
        <p role="status">
          Published: <Link href={`/notes/${view.id}`}>/notes/{view.id}</Link>
          {props.publishedAt ? ` (commit ${props.publishedAt.slice(0, 7)})` : ""}
        </p>
      ) : null}
    </section>
  );
}

/**
 * What review still holds this draft back, by the rules the server applies: a change to a verified
 * note's substance needs an approval of this revision, and a standing request for changes waits
 * for its reviewer. (A promotion's approval is the status change's own rule, shown there.)
 */
function reviewUnmet(view: NoteView, note: Note): string[] {
  const unmet = openChangeRequests(view.reviews).map(changeRequestMessage);
  const changes = view.onMain ? verifiedChanges(view.onMain, note) : [];
  const missing = changes.length ? missingApprovals(view.noteRevision, view.revisionAuthors, view.reviews, view.requiredApprovals) : [];
  if (missing.length) {
    unmet.push(
      `this changes the ${listOfLabels(changes)} of a verified note: ${missing.join("; ")}. Ask for a review below, or publish the change as a new hypothesis that supersedes ${view.id}`,
    );
  }
  return unmet;
}
