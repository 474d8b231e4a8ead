import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";
import { phaseSchema, type Phase } from "@/lib/phases/schema";
import { writesOfRange, type LastChange, type RangeChange } from "./main-range";

/** What a range of main means, as the writes the studio would have announced: a table. */

const seed = (id: string): Note => {
  const parsed = parseNote(fs.readFileSync(path.resolve(`content/notes/${id}.md`), "utf8"));
  if (!parsed.ok) throw new Error(`${id} does not parse`);
  return parsed.note;
};
const hypothesis = seed("AFN-021");
const at = (position: number, commit = `${position}`.repeat(40).slice(0, 40)): LastChange => ({
  commit,
  position,
  actor: { id: "a@example.org", name: "Agent" },
});
const phase = (status: "open" | "closed"): Phase =>
  phaseSchema.parse({
    name: "0–3",
    slug: "0-3",
    status,
    description: "d",
    ...(status === "closed"
      ? { closed: "2026-12-01", closeout: { kind: "no-delta", by: "ada", at: "2026-12-01", why: "Nothing was decided in this phase at all." } }
      : {}),
  });

const cases: { name: string; changes: RangeChange[]; writes: unknown[] }[] = [
  {
    name: "a note new to main is published, first time",
    changes: [{ kind: "note", before: null, after: hypothesis, last: at(0) }],
    writes: [{ kind: "publish", before: null, note: { id: "AFN-021" }, commit: at(0).commit, actor: { name: "Agent" } }],
  },
  {
    name: "a retraction is a status change, with its reason",
    changes: [{ kind: "note", before: hypothesis, after: { ...hypothesis, status: "retracted", retraction_reason: "Wrong." }, last: at(0) }],
    writes: [{ kind: "status-change", before: { status: "hypothesis" }, after: { status: "retracted" }, reason: "Wrong.", published: true }],
  },
  {
    name: "a supersession is a status change",
    changes: [{ kind: "note", before: hypothesis, after: { ...hypothesis, status: "superseded", superseded_by: "AFN-019" }, last: at(0) }],
    writes: [{ kind: "status-change", after: { status: "superseded", superseded_by: "AFN-019" } }],
  },
  {
    name: "an edit that keeps the status is a new version published",
    changes: [{ kind: "note", before: hypothesis, after: { ...hypothesis, title: "Edited" }, last: at(0) }],
    writes: [{ kind: "publish", before: { title: hypothesis.title }, note: { title: "Edited" } }],
  },
  {
    name: "a phase closed is phase.closed; a phase opened or reopened is nothing",
    changes: [
      { kind: "phase", before: phase("open"), after: phase("closed"), last: at(1) },
      { kind: "phase", before: null, after: phase("open"), last: at(2) },
      { kind: "phase", before: phase("closed"), after: phase("open"), last: at(3) },
    ],
    writes: [{ kind: "phase-close", phase: { slug: "0-3", status: "closed" }, commit: at(1).commit }],
  },
  {
    name: "oldest commit first, then by note id",
    changes: [
      { kind: "note", before: null, after: { ...hypothesis, id: "AFN-031" }, last: at(2) },
      { kind: "note", before: null, after: { ...hypothesis, id: "AFN-030" }, last: at(1) },
      { kind: "note", before: null, after: { ...hypothesis, id: "AFN-029" }, last: at(2) },
    ],
    writes: [{ note: { id: "AFN-030" } }, { note: { id: "AFN-029" } }, { note: { id: "AFN-031" } }],
  },
];

describe("writesOfRange", () => {
  for (const c of cases) it(c.name, () => expect(writesOfRange(c.changes)).toMatchObject(c.writes));
});
