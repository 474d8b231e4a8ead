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
  const measured = view.notes.map((n) => ({ id: n.id, tokens: tokens(indexEntryMarkdown(n, urls)), note: n }));

  it("cover every published note once, newest first", () => {
    expect(measured.map((m) => m.id)).toEqual(view.notes.map((n) => n.id));
    expect(measured).toHaveLength(21);
  });

  it(`each stay within ${ENTRY_BUDGET} tokens, with a decision that still says something`, () => {
    for (const { id, tokens: t, note } of measured) {
      expect(t, id).toBeLessThanOrEqual(ENTRY_BUDGET);
      expect(tokens(oneLineDecision(note, urls)), id).toBeGreaterThanOrEqual(DECISION_FLOOR);
    }
  });

  it("are one llmstxt.org link line: ID and title linking the capsule, status and boundaries, core rank, decision", () => {
    const afn003 = indexEntryMarkdown(view.byId.get("AFN-003")!, urls);
    expect(afn003).toMatch(
      /^- \[AFN-003: 320 million embedding rows without a 320 million-entry index\]\(https:\/\/notes\.example\.org\/agents\/capsules\/AFN-003\.md\): /,
    );
    expect(afn003).toContain("): verified-structural, structural-only; core 3. Store the 320 million PLE embedding rows");
    expect(afn003).not.toContain("\n");
    expect(indexEntryMarkdown(view.byId.get("AFN-021")!, urls)).toContain("): hypothesis. ");
  });

  it("keep a short decision whole", () => {
    expect(oneLineDecision(view.byId.get("AFN-010")!, urls)).toBe("Make the whole inference chunk one transaction.");
  });
});

describe("the compact index documents", () => {
  const ok = <T>(page: { ok: true; body: T } | { ok: false; error: string }): T => {
    if (!page.ok) throw new Error(page.error);
    return page.body;
  };

  it("Markdown says the URL patterns, hard limits and statuses once, then lists every note as /llms.txt does", () => {
    const md = ok(compactIndexMarkdown(view, urls));
    expect(md).toContain(`from commit ${view.commit} on main`);
    expect(md).toContain("https://notes.example.org/agents/capsules/{id}.md");
    expect(md).toContain("https://notes.example.org/notes/{id}.md");
    for (const flag of ["hypothesis", "structural-only", "pinned-not-supported"]) expect(md).toMatch(new RegExp(`^- ${flag}: .+`, "m"));
    expect(md).not.toMatch(/^- draft:/m);
    const lines = md.split("\n").filter((l) => /^- \[AFN-\d{3}: /.test(l));
    expect(lines).toEqual(view.notes.map((n) => indexEntryMarkdown(n, urls)));
    expect(md).not.toContain("Next page");
  });

  it("JSON validates against the published schema and flags the hard limits", () => {
    const doc = ok(compactIndexJson(view, urls));
    expect(schemaValidator(jsonSchemaOf("index", urls.schema("index")))(doc)).toEqual([]);
    const entry = schemaValidator(jsonSchemaOf("index-entry", urls.schema("index-entry")));
    for (const e of doc.entries) expect(entry(e), e.id).toEqual([]);
    const byId = new Map(doc.entries.map((e) => [e.id, e]));
    expect(byId.get("AFN-021")?.flags).toEqual({ hypothesis: true, structural_only: false, pinned_not_supported: false });
    expect(byId.get("AFN-013")?.flags.pinned_not_supported).toBe(true);
    expect(byId.get("AFN-003")?.limits.map((l) => l.flag)).toEqual(["structural-only"]);
    expect(byId.get("AFN-016")?.urls.capsule_md).toBe("https://notes.example.org/agents/capsules/AFN-016.md");
    expect(byId.get("AFN-016")?.core_rank).toBe(1);
    // One page holds the whole seed: no cursor, no next.
    expect(doc).not.toHaveProperty("next");
  });

  it("a schema rejects a document that breaks it (the check can fail)", () => {
    const doc = ok(compactIndexJson(view, urls));
    const broken = { ...doc, entries: [{ ...doc.entries[0], status: "draft" }] };
    expect(schemaValidator(jsonSchemaOf("index", urls.schema("index")))(broken).join()).toMatch(/status/);
  });
});
