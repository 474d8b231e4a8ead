import path from "node:path";
import { describe, expect, it } from "vitest";
import { compactIndexJson, compactIndexMarkdown } from "./compact-index";
import { folderView } from "./folder-view";
import { DECISION_FLOOR, ENTRY_BUDGET, indexEntryMarkdown, oneLineDecision } from "./index-entry";
import { schemaValidator } from "./schema-validator";
import { jsonSchemaOf } from "./schemas";
import { tokens } from "./tokens";
import { agentUrls } from "./urls";

const view = folderView(path.resolve(__dirname, "../../content"), "c0ffee".padEnd(40, "0"));
const urls = agentUrls("https://notes.example.org");

describe("compact index entries of the archive's notes", () => {
  const measured = view.notes.map((n) => ({ id: n.id, tokens: tokens(indexEntryMarkdown(n)), note: n }));

  it("cover every published note once, newest first", () => {
    expect(measured.map((m) => m.id)).toEqual(view.notes.map((n) => n.id));
    expect(measured).toHaveLength(21);
  });

  it(`stay within ${ENTRY_BUDGET} tokens unless title, phase and tags alone fill the budget`, () => {
    for (const { id, tokens: t, note } of measured) {
      if (t <= ENTRY_BUDGET) continue;
      // Over budget only with the decision clipped to its floor: then nothing else could give.
      expect(tokens(oneLineDecision(note)), id).toBeLessThanOrEqual(DECISION_FLOOR + 1);
    }
    const mean = measured.reduce((s, m) => s + m.tokens, 0) / measured.length;
    expect(mean).toBeLessThanOrEqual(ENTRY_BUDGET + 5);
    expect(Math.max(...measured.map((m) => m.tokens))).toBeLessThanOrEqual(ENTRY_BUDGET + 25);
  });

  it("carry the status, boundaries, phase, tags, core rank and a decision from the note itself", () => {
    const afn003 = indexEntryMarkdown(view.byId.get("AFN-003")!);
    expect(afn003).toContain("AFN-003 320 million embedding rows without a 320 million-entry index");
    expect(afn003).toContain("verified-structural, structural-only");
    expect(afn003).toContain("core 3");
    expect(afn003).toContain("fixed-page storage");
    expect(afn003).toMatch(/Decision: Store the 320 million PLE embedding rows/);
    expect(indexEntryMarkdown(view.byId.get("AFN-021")!)).toContain("— hypothesis ·");
  });

  it("keep a short decision whole", () => {
    expect(oneLineDecision(view.byId.get("AFN-010")!)).toBe("Make the whole inference chunk one transaction.");
  });
});

describe("the compact index documents", () => {
  it("Markdown says the URL patterns, hard limits and statuses once, then lists every note", () => {
    const md = compactIndexMarkdown(view, urls);
    expect(md).toContain(`from commit ${view.commit} on main`);
    expect(md).toContain("https://notes.example.org/agents/capsules/{id}.md");
    expect(md).toContain("https://notes.example.org/notes/{id}.md");
    for (const flag of ["hypothesis", "structural-only", "pinned-not-supported"]) expect(md).toMatch(new RegExp(`^- ${flag}: .+`, "m"));
    expect(md).not.toMatch(/^- draft:/m);
    expect(md.match(/^- AFN-\d{3} /gm)).toHaveLength(21);
  });

  it("JSON validates against the published schema and flags the hard limits", () => {
    const doc = compactIndexJson(view, urls);
    expect(schemaValidator(jsonSchemaOf("index", urls.schema("index")))(doc)).toEqual([]);
    const entry = schemaValidator(jsonSchemaOf("index-entry", urls.schema("index-entry")));
    for (const e of doc.entries) expect(entry(e), e.id).toEqual([]);
    const byId = new Map(doc.entries.map((e) => [e.id, e]));
    expect(byId.get("AFN-021")?.flags).toEqual({ hypothesis: true, structural_only: false, pinned_not_supported: false });
    expect(byId.get("AFN-013")?.flags.pinned_not_supported).toBe(true);
    expect(byId.get("AFN-003")?.limits.map((l) => l.flag)).toEqual(["structural-only"]);
    expect(byId.get("AFN-016")?.urls.capsule_md).toBe("https://notes.example.org/agents/capsules/AFN-016.md");
    expect(byId.get("AFN-016")?.core_rank).toBe(1);
  });

  it("a schema rejects a document that breaks it (the check can fail)", () => {
    const doc = compactIndexJson(view, urls);
    const broken = { ...doc, entries: [{ ...doc.entries[0], status: "draft" }] };
    expect(schemaValidator(jsonSchemaOf("index", urls.schema("index")))(broken).join()).toMatch(/status/);
  });
});
