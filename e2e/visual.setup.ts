import fs from "node:fs";
import path from "node:path";
import { expect, test as setup } from "@playwright/test";
import { AUTHOR, ensureAccounts, newToken, REVIEWER, signIn } from "./support/studio";
import { api, DRAFT_TITLE, notesFile, PROPOSED_TITLE, storageState, type VisualNotes } from "./support/visual";

/**
 * What the visual snapshots show in the studio, written once before any of them through the API, as
 * a user would through the editor: a draft with every field (the editor's snapshot), and a note
 * proposed as hypothesis with one open review thread (the review page and the inbox). Then both
 * people sign in once and their sessions are kept for the snapshots.
 */

setup("the studio's accounts, a draft and a note under review", async ({ page, request }) => {
  setup.setTimeout(120_000);
  ensureAccounts();
  const author = newToken(AUTHOR.name);
  const reviewer = newToken(REVIEWER.name);

  const note = (title: string, summary: string, sections: Record<string, string>) => ({
    title,
    summary,
    phase: "6 architecture",
    tags: ["decode", "expert offload"],
    related: ["AFN-016"],
    boundaries: [],
    core: null,
    sections: { notes: "", ...sections },
  });

  // A rewritten Decision of the verified AFN-016, saved but not publishable without a review: the editor shows why.
  // Saved first, so the studio list's drafts (newest first, ties by id) read the same in every run.
  const verified = await api(request, author, "GET", "/api/studio/notes/AFN-016");
  await api(request, author, "PUT", "/api/studio/notes/AFN-016", {
    revision: verified.revision,
    note: { ...verified.fields, sections: { ...verified.fields.sections, decision: "Use the dense kernel and mask the scores afterwards." } },
  });

  const draft = await api(request, author, "POST", "/api/studio/notes", {});
  await api(request, author, "PUT", `/api/studio/notes/${draft.id}`, {
    revision: draft.revision,
    note: note(DRAFT_TITLE, "Overlap the SSD read of block n+1 with the decode of block n, so the GPU never waits on a cold expert.", {
      decision: "Issue the read for the **next** expert block as soon as the router has chosen it, before the current block's matmuls start.",
      invariant: "A block is decoded only from bytes whose checksum matched the manifest.",
      rejectedShortcut: "Reading every expert of the layer up front: it doubles peak memory on a 24 GB card.",
      evidence: "- the overlap trace of 200 decode steps\n- `test_prefetch_checksum` fails when a block is read before its manifest entry",
      claimBoundary: "Says nothing about prefill, where every expert is read anyway.",
    }),
  });

  const proposed = await api(request, author, "POST", "/api/studio/notes", {});
  const saved = await api(request, author, "PUT", `/api/studio/notes/${proposed.id}`, {
    revision: proposed.revision,
    note: note(PROPOSED_TITLE, "The router's chosen experts stay in GPU memory between steps; only their ids cross to the host.", {
      decision: "Keep the top-k indices on the GPU and copy only the 8 expert ids per token to the host.",
      invariant: "The host never reads router logits.",
      rejectedShortcut: "Copying the full logits to the host each step to pick experts there.",
      evidence: "- a decode trace with one 64-byte copy per token\n- the router test that compares GPU and host top-k",
      claimBoundary: "Says nothing about batch sizes above 1.",
    }),
  });
  const hypothesis = await api(request, author, "POST", `/api/studio/notes/${proposed.id}/transitions`, { to: "hypothesis", revision: saved.revision });
  await api(request, reviewer, "POST", `/api/studio/notes/${proposed.id}/threads`, {
    section: "evidence",
    quote: "one 64-byte copy per token",
    revision: hypothesis.revision,
    text: "Which trace is this? Please name the run so a reader can find it.",
  });

  // The author asks the reviewer by name: the inbox shows it under "Requested from you".
  await api(request, author, "POST", `/api/studio/notes/${proposed.id}/review-requests`, {
    revision: hypothesis.noteRevision,
    reviewers: [REVIEWER.name],
    text: "Please check the trace before it is published.",
  });

  fs.mkdirSync(path.dirname(notesFile()), { recursive: true });
  fs.writeFileSync(notesFile(), JSON.stringify({ draft: draft.id, proposed: proposed.id } satisfies VisualNotes));

  // Sessions for the snapshots, so each does not sign in again.
  await signIn(page, AUTHOR);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.context().storageState({ path: storageState("author") });
  await page.context().clearCookies();
  await signIn(page, REVIEWER, "/studio/reviews");
  await page.context().storageState({ path: storageState("reviewer") });
});
