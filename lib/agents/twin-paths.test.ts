import path from "node:path";
import { describe, expect, it } from "vitest";
import { folderView } from "./folder-view";
import { guideTwin, homeTwin, llmsPointer, tagTwin } from "./page-twins";
import { indexPage, type IndexPage } from "@/lib/agents/index-cursor";
import { pageOf, pageOfTwinPath, pageOfTwinRoute, twinUrlOf } from "./twin-paths";
import { tagPage } from "@/lib/public/pages";
import { agentUrls } from "./urls";

const view = folderView(path.resolve(__dirname, "../../content"), "c0ffee".padEnd(40, "0"));
const urls = agentUrls("https://notes.example.org");

describe("where each public page's Markdown twin is", () => {
  it("maps every kind of public page to its twin and back", () => {
    const pairs: [string, string, string][] = [
      ["/", "", "/index.md"],
      ["/", "?status=hypothesis", "/index.md?status=hypothesis"],
      ["/agents/", "", "/agents.md"],
      ["/search", "?q=sparse", "/search.md?q=sparse"],
      ["/tags/sparse-attention", "", "/tags/sparse-attention.md"],
      ["/phases/6-architecture", "", "/phases/6-architecture.md"],
      ["/notes/AFN-016/history", "", "/notes/AFN-016/history.md"],
      ["/notes/AFN-016", "", "/notes/AFN-016.md"],
    ];
    for (const [html, query, twin] of pairs) {
      expect(twinUrlOf(html, query), html).toBe(twin);
      expect(pageOfTwinPath(twin.split("?")[0]!), twin).toEqual(pageOf(html));
    }
  });

  it("reads the page back from the twin route's params, which Next gives decoded once", () => {
    expect(pageOfTwinRoute(["index.md"])).toEqual({ kind: "home" });
    expect(pageOfTwinRoute(["agents.md"])).toEqual({ kind: "guide" });
    expect(pageOfTwinRoute(["notes", "AFN-016", "history.md"])).toEqual({ kind: "history", id: "AFN-016" });
    // Encoded again, as the page's URL wrote it: lib/public/pages.ts decodes a segment itself.
    expect(pageOfTwinRoute(["tags", "café au lait.md"])).toEqual({ kind: "tag", tag: "caf%C3%A9%20au%20lait" });
    expect(pageOfTwinRoute(["tags", "a/b.md"])).toEqual({ kind: "tag", tag: "a%2Fb" });
    for (const segments of [[], ["studio.md"], ["agents", "index.md"], ["tags", "x"]]) expect(pageOfTwinRoute(segments), segments.join("/")).toBeNull();
  });

  it("has no twin for the studio, the API, agent formats or a malformed path", () => {
    for (const p of ["/studio", "/studio/notes/AFN-001", "/api/notes", "/agents", "/agents/index.json", "/notes/afn-016", "/tags/a/b"])
      expect(twinUrlOf(p, ""), p).toBeNull();
    for (const p of ["/.md", "/agents/.md", "/studio.md", "/api/notes.md", "/notes/AFN-016.md.md"]) expect(pageOfTwinPath(p), p).toBeNull();
  });
});

