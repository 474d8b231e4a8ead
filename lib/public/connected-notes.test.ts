import { describe, expect, it } from "vitest";
import type { Note } from "@/lib/notes/schema";
import { connectedNotes, REFERENCES_SHOWN } from "./connected-notes";

const note = (id: string, related: string[] = []) => ({ id, related, title: `Title of ${id}` }) as unknown as Note;

function viewOf(notes: Note[], backlinks: Record<string, string[]>) {
  return { byId: new Map(notes.map((n) => [n.id, n])), backlinks: new Map(Object.entries(backlinks)) };
}

describe("connectedNotes", () => {
  it("lists a related note that refers back once, under Related notes, and the others under Referenced by", () => {
    const target = note("AFN-001", ["AFN-002", "AFN-009"]);
    const notes = [target, note("AFN-002", ["AFN-001"]), note("AFN-003", ["AFN-001"])];
    const c = connectedNotes(viewOf(notes, { "AFN-001": ["AFN-002", "AFN-003"] }), target);
    // AFN-009 is not published: it is not listed.
    expect(c.related.map((n) => n.id)).toEqual(["AFN-002"]);
    expect(c.referencedBy.map((n) => n.id)).toEqual(["AFN-003"]);
    expect(c.mutual).toBe(1);
    expect(c.moreReferences).toBe(0);
  });

  it(`lists at most ${REFERENCES_SHOWN} notes under Referenced by and counts the rest`, () => {
    const target = note("AFN-001");
    const citing = Array.from({ length: 4_000 }, (_, i) => note(`AFN-${String(i + 2).padStart(5, "0")}`, ["AFN-001"]));
    const c = connectedNotes(viewOf([target, ...citing], { "AFN-001": citing.map((n) => n.id) }), target);
    expect(c.referencedBy).toHaveLength(REFERENCES_SHOWN);
    expect(c.referencedBy[0]!.id).toBe("AFN-00002");
    expect(c.moreReferences).toBe(4_000 - REFERENCES_SHOWN);
    expect(c.linkingHere.size).toBe(4_000);
  });
});
