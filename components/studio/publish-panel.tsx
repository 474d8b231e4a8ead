"use client";

import Link from "next/link";
import { checkPublish, type Actor } from "@/lib/rules/status-machine";
import type { NoteView } from "@/lib/studio/note-view";
import { buttonClass } from "@/components/ui/button";
import styles from "./studio.module.css";

/** Publish: enabled only when the saved draft may go onto main; otherwise every reason is listed. */
export function PublishPanel(props: { view: NoteView; actor: Actor; blockers: string[]; busy: boolean; publishedAt: string | null; onPublish: () => void }) {
  const { view } = props;
  const unmet = [
    ...(props.actor.role === "author" ? [] : ["only authors publish"]),
    ...(view.source === "published" ? ["nothing to publish: this is the published version; edit and save it to start a draft"] : []),
    ...(view.source === "new" ? ["save the draft first"] : []),
    ...props.blockers,
    ...(view.note && view.source === "draft" ? checkPublish(view.note).unmet : []),
    ...view.errors.map((e) => `line ${e.line}, ${e.field}: ${e.message}`),
    ...view.findings.map((f) => `${f.field} line ${f.line}: ${f.message}`),
  ];
  return (
    <section className={styles.panel} aria-labelledby="publish-heading">
      <h2 id="publish-heading">Publish</h2>
      <p className={styles.hint}>Puts the saved draft onto the public site and the agent formats, as one commit that touches only this note.</p>
      <button
        type="button"
        className={buttonClass("primary")}
        disabled={props.busy || unmet.length > 0}
        aria-describedby={unmet.length ? "unmet-publish" : undefined}
        onClick={props.onPublish}
      >
        Publish
      </button>
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
