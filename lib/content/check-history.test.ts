import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseNote, serializeNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";
import { ensureContentRepo } from "@/lib/store";
import { git, tempDir } from "@/lib/store/testing";
import { checkRepository } from "./check";

/**
 * content:check over a long history costs what its commits changed, not commits × notes (an
 * imported archive is 1,000 commits over 200 notes): each note blob is parsed once, and a note a
 * commit did not change is judged again only when something it is judged on changed. Counted, not
 * timed. The findings stay those of judging every note at every commit: a problem a note carries
 * is reported at every commit that holds it.
 */

const CONTENT = path.resolve(__dirname, "../../content");
const COMMITS = 60;

let bare: string;
let seed: string;

function noteIn(work: string, id: string): Note {
  const r = parseNote(fs.readFileSync(path.join(work, "notes", `${id}.md`), "utf8"));
  if (!r.ok) throw new Error(id);
  return r.note;
}

beforeAll(async () => {
  bare = path.join(tempDir("check-history"), "content.git");
  await ensureContentRepo(bare, CONTENT);
  seed = git(bare, "rev-parse", "main");
  const work = tempDir("check-history-work");
  git(work, "clone", "--quiet", bare, ".");
  const ids = fs
    .readdirSync(path.join(work, "notes"))
    .map((f) => f.replace(/\.md$/, ""))
    .filter((id) => id !== "AFN-017");
  // The first commit leaves a local path in AFN-017, which every later commit still holds.
  const leaky = noteIn(work, "AFN-017");
  fs.writeFileSync(path.join(work, "notes", "AFN-017.md"), serializeNote({ ...leaky, sections: { ...leaky.sections, notes: `${leaky.sections.notes}\n\nRuns in /home/andrea/runs.` } }));
  git(work, "commit", "--quiet", "-am", "Note where the runs are");
  // Then one note's tags per commit, by the same plain-git author: nothing else a note is judged on moves.
  for (let k = 1; k < COMMITS; k++) {
    const id = ids[k % ids.length]!;
    const note = noteIn(work, id);
    fs.writeFileSync(path.join(work, "notes", `${id}.md`), serializeNote({ ...note, tags: [...note.tags.filter((t) => !t.startsWith("round-")), `round-${k}`] }));
    git(work, "commit", "--quiet", "-am", `Tag ${id}, round ${k}`);
  }
  git(work, "push", "--quiet", "origin", "HEAD:refs/heads/main");
}, 60_000);

describe("content:check over a long history", () => {
  it("parses each note blob once and judges again only what changed, reporting a standing problem at every commit", async () => {
    const { checked, findings, work } = await checkRepository(bare, { ref: "main", since: seed });
    expect(checked).toBe(COMMITS);
    const commits = git(bare, "rev-list", `${seed}..main`).split("\n");
    const blobs = new Set(commits.flatMap((c) => git(bare, "ls-tree", c, "notes/").split("\n").map((line) => line.split(/\s+/)[2])));
    expect(work?.notesParsed).toBe(blobs.size);
    // Judging every note of every commit would be COMMITS × 21 notes = 1,260 judgements.
    const notes = git(bare, "ls-tree", "--name-only", "main", "notes/").split("\n").length;
    expect(work?.notesJudged).toBeLessThanOrEqual(notes + 2 * COMMITS);
    expect(work?.judgementsReused).toBeGreaterThanOrEqual(COMMITS * notes - notes - 2 * COMMITS);
    // The local path is found at each of the 60 commits, as it is without the memo.
    const leak = findings.filter((f) => f.rule === "archive-policy/local-path");
    expect(leak.map((f) => f.commit).sort()).toEqual([...commits].sort());
    expect(new Set(leak.map((f) => `${f.file}:${f.line}`))).toEqual(new Set([leak[0] && `${leak[0].file}:${leak[0].line}`]));
    // And AFN-017 is verified: its first commit changes it without a review (said once, where it changed).
    expect(findings.filter((f) => f.rule !== "archive-policy/local-path").map((f) => [f.rule, f.commit])).toEqual([["verified-change", commits.at(-1)]]);
  }, 60_000);
});
