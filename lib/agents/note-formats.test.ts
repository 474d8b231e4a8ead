import path from "node:path";
import YAML from "yaml";
import { describe, expect, it } from "vitest";
import { parseNote } from "@/lib/notes/markdown";
import { folderView } from "./folder-view";
import { noteJson, noteMarkdown, noteText, READ_ONLY_KEYS } from "./note-formats";
import { schemaValidator } from "./schema-validator";
import { jsonSchemaOf } from "./schemas";
import { agentUrls } from "./urls";

const view = folderView(path.resolve(__dirname, "../../content"), "c0ffee".padEnd(40, "0"));
const urls = agentUrls("https://notes.example.org");

function frontMatter(md: string): Record<string, unknown> {
  const end = md.indexOf("\n---\n", 3);
  return YAML.parse(md.slice(4, end)) as Record<string, unknown>;
}

describe("the Markdown of a note", () => {
  it("is the note file, with the commit, flags and limit meanings added to its front matter", () => {
    for (const note of view.notes) {
      const md = noteMarkdown(note, view, undefined, {});
      const front = frontMatter(md);
      expect(front.commit, note.id).toBe(view.commit);
      expect(front.flags).toEqual({
        hypothesis: note.status === "hypothesis",
        structural_only: note.boundaries.includes("structural-only"),
        pinned_not_supported: note.boundaries.includes("pinned-not-supported"),
      });
      // Without the read-only keys it is a note file that parses back to the same note.
      const stripped = YAML.stringify(Object.fromEntries(Object.entries(front).filter(([k]) => !(READ_ONLY_KEYS as readonly string[]).includes(k))));
      const reparsed = parseNote(`---\n${stripped}${md.slice(md.indexOf("\n---\n", 3) + 1)}`);
      expect(reparsed.ok && reparsed.note, note.id).toEqual(note);
    }
  });

  it("states the meaning of a boundary where it applies", () => {
    const front = frontMatter(noteMarkdown(view.byId.get("AFN-013")!, view, undefined, {}));
    expect(front.limits).toEqual([{ flag: "pinned-not-supported", meaning: expect.stringMatching(/pinned reference only/) }]);
    expect(front.status_meaning).toMatch(/Verified at a named checkpoint/);
  });
});

describe("the LLM text of a note", () => {
  it("is plain prose: no front matter, no heading hashes, no emphasis or link syntax", () => {
    for (const note of view.notes) {
      const text = noteText(note, view, urls, {});
      expect(text, note.id).not.toMatch(/^---$|^#{1,6} |\*\*|\]\(|`/m);
      expect(text.startsWith(`${note.id}: ${note.title}\n`)).toBe(true);
      expect(text).toContain(`\nDecision\n`);
      expect(text).toContain(`(commit ${view.commit})`);
    }
  });

  it("names status, boundaries and flags with their meaning", () => {
    const text = noteText(view.byId.get("AFN-002")!, view, urls, {});
    expect(text).toMatch(/^Status: verified-structural\. A verified structural decision/m);
    expect(text).toMatch(/^Boundary: structural-only\. Hard limit: proves structure only/m);
    expect(text).toContain("Flags: hypothesis no, structural-only yes, pinned-not-supported no.");
    expect(noteText(view.byId.get("AFN-019")!, view, urls, {})).toMatch(/^Status: hypothesis\. Proposed, not verified/m);
  });
});

describe("the JSON of a note", () => {
  it("validates against the published note schema for every note", () => {
    const check = schemaValidator(jsonSchemaOf("note", urls.schema("note")));
    for (const note of view.notes) expect(check(noteJson(note, view, urls, {})), note.id).toEqual([]);
  });

  it("holds the note's own fields, the flags, backlinks and every format's URL", () => {
    const doc = noteJson(view.byId.get("AFN-016")!, view, urls, {});
    expect(doc.sections.decision).toBe(view.byId.get("AFN-016")!.sections.decision);
    expect(doc.flags).toEqual({ hypothesis: false, structural_only: false, pinned_not_supported: false });
    expect(doc.backlinks).toEqual(expect.arrayContaining(["AFN-011"]));
    expect(doc.urls).toEqual({
      html: "https://notes.example.org/notes/AFN-016",
      md: "https://notes.example.org/notes/AFN-016.md",
      txt: "https://notes.example.org/notes/AFN-016.txt",
      json: "https://notes.example.org/notes/AFN-016.json",
      capsule_md: "https://notes.example.org/agents/capsules/AFN-016.md",
      capsule_json: "https://notes.example.org/agents/capsules/AFN-016.json",
    });
  });
});
