import fc from "fast-check";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseNote } from "@/lib/notes/markdown";
import { benchNote } from "@/scripts/bench-notes";
import { compactIndexJson, compactIndexMarkdown } from "./compact-index";
import { folderView } from "./folder-view";
import { DECISION_FLOOR, ENTRY_BUDGET, indexEntryMarkdown, leadingSentence, oneLineDecision } from "./index-entry";
import { markdownToLine } from "@/lib/render/plain-text";
import { schemaValidator } from "./schema-validator";
import { jsonSchemaOf } from "./schemas";
import { firstSentence, tokens } from "./tokens";
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
    const doc = ok(compactIndexJson(view, urls, {}));
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
    const doc = ok(compactIndexJson(view, urls, {}));
    const broken = { ...doc, entries: [{ ...doc.entries[0], status: "draft" }] };
    expect(schemaValidator(jsonSchemaOf("index", urls.schema("index")))(broken).join()).toMatch(/status/);
  });
});

describe("the decision's first sentence", () => {
  // Pieces of Decision sections: plain words and sentence ends, abbreviations, quotes and digits
  // after a stop, blank lines, and everything that could be markup or a GFM autolink.
  const piece = fc.constantFrom(
    "Keep the cache per commit",
    "we use a worker",
    " ",
    "  ",
    ". ",
    ".",
    "! ",
    "? ",
    ".\n",
    "\n",
    "\n\n",
    "\n \n",
    "\t",
    "e.g. ",
    "vs. ",
    "No. 5 ",
    '"Quoted" ',
    "(Aside) ",
    "2026 ",
    "Ünïcode ",
    "- item ",
    "\n- item",
    "1. one",
    "* star",
    "**bold** ",
    "`code` ",
    "[link](https://example.org) ",
    "[ref][r]\n\n[r]: https://example.org",
    "www.example.org ",
    "https://example.org ",
    "a@b.example ",
    "<b>html</b> ",
    "&amp; ",
    "# Heading\n",
    "===\n",
    "---\n",
    "    indented code\n",
    "> quote\n",
    "a | b\n--|--\n",
    "~~gone~~ ",
    "line  \nbreak ",
    "back\\slash ",
    "\r\n",
    "\r",
  );
  it("is the same read from the first plain paragraph as from the whole section converted", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const decision = pieces.join("");
        expect(leadingSentence(decision, "The summary.")).toBe(firstSentence(markdownToLine(decision) || "The summary."));
      }),
      { numRuns: 3000 },
    );
  });

  it("is the same for every seed note and thousands of generated ones", () => {
    const generated = Array.from({ length: 2000 }, (_, i) => {
      const parsed = parseNote(benchNote(21 + i, `Generated note ${21 + i}.`));
      if (!parsed.ok) throw new Error("a generated note did not parse");
      return parsed.note;
    });
    for (const note of [...view.notes, ...generated]) {
      expect(leadingSentence(note.sections.decision, note.summary)).toBe(firstSentence(markdownToLine(note.sections.decision) || note.summary));
    }
  });
});
