"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { z } from "zod";
import { studioFetch, StudioApiError } from "@/lib/queries/fetch";
import type { StudioPhase } from "@/lib/studio/phases";

/** The phase list; closing and reopening post to the API, which runs the closeout rule again. */
export default function PhasesPageClient({ phases, canChange }: { phases: StudioPhase[]; canChange: boolean }) {
  return (
    <>
      <h1>Phases</h1>
      <p>
        A verified phase closes with a decision delta: a note of the phase that became verified while it was open, or an explicit record that there is no new
        decision (AFN-015).
      </p>
      {phases.map((p) => (
        <PhaseItem key={p.phase.slug} item={p} canChange={canChange} />
      ))}
      {canChange && <NewPhase />}
    </>
  );
}

/** A new open phase: its name (the address is the name's URL form, kept for good) and a description. */
function NewPhase() {
  const router = useRouter();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  // The answer is not read (z.unknown()): the page is refreshed from the server after the write.
  const mutation = useMutation({
    mutationFn: () => studioFetch("/api/studio/phases", z.unknown(), { method: "POST", body: { name, ...(description.trim() ? { description } : {}) } }),
    onSuccess: () => {
      setName("");
      setDescription("");
      router.refresh();
    },
  });
  const error =
    mutation.error instanceof StudioApiError ? mutation.error.body?.error : mutation.error ? { message: mutation.error.message, where: undefined } : null;
  return (
    <section aria-labelledby="new-phase" style={{ borderTop: "1px solid var(--rule)", padding: "0.8rem 0" }}>
      <h2 id="new-phase">New phase</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          mutation.mutate();
        }}
      >
        <p>
          <label htmlFor="new-phase-name">Name</label>{" "}
          <input id="new-phase-name" value={name} maxLength={120} required onChange={(e) => setName(e.target.value)} />
        </p>
        <p>
          <label htmlFor="new-phase-description">Description</label>{" "}
          <input id="new-phase-description" value={description} maxLength={2000} onChange={(e) => setDescription(e.target.value)} />
        </p>
        <button type="submit" disabled={mutation.isPending}>
          Create phase
        </button>
      </form>
      {error && (
        <div role="alert">
          <p>{error.where?.[0]?.message ?? error.message}</p>
        </div>
      )}
    </section>
  );
}

function PhaseItem({ item, canChange }: { item: StudioPhase; canChange: boolean }) {
  const router = useRouter();
  const { phase, notes, delta, closeUnmet } = item;
  const [why, setWhy] = useState("");
  const [reason, setReason] = useState("");
  const headingId = `phase-${phase.slug}`;
  // The answer is not read (z.unknown()): the page is refreshed from the server after the write.
  const mutation = useMutation({
    mutationFn: (action: { kind: "close"; noDeltaWhy?: string } | { kind: "reopen"; reason: string }) =>
      studioFetch(`/api/studio/phases/${encodeURIComponent(phase.slug)}/${action.kind}`, z.unknown(), {
        method: "POST",
        body: action.kind === "close" ? { noDeltaWhy: action.noDeltaWhy } : { reason: action.reason },
      }),
    onSuccess: () => router.refresh(),
  });
  const error =
    mutation.error instanceof StudioApiError ? mutation.error.body?.error : mutation.error ? { message: mutation.error.message, unmet: undefined } : null;

  return (
    <section aria-labelledby={headingId} data-phase={phase.slug} style={{ borderTop: "1px solid var(--rule)", padding: "0.8rem 0" }}>
      <h2 id={headingId}>
        Phase {phase.name} <small>({phase.status})</small>
      </h2>
      <p>
        Notes: {notes.length ? notes.map((n) => `${n.id} (${n.status})`).join(", ") : "none published"}. <Link href={`/phases/${phase.slug}`}>Public page</Link>
      </p>
      {phase.status === "open" ? (
        <>
          <p>Decision delta: {delta.length ? delta.join(", ") : "none yet"}.</p>
          {canChange && (
            <>
              <button type="button" disabled={closeUnmet.length > 0 || mutation.isPending} onClick={() => mutation.mutate({ kind: "close" })}>
                Close phase with its delta
              </button>
              {closeUnmet.length > 0 && (
                <ul aria-label={`Why Phase ${phase.name} cannot close with a delta`}>
                  {closeUnmet.map((u) => (
                    <li key={u}>{u}</li>
                  ))}
                </ul>
              )}
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  mutation.mutate({ kind: "close", noDeltaWhy: why });
                }}
              >
                <label>
                  No new decision delta: why (the record is published with the phase)
                  <textarea value={why} onChange={(e) => setWhy(e.target.value)} rows={3} style={{ display: "block", width: "100%" }} />
                </label>
                <button type="submit" disabled={mutation.isPending || why.trim() === ""}>
                  Close phase with a no-delta record
                </button>
              </form>
            </>
          )}
        </>
      ) : (
        <>
          <p data-testid="studio-closeout">
            Closed {phase.closed}
            {phase.closeout?.kind === "delta"
              ? ` with decision delta ${phase.closeout.notes.join(", ")}`
              : ` with no new decision delta: ${phase.closeout?.why ?? ""}`}
          </p>
          {canChange && (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                mutation.mutate({ kind: "reopen", reason });
              }}
            >
              <label>
                Reason to reopen
                <input value={reason} onChange={(e) => setReason(e.target.value)} style={{ display: "block", width: "100%" }} />
              </label>
              <button type="submit" disabled={mutation.isPending || reason.trim() === ""}>
                Reopen phase
              </button>
            </form>
          )}
        </>
      )}
      {error && (
        <div role="alert">
          <p>{error.message}</p>
          {error.unmet && (
            <ul>
              {error.unmet.map((u) => (
                <li key={u}>{u}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
