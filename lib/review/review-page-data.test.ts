import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StudioActor } from "@/lib/rules/identity";
import { createNote } from "@/lib/studio/create-note";
import { readNote } from "@/lib/studio/read-note";
import { saveDraft } from "@/lib/studio/save-draft";
import { studioFixture } from "@/lib/testing/studio";
import type { NoteFields } from "@/lib/validations/note";
import { compareForReview, versionDate } from "./review-page-data";

/**
 * What the review page compares a note with, on a real content repository: a never-published note
 * against its previous revision (or the reviewer's last verdict), never against "nothing"; a note
 * with a single revision against nothing at all, said once; an edited published note against what
 * readers see today.
 */

let fixture: Awaited<ReturnType<typeof studioFixture>>;
const ada: StudioActor = { id: "ada", name: "ada", role: "author", via: "token" };

beforeAll(async () => {
  fixture = await studioFixture();
});
afterAll(() => fixture.cleanup());

const fields = (decision: string): NoteFields => ({
  title: "Admission control fails closed",
  summary: "A request that cannot be placed is refused.",
  phase: "6 architecture",
  tags: ["admission"],
  related: [],
  boundaries: [],
  affects: [],
  core: null,
  sections: {
    decision,
    invariant: "Queue depth never exceeds the bound.",
    rejectedShortcut: "",
    evidence: "",
    claimBoundary: "Says nothing about latency.",
    notes: "",
  },
});

async function compare(id: string, opts?: { against?: string; lastReviewed?: string }) {
  const view = await readNote(ada, id);
  return compareForReview(view, view.note!, opts);
}

describe("the review page's comparison", () => {
  let id: string;
  let first: string;
  let second: string;

  it("has nothing to compare a note's only revision with, and says so instead of marking every field new", async () => {
    const created = await createNote(ada, {});
    id = created.id;
    const saved = await saveDraft(ada, id, { revision: created.revision, note: fields("Refuse at admission.") });
    first = saved.view.noteRevision;
    const c = await compare(id);
    expect(c.base).toBeNull();
    expect(c.diffs).toEqual([]);
    expect(c.choices.map((x) => x.label).join()).not.toMatch(/nothing/);
  });

  it("compares a never-published note with its previous revision, marking only what changed", async () => {
    const view = await readNote(ada, id);
    const saved = await saveDraft(ada, id, { revision: view.revision, note: fields("Refuse at admission, always.") });
    second = saved.view.noteRevision;
    const c = await compare(id);
    expect(c.base).toBe(first);
    expect(c.baseLabel).toMatch(/^the version of \d{1,2} [A-Z][a-z]{2}, \d\d:\d\d by ada$/);
    expect(c.diffs.map((d) => d.field)).toEqual(["decision"]);
    expect(c.diffs[0]!.parts).toEqual([
      { kind: "same", text: "Refuse at admission" },
      { kind: "added", text: ", always" },
      { kind: "same", text: "." },
    ]);
  });

  it("prefers the revision the reviewer last gave a verdict on, and any earlier revision on request", async () => {
    const view = await readNote(ada, id);
    await saveDraft(ada, id, { revision: view.revision, note: fields("Refuse at admission, always, with a reason.") });
    const sinceVerdict = await compare(id, { lastReviewed: first });
    expect(sinceVerdict.base).toBe(first);
    expect(sinceVerdict.baseLabel).toMatch(/\(your last verdict\)$/);
    expect((await compare(id)).base).toBe(second);
    expect((await compare(id, { against: first })).base).toBe(first);
    // An unknown choice falls back to the default rather than failing the page.
    expect((await compare(id, { against: "0".repeat(40) })).base).toBe(second);
  });

  it("compares an edited published note with its published version", async () => {
    const published = await readNote(ada, "AFN-007");
    const decision = published.fields.sections.decision.replace("Two findings show why", "Three audits prove why");
    await saveDraft(ada, "AFN-007", { revision: published.revision, note: { ...published.fields, sections: { ...published.fields.sections, decision } } });
    const c = await compare("AFN-007", { lastReviewed: first });
    expect(c.base).toBe("published");
    expect(c.baseLabel).toBe("the published version");
    expect(c.diffs.map((d) => d.field)).toEqual(["decision"]);
    const marked = (kind: string) => c.diffs[0]!.parts.filter((p) => p.kind === kind).map((p) => p.text.trim());
    expect(marked("added").join(" ")).toBe("Three audits prove");
    expect(marked("removed").join(" ")).toBe("Two findings show");
  });

  it("names a version by its day and time in UTC", () => {
    expect(versionDate("2026-12-03T07:38:12Z")).toBe("3 Dec, 07:38");
  });
});
