import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";
import { acceptWrite } from "./accept-write";
import type { ReviewWriteContext } from "./review-write";

/** Review writes judged by the acceptance function alone: the rules threads and verdicts follow, without a repository. */

const note: Note = (() => {
  const parsed = parseNote(fs.readFileSync(path.resolve(__dirname, "../../content/notes/AFN-016.md"), "utf8"));
  if (!parsed.ok) throw new Error("AFN-016");
  return parsed.note;
})();
const current = "c".repeat(40);
const earlier = "e".repeat(40);
const ada = { id: "ada", name: "Ada", role: "author" } as const;
const rita = { id: "rita", name: "Rita", role: "reviewer" } as const;
const context = (over: Partial<ReviewWriteContext> = {}): ReviewWriteContext => ({
  id: "AFN-016",
  currentRevision: current,
  currentNote: note,
  authors: ["ada"],
  threads: [
    { id: "0123456789ab", section: "evidence", resolved: false, comments: [{ id: "0123456789ab", by: { id: "rita", name: "Rita" }, text: "Which backends?" }] },
  ],
  ...over,
});
const rules = (findings: { rule: string; field: string }[]) => findings.map((f) => `${f.rule}:${f.field}`);

describe("verdicts", () => {
  it("are accepted from a reviewer who wrote none of the note, on the current revision", async () => {
    const v = await acceptWrite({ kind: "verdict", actor: rita, after: { revision: current, verdict: "approve" }, context: context() });
    expect(v).toEqual({ allowed: true, findings: [] });
  });

  it("refuse an author of the note approving it, on an earlier revision, with every reason at once", async () => {
    const v = await acceptWrite({
      kind: "verdict",
      actor: { ...rita, id: "ada", name: "Ada" },
      after: { revision: earlier, verdict: "approve" },
      context: context(),
    });
    expect(v.allowed).toBe(false);
    expect(rules(v.findings)).toEqual(["self-review:actor", "revision:revision"]);
    expect(v.findings[0]?.message).toMatch(/^Ada wrote a revision of AFN-016, so cannot give a verdict on it/);
    expect(v.findings[1]?.message).toMatch(/^AFN-016 is now at revision ccccccc, not eeeeeee/);
  });

  it("are for reviewers only, and need a revision to judge", async () => {
    const v = await acceptWrite({
      kind: "verdict",
      actor: { ...ada, id: "bea", name: "Bea" },
      after: { revision: current, verdict: "request-changes" },
      context: context({ currentNote: null }),
    });
    expect(rules(v.findings)).toEqual(["role:actor", "reviewable:revision"]);
  });
});

describe("threads and comments", () => {
  it("start on a passage of a saved revision, by an author or a reviewer", async () => {
    for (const actor of [ada, rita]) {
      const v = await acceptWrite({
        kind: "thread",
        actor,
        at: note,
        after: { section: "rejectedShortcut", quote: "masked-out entries", revision: earlier, text: "Is this measured?" },
        context: context(),
      });
      expect(v.findings).toEqual([]);
    }
  });

  it("refuse a revision that is not the note's, and a quote that is not in the section", async () => {
    const unknown = await acceptWrite({
      kind: "thread",
      actor: rita,
      at: null,
      after: { section: "evidence", revision: earlier, text: "?" },
      context: context(),
    });
    expect(rules(unknown.findings)).toEqual(["revision:revision"]);
    const misquoted = await acceptWrite({
      kind: "thread",
      actor: rita,
      at: note,
      after: { section: "evidence", quote: "words nobody wrote", revision: current, text: "?" },
      context: context(),
    });
    expect(rules(misquoted.findings)).toEqual(["anchor:quote"]);
  });

  it("hold comment text to the archive policy, naming the line within it", async () => {
    const v = await acceptWrite({
      kind: "reply",
      actor: ada,
      after: { thread: "0123456789ab", text: "The trace is at\n/home/ada/runs/trace.json" },
      context: context(),
    });
    expect(v.findings).toEqual([expect.objectContaining({ rule: "archive-policy", field: "text", line: 2, policy: "local-path" })]);
  });

  it("let only the writer edit a comment, and only to new text", async () => {
    const edit = (actor: typeof ada | typeof rita, text: string, comment = "0123456789ab") =>
      acceptWrite({ kind: "comment-edit", actor, after: { thread: "0123456789ab", comment, text }, context: context() });
    expect(rules((await edit(ada, "Fine as is.")).findings)).toEqual(["comment:by"]);
    expect((await edit(ada, "Fine as is.")).findings[0]?.message).toBe("only Rita edits this comment; reply instead");
    expect(rules((await edit(rita, "Which backends?")).findings)).toEqual(["comment:text"]);
    expect(rules((await edit(rita, "Which two backends?", "ba9876543210")).findings)).toEqual(["comment:comment"]);
    expect((await edit(rita, "Which two backends?")).allowed).toBe(true);
  });

  it("resolve an open thread once, reopen a resolved one once, and know no other thread", async () => {
    const on = (kind: "thread-resolve" | "thread-reopen", thread = "0123456789ab", resolved = false) =>
      acceptWrite({
        kind,
        actor: ada,
        after: { thread },
        context: context({ threads: context().threads.map((t) => ({ ...t, resolved })) }),
      });
    expect((await on("thread-resolve")).allowed).toBe(true);
    expect((await on("thread-resolve", "0123456789ab", true)).findings).toEqual([
      { rule: "thread", field: "resolved", message: "the thread on Evidence is already resolved" },
    ]);
    expect((await on("thread-reopen")).findings).toEqual([{ rule: "thread", field: "resolved", message: "the thread on Evidence is already open" }]);
    expect(rules((await on("thread-resolve", "ffffffffffff")).findings)).toEqual(["thread:thread"]);
  });
});
