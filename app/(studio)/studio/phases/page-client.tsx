"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useMutation } from "@tanstack/react-query";
import { z } from "zod";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import studio from "@/components/studio/studio.module.css";
import styles from "@/components/studio/phases.module.css";
import { phaseTitle } from "@/lib/phases/schema";
import { studioFetch, StudioApiError } from "@/lib/queries/fetch";
import type { StudioPhase } from "@/lib/studio/phases";

/**
 * The phases in their order, each with its state and one action (Close… for an open phase,
 * Reopen… for a closed one) beside Rename…; each action opens its form under the phase. The API
 * runs the rules again on every write; the page is read again from the server after one.
 */
export default function PhasesPageClient({ phases, canChange }: { phases: StudioPhase[]; canChange: boolean }) {
  return (
    <>
      <h1>Phases</h1>
      <p className={styles.intro}>
        A verified phase closes with a decision delta: a note of the phase that became verified while it was open, or an explicit record that there is no new
        decision (AFN-015). A rename changes the name people see; the phase&apos;s address and the name its notes carry stay.
      </p>
      <ol className={styles.list} aria-label="Phases in their order">
        {phases.map((p) => (
          <li key={p.phase.slug}>
            <PhaseItem item={p} canChange={canChange} />
          </li>
        ))}
      </ol>
      {canChange && <NewPhase />}
    </>
  );
}

type Action = { kind: "close"; noDeltaWhy?: string } | { kind: "reopen"; reason: string } | { kind: "rename"; name: string };
type Panel = "change" | "rename" | null;

function usePhaseWrite(slug: string, done: () => void) {
  const router = useRouter();
  // The answer is not read (z.unknown()): the page is refreshed from the server after the write.
  return useMutation({
    mutationFn: (action: Action) =>
      studioFetch(`/api/studio/phases/${encodeURIComponent(slug)}/${action.kind}`, z.unknown(), {
        method: "POST",
        body: action.kind === "close" ? { noDeltaWhy: action.noDeltaWhy } : action.kind === "reopen" ? { reason: action.reason } : { name: action.name },
      }),
    onSuccess: () => {
      done();
      router.refresh();
    },
  });
}

function PhaseItem({ item, canChange }: { item: StudioPhase; canChange: boolean }) {
  const { phase, notes, delta } = item;
  const title = phaseTitle(phase);
  const headingId = `phase-${phase.slug}`;
  const [panel, setPanel] = useState<Panel>(null);
  const changeButton = useRef<HTMLButtonElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const close = (focusTrigger: boolean) => {
    const was = panel;
    setPanel(null);
    if (focusTrigger && was) (was === "change" ? changeButton : renameButton).current?.focus();
  };
  const write = usePhaseWrite(phase.slug, () => close(true));
  const open = phase.status === "open";
  const panelId = `phase-${phase.slug}-panel`;
  const toggle = (which: Exclude<Panel, null>) => {
    write.reset();
    setPanel((now) => (now === which ? null : which));
  };

  return (
    <section aria-labelledby={headingId} data-phase={phase.slug} className={styles.phase}>
      <div className={styles.row}>
        <div className={styles.what}>
          <h2 id={headingId} className={styles.name}>
            <Link href={`/phases/${phase.slug}`}>Phase {title}</Link>
          </h2>
          <p className={styles.state}>
            <Badge>{phase.status}</Badge>
            <span>
              {notes.length} {notes.length === 1 ? "note" : "notes"}
            </span>
            {open ? <span>Decision delta: {delta.length ? delta.join(", ") : "none yet"}</span> : null}
            {phase.title ? <span>Notes name it “{phase.name}”</span> : null}
          </p>
          {!open && (
            <p className={styles.closeout} data-testid="studio-closeout">
              Closed {phase.closed}
              {phase.closeout?.kind === "delta"
                ? ` with decision delta ${phase.closeout.notes.join(", ")}`
                : ` with no new decision delta: ${phase.closeout?.why ?? ""}`}
            </p>
          )}
        </div>
        {canChange && (
          <div className={styles.actions}>
            <Button ref={changeButton} size="small" aria-expanded={panel === "change"} aria-controls={panelId} onClick={() => toggle("change")}>
              {open ? "Close…" : "Reopen…"}
              <span className="visually-hidden"> phase {title}</span>
            </Button>
            <Button ref={renameButton} size="small" variant="quiet" aria-expanded={panel === "rename"} aria-controls={panelId} onClick={() => toggle("rename")}>
              Rename…<span className="visually-hidden"> phase {title}</span>
            </Button>
          </div>
        )}
      </div>
      {panel && (
        <PanelFrame
          id={panelId}
          label={panel === "rename" ? `Rename phase ${title}` : `${open ? "Close" : "Reopen"} phase ${title}`}
          onCancel={() => close(true)}
        >
          {panel === "rename" ? (
            <RenameForm item={item} pending={write.isPending} onSubmit={(name) => write.mutate({ kind: "rename", name })} />
          ) : open ? (
            <CloseForm
              item={item}
              pending={write.isPending}
              onSubmit={(noDeltaWhy) => write.mutate({ kind: "close", ...(noDeltaWhy ? { noDeltaWhy } : {}) })}
            />
          ) : (
            <ReopenForm pending={write.isPending} onSubmit={(reason) => write.mutate({ kind: "reopen", reason })} />
          )}
          <WriteError error={write.error} />
        </PanelFrame>
      )}
    </section>
  );
}

