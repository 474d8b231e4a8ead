import type { Note } from "@/lib/notes/schema";
import { actorIdOfEmail } from "@/lib/rules/identity";
import { acceptWrite, type ReviewWrite, type ReviewWriteContext } from "@/lib/rules/accept-write";
import type { ReviewWriteRequest } from "@/lib/rules/review-write";
import { deriveReviewState } from "@/lib/review/derive";
import { recordPath, type ReviewRecord } from "@/lib/review/records";
import { readReviewLog } from "@/lib/review/review-log";
import type { ContentStore } from "@/lib/working-copy/content-store";
import { notePath, REVIEWS_PREFIX } from "@/lib/working-copy/layout";

/**
 * Review records as `content:check --all` judges them: every record on refs/reviews/<id>, in the
 * order its log lists them, replayed through the acceptance function as the review write the app
 * would have made, against the review as it stood just before. What git alone cannot say is not
 * judged: who held the reviewer role (accounts live outside the repository), and which revision was
 * current when a verdict was given (a verdict is judged as if on the revision it names). A thread or
 * verdict whose revision is gone from this clone (a published draft's unapproved revisions) is
 * judged on its text only.
 */

type Finding = { file: string; line: number; field: string; message: string; rule: string };

export async function checkReviews(store: ContentStore): Promise<{ checked: number; findings: Finding[] }> {
  const findings: Finding[] = [];
  let checked = 0;
  for (const { ref, oid } of await store.listRefs(REVIEWS_PREFIX)) {
    const id = ref.slice(REVIEWS_PREFIX.length);
    const log = await readReviewLog(store, id, oid);
    for (const message of log.problems) findings.push({ file: `${ref}:records.log`, line: 1, field: "records", message, rule: "schema" });
    const revisions = revisionReader(store, id);
    for (const [i, record] of log.records.entries()) {
      checked++;
      const { threads, verdicts } = deriveReviewState(log.records.slice(0, i), { currentRevision: "", currentNote: null });
      const judged = record.kind === "thread" || record.kind === "verdict" || record.kind === "request";
      const revision = "revision" in record && record.revision && judged ? await revisions(record.revision) : null;
      const context: ReviewWriteContext = {
        id,
        currentRevision: revision?.revision ?? "",
        currentNote: revision?.note ?? null,
        authors: revision?.authors ?? [],
        threads,
        verdicts,
        // Which branch held the revision then is not recorded; a request is judged on its text and reviewers.
        hasDraft: true,
      };
      const write = writeOf(record, revision);
      // Roles live with the accounts, not here: a request is an author's write, everything else a reviewer's at most.
      const role = record.kind === "request" ? "author" : "reviewer";
      const { findings: found } = await acceptWrite({ ...write, actor: { id: record.by.id, name: record.by.name, role }, context } as ReviewWrite);
      const file = `${ref}:${recordPath(record)}`;
      const text = (await store.readFile(oid, recordPath(record))) ?? "";
      for (const f of found) {
        // A revision missing from this clone says nothing about the record; its text is still judged.
        if (!revision?.present && (f.rule === "revision" || f.rule === "reviewable" || f.rule === "anchor")) continue;
        findings.push({ file, line: lineOfKey(text, f.field === "actor" ? "by" : f.field), field: f.field, message: f.message, rule: f.rule });
      }
    }
  }
  return { checked, findings };
}

type AtRevision = { revision: string; present: boolean; note: Note | null; authors: string[] };

/** The note at a revision and who wrote it up to there; `present` false when the commit is not in this repository. */
function revisionReader(store: ContentStore, id: string) {
  const cache = new Map<string, AtRevision>();
  return async (revision: string): Promise<AtRevision> => {
    const known = cache.get(revision);
    if (known) return known;
    let found: AtRevision;
    try {
      const stored = await store.readNote(id, revision);
      const history = await store.history(notePath(id), revision);
      found = { revision, present: true, note: stored?.ok ? stored.note : null, authors: [...new Set(history.map((r) => actorIdOfEmail(r.author.email)))] };
    } catch {
      found = { revision, present: false, note: null, authors: [] };
    }
    cache.set(revision, found);
    return found;
  };
}

/** The write the app made for a record. */
function writeOf(record: ReviewRecord, at: AtRevision | null): ReviewWriteRequest {
  switch (record.kind) {
    case "thread": {
      return { kind: "thread", at: at?.note ?? null, after: { section: record.section, ...(record.quote ? { quote: record.quote } : {}), revision: record.revision, text: record.text } };
    }
    case "reply":
      return { kind: "reply", after: { thread: record.thread, text: record.text } };
    case "edit":
      return { kind: "comment-edit", after: { thread: record.thread, comment: record.comment, text: record.text } };
    case "resolve":
    case "reopen":
      return { kind: record.kind === "resolve" ? "thread-resolve" : "thread-reopen", after: { thread: record.thread } };
    case "verdict":
      return { kind: "verdict", after: { revision: record.revision, verdict: record.verdict, ...(record.summary ? { summary: record.summary } : {}) } };
    case "withdraw":
      return { kind: "verdict-withdraw", after: { verdict: record.verdict } };
    case "request":
      // The accounts are not in the content repository: the named reviewers are taken as reviewers.
      return {
        kind: "review-request",
        after: { revision: record.revision, reviewers: record.reviewers.map((r) => ({ ...r, role: "reviewer" as const })), ...(record.text ? { text: record.text } : {}) },
      };
  }
}

function lineOfKey(text: string, key: string): number {
  const i = text.split("\n").findIndex((l) => l.trimStart().startsWith(`"${key}":`));
  return i < 0 ? 1 : i + 1;
}
