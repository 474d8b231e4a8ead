import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseLlmsTxt } from "@/e2e/support/agents-llms-txt";
import { folderView } from "./folder-view";
import { buildCapsule, capsuleMarkdown } from "./capsule";
import { llmsFullTxt, llmsTxt } from "./llms-txt";
import { withLlmsPointer } from "./page-twins";
import { INDEX_PAGE_SIZE } from "@/lib/agents/index-cursor";
import { tokens } from "./tokens";
import { agentUrls } from "./urls";

const view = folderView(path.resolve(__dirname, "../../content"), "c0ffee".padEnd(40, "0"));
const urls = agentUrls("https://notes.example.org");

describe("/llms.txt", () => {
  const parsed = parseLlmsTxt(llmsTxt(view, urls));

  it("follows the llmstxt.org grammar: H1, one-line summary, prose, link sections, Optional last", () => {
    expect(parsed.title).toBe(view.site.title);
    expect(parsed.summary).toMatch(/^Reusable decisions from the open-source Hebrus inference engine/);
    expect(parsed.sections.at(-1)?.name).toBe("Optional");
    expect(parsed.sections.every((s) => s.links.length > 0)).toBe(true);
  });

  it("carries the status rules in its prose", () => {
    expect(parsed.info).toContain(view.site.agents.retrieval);
    for (const rule of [
      "hypothesis: Proposed, not verified",
      "structural-only: Hard limit: proves structure only",
      "pinned-not-supported: Hard limit",
      "retracted: Withdrawn",
    ]) {
      expect(parsed.info).toContain(rule);
    }
    expect(parsed.info).toContain(view.commit);
  });

  it("links every published note's capsule, one index line each, with absolute URLs only", () => {
    const links = parsed.sections.flatMap((s) => s.links);
    for (const link of links) expect(link.url, link.name).toMatch(/^https:\/\/notes\.example\.org\//);
    const notes = parsed.sections.find((s) => s.name === "Notes")!;
    expect(notes.links.map((l) => l.url)).toEqual(view.notes.map((n) => urls.capsule(n.id, "md")));
    expect(notes.links.find((l) => l.name.startsWith("AFN-003"))?.notes).toMatch(/^verified-structural, structural-only; core 3\. /);
    // The guide, search and MCP once each; the full texts under Optional.
    const forAgents = parsed.sections.find((s) => s.name === "For agents")!.links.map((l) => l.url);
    expect(forAgents).toEqual([urls.guide, `${urls.base}/search.md?q=transactional+state`, `${urls.guide}#mcp`, `${urls.guide}#changes`]);
    expect(links.filter((l) => l.url === urls.guide)).toHaveLength(1);
    const optional = parsed.sections.find((s) => s.name === "Optional")!.links.map((l) => l.url);
    expect(optional).toEqual(expect.arrayContaining([urls.llmsFull, urls.pagesTxt]));
  });

  it("with one capsule, costs an agent at most 2,500 tokens; each note line at most 60", () => {
    const text = llmsTxt(view, urls);
    const largest = Math.max(...view.notes.map((n) => tokens(withLlmsPointer(capsuleMarkdown(buildCapsule(n, view, urls)), urls))));
    expect(tokens(text) + largest).toBeLessThanOrEqual(2500);
    for (const line of text.split("\n").filter((l) => l.startsWith("- [AFN-"))) expect(tokens(line), line).toBeLessThanOrEqual(60);
  });

  it("a large archive lists one page and links the paged index for the rest", () => {
    const many = Array.from({ length: INDEX_PAGE_SIZE + 7 }, (_, i) => ({ ...view.notes[0]!, id: `AFN-${String(i + 1000).padStart(4, "0")}` }));
    const big = parseLlmsTxt(llmsTxt({ ...view, notes: many }, urls));
    const lines = big.sections.find((s) => s.name === "Notes")!.links;
    expect(lines).toHaveLength(INDEX_PAGE_SIZE + 1);
    expect(lines.at(-1)).toMatchObject({ name: "The other 7 notes", url: urls.indexPage(many[INDEX_PAGE_SIZE - 1]!.id) });
  });

  it("the parser refuses what the grammar forbids (so passing means something)", () => {
    expect(() => parseLlmsTxt("Title without hash\n")).toThrow(/H1/);
    expect(() => parseLlmsTxt("# T\n\n> s\n\n## A\n\nsome prose\n")).toThrow(/only '- \[name\]\(url\)/);
    expect(() => parseLlmsTxt("# T\n\n## Optional\n\n- [a](https://x.org)\n\n## B\n\n- [b](https://x.org)\n")).toThrow(/last/);
    expect(() => parseLlmsTxt("# T\n\n### deep\n")).toThrow(/heading/);
  });
});

describe("/llms-full.txt", () => {
  it("has the same header and every published note in full, as plain text", () => {
    const full = llmsFullTxt(view, urls, {});
    expect(full.startsWith(`# ${view.site.title}\n\n> `)).toBe(true);
    for (const note of view.notes) expect(full).toContain(`\n${note.id}: ${note.title}\n`);
    expect(full).toContain(view.byId.get("AFN-010")!.sections.invariant.split("\n")[0]);
    // It says what follows is the notes' text: no lines of links follow, as in llms.txt.
    expect(full).not.toContain("Each line below links");
    expect(full).toContain("Below is every published note's full text");
  });
});

describe("/llms.txt phases", () => {
  const open = {
    phase: { name: "6 architecture", slug: "6-architecture", status: "open" as const, description: "", reopenings: [] },
    file: "phases/6-architecture.yaml",
    notes: view.notes.filter((n) => n.phase === "6 architecture"),
    delta: ["AFN-016"],
  };
  const closed = {
    ...open,
    phase: {
      ...open.phase,
      name: "5",
      slug: "5",
      status: "closed" as const,
      closed: "2026-12-02",
      closeout: { kind: "no-delta" as const, by: "ada", at: "2026-12-02", why: "Nothing about the architecture changed in this phase." },
    },
  };
  const parsed = parseLlmsTxt(llmsTxt(view, urls, [open, closed]));

  it("lists each phase with how it stands, before Optional", () => {
    const names = parsed.sections.map((s) => s.name);
    expect(names.indexOf("Phases")).toBe(names.length - 2);
    const links = parsed.sections.find((s) => s.name === "Phases")!.links;
    expect(links[0]).toMatchObject({ name: "Phase 6 architecture", url: "https://notes.example.org/phases/6-architecture.md" });
    expect(links[0]?.notes).toMatch(/^open, delta so far AFN-016; 3 notes$/);
    expect(links[1]?.notes).toMatch(/^closed, no new decision delta/);
  });
});