describe("the twins' content", () => {
  it("open with the /llms.txt pointer and carry the page's own text", () => {
    const home = homeTwin(view, urls, {}, {});
    expect(home.split("\n")[0]).toBe(llmsPointer(urls));
    expect(llmsPointer(urls)).toContain("https://notes.example.org/llms.txt");
    expect(home).toContain(`# ${view.site.title}`);
    for (const n of view.notes) expect(home).toContain(`[${n.title.replace(/([[\]])/g, "\\$1")}](https://notes.example.org/notes/${n.id}.md)`);
    expect(home).toContain("## Start with the architecture");
  });

  it("list what the HTML page lists: a status filter's notes, a tag's notes", () => {
    const hypotheses = homeTwin(view, urls, { status: "hypothesis" }, {});
    expect(hypotheses).toContain("# Status: hypothesis");
    expect(hypotheses.match(/^- \*\*AFN-\d{3}\*\*/gm)).toEqual(["- **AFN-021**", "- **AFN-019**"]);
    expect(homeTwin(view, urls, { status: "nonsense" }, {})).toContain("# No such status");
    const tag = tagPage(view, "sparse-attention")!;
    const twin = tagTwin(view, urls, tag, {});
    expect(twin.match(/^- \*\*AFN-\d{3}\*\*/gm)).toHaveLength(tag.notes.length);
    expect(tag.notes.length).toBeGreaterThan(1);
  });

  it("apply status, tag and phase together, and the order asked for, as the HTML page does", () => {
    const listed = (md: string) => md.match(/^- \*\*(AFN-\d{3})\*\*/gm)?.map((l) => l.slice(4, 11)) ?? [];
    const three = homeTwin(view, urls, { status: "verified-checkpoint", tag: "sparse-attention", phase: "6-architecture" }, {});
    expect(three).toMatch(/^# Status: verified checkpoint · Phase 6 architecture · Tag: sparse attention$/m);
    expect(three).toContain(`3 of ${view.notes.length} notes.`);
    expect(listed(three).sort()).toEqual(["AFN-016", "AFN-017", "AFN-018"]);
    // A tag alone, sorted by id from the last: the HTML's sort keys and directions.
    const tag = homeTwin(view, urls, { tag: "Sparse Attention", sort: "id", dir: "desc" }, {});
    expect(listed(tag)).toEqual(["AFN-018", "AFN-017", "AFN-016", "AFN-011"]);
    // Grouped by phase, phases in the reader's order; what is not understood is said, not ignored.
    const grouped = homeTwin(view, urls, { tag: "sparse-attention", group: "phase", view: "grid" }, {});
    expect(grouped.match(/^### Phase .+$/gm)).toEqual(["### Phase 5", "### Phase 6 architecture"]);
    expect(grouped).toMatch(/Not understood, so left out: “grid” is not a view/);
    expect(homeTwin(view, urls, { status: "hypothesis", phase: "no-such-phase" }, {})).toMatch(/^0 of \d+ notes\./m);
  });

  it("show a renamed phase by its title in the filter's heading, the group headings and each note, and link it by its name", () => {
    const titles = { "6 architecture": "Six: the architecture" };
    const filtered = homeTwin(view, urls, { phase: "6-architecture", group: "phase" }, titles);
    expect(filtered).toMatch(/^# Phase Six: the architecture$/m);
    expect(filtered.match(/^### Phase .+$/gm)).toEqual(["### Phase Six: the architecture"]);
    expect(filtered).toMatch(/ Phase Six: the architecture\.( Tags:|$)/m);
    expect(filtered).not.toMatch(/Phase 6 architecture/);
    const tag = tagTwin(view, urls, tagPage(view, "sparse-attention")!, titles);
    expect(tag).toContain(" Phase Six: the architecture.");
    expect(tag).toContain(" Phase 5.");
  });

  it("the guide's twin names the MCP additions and every hard limit", () => {
    const guide = guideTwin(view, urls, { entry: 60, capsule: 350 }, ["search_notes", "list_notes", "get_capsule", "get_note"], {
      author: ["create_draft"],
      reviewer: [],
    });
    expect(guide).toContain("# Retrieval for agents and their operators");
    // Each limit as the guide's page shows it: the badge's label, then the flag as the data writes it.
    for (const [label, flag] of [
      ["hypothesis", "hypothesis"],
      ["structural-only", "structural-only"],
      ["pinned, not supported", "pinned-not-supported"],
    ])
      expect(guide).toContain(`- **${label}** \`${flag}\`: `);
    expect(guide).toContain("retrieval_protocol");
  });
});

describe("pages of the compact index", () => {
  const notes = Array.from({ length: 12 }, (_, i) => ({ id: `AFN-${String(i + 1).padStart(3, "0")}` }));

  it("walk every note once, in order, each page naming the next by its last note", () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let guard = 0; guard < 10; guard++) {
      const page: IndexPage<{ id: string }> = indexPage(notes, cursor, 5);
      if (!page.ok) throw new Error(page.error);
      seen.push(...page.notes.map((n) => n.id));
      if (!page.next) break;
      cursor = page.next;
    }
    expect(seen).toEqual(notes.map((n) => n.id));
  });

  it("one page for an archive that fits, and a clear refusal for a cursor that names no note", () => {
    expect(indexPage(notes, null, 500)).toEqual({ ok: true, notes, next: null });
    const bad = indexPage(notes, "AFN-999", 5);
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/AFN-999.*no published note/);
  });
});