/** The open action's form: focus moves into it, Escape or Cancel closes it and returns focus to the button. */
function PanelFrame({ id, label, onCancel, children }: { id: string; label: string; onCancel: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>("input, textarea, button:not([disabled])")?.focus();
  }, []);
  return (
    <div
      id={id}
      ref={ref}
      role="group"
      aria-label={label}
      className={styles.panel}
      onKeyDown={(e) => {
        if (e.key === "Escape") onCancel();
      }}
    >
      {children}
      <Button size="small" variant="quiet" onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}

function CloseForm({ item, pending, onSubmit }: { item: StudioPhase; pending: boolean; onSubmit: (noDeltaWhy?: string) => void }) {
  const { phase, closeUnmet } = item;
  const [why, setWhy] = useState("");
  const whyId = `phase-${phase.slug}-why`;
  return (
    <>
      <p>
        <Button variant="primary" size="small" disabled={closeUnmet.length > 0 || pending} onClick={() => onSubmit()}>
          Close phase with its delta
        </Button>
      </p>
      {closeUnmet.length > 0 && (
        <ul aria-label={`Why Phase ${phaseTitle(phase)} cannot close with a delta`} className={studio.hint}>
          {closeUnmet.map((u) => (
            <li key={u}>{u}</li>
          ))}
        </ul>
      )}
      <form
        className={studio.field}
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit(why);
        }}
      >
        <label htmlFor={whyId}>No new decision delta: why (the record is published with the phase)</label>
        <textarea id={whyId} value={why} onChange={(e) => setWhy(e.target.value)} rows={3} />
        <p>
          <Button type="submit" size="small" disabled={pending || why.trim() === ""}>
            Close phase with a no-delta record
          </Button>
        </p>
      </form>
    </>
  );
}

function ReopenForm({ pending, onSubmit }: { pending: boolean; onSubmit: (reason: string) => void }) {
  const [reason, setReason] = useState("");
  return (
    <form
      className={studio.field}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(reason);
      }}
    >
      <label>
        Reason to reopen
        <input type="text" value={reason} maxLength={600} onChange={(e) => setReason(e.target.value)} />
      </label>
      <p>
        <Button type="submit" variant="primary" size="small" disabled={pending || reason.trim() === ""}>
          Reopen phase
        </Button>
      </p>
    </form>
  );
}

function RenameForm({ item, pending, onSubmit }: { item: StudioPhase; pending: boolean; onSubmit: (name: string) => void }) {
  const { phase } = item;
  const [name, setName] = useState(phaseTitle(phase));
  const hintId = `phase-${phase.slug}-rename-hint`;
  return (
    <form
      className={studio.field}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(name);
      }}
    >
      <label>
        New name
        <input type="text" value={name} maxLength={120} required aria-describedby={hintId} onChange={(e) => setName(e.target.value)} />
      </label>
      <p id={hintId} className={studio.hint}>
        Its address (/phases/{phase.slug}) and the name its notes carry (“{phase.name}”) stay.
      </p>
      <p>
        <Button type="submit" variant="primary" size="small" disabled={pending || name.trim() === ""}>
          Rename phase
        </Button>
      </p>
    </form>
  );
}

function WriteError({ error }: { error: unknown }) {
  if (!error) return null;
  const body = error instanceof StudioApiError ? error.body?.error : null;
  const lines = [...(body?.unmet ?? []), ...(body?.where ?? []).map((w) => w.message)];
  return (
    <div role="alert" className={studio.error}>
      <p>{body?.message ?? (error as Error).message}</p>
      {lines.length > 0 && (
        <ul>
          {lines.map((u) => (
            <li key={u}>{u}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A new open phase, once at the end: its name (the address is the name's URL form, kept for good) and a description. */
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
    <section aria-labelledby="new-phase" className={styles.create}>
      <h2 id="new-phase">New phase</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          mutation.mutate();
        }}
      >
        <p className={studio.field}>
          <label htmlFor="new-phase-name">Name</label>
          <input type="text" id="new-phase-name" value={name} maxLength={120} required onChange={(e) => setName(e.target.value)} />
        </p>
        <p className={studio.field}>
          <label htmlFor="new-phase-description">Description</label>
          <input type="text" id="new-phase-description" value={description} maxLength={2000} onChange={(e) => setDescription(e.target.value)} />
        </p>
        <Button type="submit" variant="primary" disabled={mutation.isPending}>
          Create phase
        </Button>
      </form>
      {error && (
        <div role="alert" className={studio.error}>
          <p>{error.where?.[0]?.message ?? error.message}</p>
        </div>
      )}
    </section>
  );
}
