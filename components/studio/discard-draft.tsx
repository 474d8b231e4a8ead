"use client";

import { useState } from "react";
import type { NoteView } from "@/lib/studio/note-view";
import { useDiscardDraft } from "@/lib/queries/use-note-mutations";
import { StudioApiError } from "@/lib/queries/fetch";
import { Button } from "@/components/ui/button";
import styles from "./studio.module.css";

/**
 * Discard the draft, after a confirmation that says what happens: a note never published leaves
 * the studio (its id is not used again), a published note keeps its published version. The server
 * keeps the last revision under refs/discarded/, so nothing written is lost to git.
 */
export function DiscardDraft({ view, busy, onDiscarded }: { view: NoteView; busy: boolean; onDiscarded: (published: boolean) => void }) {
  const discard = useDiscardDraft(view.id);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const what = view.published
    ? "The unpublished changes leave the studio; the published version stays as it is."
    : `${view.id} leaves the studio; it was never published, and its id is not given to another note.`;

  const go = async () => {
    setError(null);
    try {
      const result = await discard.mutateAsync({ revision: view.revision });
      onDiscarded(result.published);
    } catch (e) {
      setError(e instanceof StudioApiError ? e.message : "The unpublished version could not be discarded.");
    }
  };

  return (
    <section className={styles.panel} aria-labelledby="discard-heading">
      <h2 id="discard-heading">Discard</h2>
      {confirming ? (
        <div role="group" aria-labelledby="discard-question">
          <p id="discard-question">
            <strong>Discard the unpublished version?</strong> {what} Its revisions stay in the repository’s history.
          </p>
          <p className={styles.buttonRow}>
            <Button variant="danger" disabled={busy || discard.isPending} onClick={go} autoFocus>
              Discard it
            </Button>
            <Button variant="quiet" onClick={() => setConfirming(false)}>
              Keep it
            </Button>
          </p>
        </div>
      ) : (
        <Button variant="secondary" disabled={busy} onClick={() => setConfirming(true)}>
          Discard unpublished version…
        </Button>
      )}
      {error ? (
        <p role="alert" className={styles.unmet}>
          {error}
        </p>
      ) : null}
    </section>
  );
}
