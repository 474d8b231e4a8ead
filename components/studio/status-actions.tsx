"use client";

import { useState } from "react";
import { actionsFrom, checkTransition, type Actor } from "@/lib/rules/status-machine";
import { STATUS_LABEL, type Status } from "@/lib/notes/schema";
import type { NoteView } from "@/lib/studio/note-view";
import { buttonClass } from "@/components/ui/button";
import styles from "./studio.module.css";

/**
 * The status changes open from the note's status, as buttons named by the transition. Each is
 * enabled by the same status machine the server runs; a disabled one lists everything missing.
 * "Supersede…" and "Retract…" ask for what they need first.
 */

type Request = { to: Status; reason?: string; superseded_by?: string };

export function StatusActions(props: { view: NoteView; actor: Actor; blockers: string[]; busy: boolean; onChange: (r: Request) => void }) {
  const { view, actor } = props;
  const [open, setOpen] = useState<Status | null>(null);
  const [reason, setReason] = useState("");
  const [supersededBy, setSupersededBy] = useState("");

  const unmetFor = (to: Status, extra: { reason?: string; superseded_by?: string } = {}) => {
    if (!view.note) return [...props.blockers, "save the note first: a status change applies to a saved revision"];
    const verdict = checkTransition({
      note: extra.superseded_by ? { ...view.note, superseded_by: extra.superseded_by } : view.note,
      to,
      revision: view.noteRevision,
      revisionAuthors: view.revisionAuthors,
      reviews: view.reviews,
      actor,
      reason: extra.reason,
      publishedIds: new Set(view.publishedIds),
      requiredApprovals: view.requiredApprovals,
    });
    return [...props.blockers, ...verdict.unmet];
  };

  const actions = actionsFrom(view.status);
  return (
    <section className={styles.panel} aria-labelledby="status-heading">
      <h2 id="status-heading">Status: {STATUS_LABEL[view.status]}</h2>
      {actions.length === 0 ? <p>No status change is open from {STATUS_LABEL[view.status]}.</p> : null}
      <ul className={styles.actionList}>
        {actions.map(({ to, label }) => {
          const asks = label.endsWith("…");
          // A "…" action opens its form; what the form asks for is not yet missing.
          const unmet = unmetFor(
            to,
            asks ? { reason: "(asked next)", superseded_by: to === "superseded" ? (view.publishedIds.find((i) => i !== view.id) ?? "") : undefined } : {},
          );
          const id = `unmet-${to}`;
          return (
            <li key={to}>
              <button
                id={`action-${to}`}
                type="button"
                disabled={props.busy || unmet.length > 0}
                aria-describedby={unmet.length ? id : undefined}
                aria-expanded={asks ? open === to : undefined}
                onClick={() => (asks ? setOpen(open === to ? null : to) : props.onChange({ to }))}
              >
                {label}
              </button>
              {unmet.length ? (
                <ul id={id} className={styles.unmet}>
                  {unmet.map((u) => (
                    <li key={u}>{inWords(u, props.view.noteRevision)}</li>
                  ))}
                </ul>
              ) : null}
              {asks && open === to ? (
                <AskForm
                  to={to}
                  label={label.replace(/…$/, "")}
                  reason={reason}
                  supersededBy={supersededBy}
                  setReason={setReason}
                  setSupersededBy={setSupersededBy}
                  unmet={unmetFor(to, { reason, superseded_by: supersededBy.trim().toUpperCase() || undefined })}
                  revision={view.noteRevision}
                  busy={props.busy}
                  onClose={() => {
                    // Back to the button that opened the form, before the form goes: a key pressed
                    // right after Esc or Cancel then reaches the button, not the page.
                    document.getElementById(`action-${to}`)?.focus();
                    setOpen(null);
                  }}
                  onConfirm={() => props.onChange({ to, reason: reason.trim() || undefined, superseded_by: supersededBy.trim().toUpperCase() || undefined })}
                />
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function AskForm(props: {
  to: Status;
  label: string;
  reason: string;
  supersededBy: string;
  setReason: (s: string) => void;
  setSupersededBy: (s: string) => void;
  unmet: string[];
  /** The revision open in the editor, for naming it in the reasons. */
  revision: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    // Esc closes the form, as it would a dialog.
    <div
      className={styles.ask}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          props.onClose();
        }
      }}
    >
      {props.to === "superseded" ? (
        <>
          <label htmlFor="ask-superseded-by">Superseded by</label>
          <input id="ask-superseded-by" type="text" placeholder="AFN-023" value={props.supersededBy} onChange={(e) => props.setSupersededBy(e.target.value)} />
        </>
      ) : null}
      <label htmlFor={`ask-reason-${props.to}`}>{props.to === "retracted" ? "Reason (readers will see it)" : "Reason (optional)"}</label>
      <textarea id={`ask-reason-${props.to}`} rows={2} value={props.reason} onChange={(e) => props.setReason(e.target.value)} />
      <div className={styles.actions}>
        <button type="button" className={buttonClass("primary")} disabled={props.busy || props.unmet.length > 0} onClick={props.onConfirm}>
          {props.label}
        </button>
        <button type="button" onClick={props.onClose}>
          Cancel
        </button>
      </div>
      {props.unmet.length ? (
        <ul className={styles.unmet}>
          {props.unmet.map((u) => (
            <li key={u}>{inWords(u, props.revision)}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * A rule's reason as the author reads it: the status machine names revisions by commit id (the
 * server's refusal and content:check say the same); here they are "this version" (the one open in
 * the editor) or "an earlier version".
 */
const inWords = (reason: string, current: string) =>
  reason.replace(/\brevision ([0-9a-f]{7,40})\b/g, (_m, id: string) => (current.startsWith(id) ? "this version" : "an earlier version"));
