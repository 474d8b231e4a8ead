import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseLlmsTxt } from "@/e2e/support/agents-llms-txt";
import { folderView } from "./folder-view";
import { llmsFullTxt, llmsTxt } from "./llms-txt";
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
    for (const rule of ["hypothesis — Proposed, not verified", "structural-only — Hard limit: proves structure only", "pinned-not-supported — Hard limit", "retracted — Withdrawn"]) {
      expect(parsed.info).toContain(rule);
    }
    expect(parsed.info).toContain(view.commit);
  });

  it("links every published note's capsule, with absolute URLs only", () => {
    const links = parsed.sections.flatMap((s) => s.links);
    for (const link of links) expect(link.url, link.name).toMatch(/^https:\/\/notes\.example\.org\//);
    const records = parsed.sections.find((s) => s.name === "Decision records")!;
    expect(records.links.map((l) => l.url)).toEqual(view.notes.map((n) => urls.capsule(n.id, "md")));
    expect(records.links.find((l) => l.name.startsWith("AFN-003"))?.notes).toMatch(/^verified-structural, structural-only\. /);
    const core = parsed.sections.find((s) => s.name === view.site.core_heading)!;
    expect(core.links.map((l) => l.name.slice(0, 7))).toEqual(["AFN-016", "AFN-010", "AFN-003", "AFN-004"]);
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
    const full = llmsFullTxt(view, urls);
    expect(full.startsWith(`# ${view.site.title}\n\n> `)).toBe(true);
    for (const note of view.notes) expect(full).toContain(`\n${note.id}: ${note.title}\n`);
    expect(full).toContain(view.byId.get("AFN-010")!.sections.invariant.split("\n")[0]);
  });
});

describe("/llms.txt phases", () => {
  const open = { phase: { name: "6 architecture", slug: "6-architecture", status: "open" as const, description: "", reopenings: [] }, file: "phases/6-architecture.yaml", notes: view.notes.filter((n) => n.phase === "6 architecture"), delta: ["AFN-016"] };
  const closed = {
    ...open,
    phase: { ...open.phase, name: "5", slug: "5", status: "closed" as const, closed: "2026-12-02", closeout: { kind: "no-delta" as const, by: "ada", at: "2026-12-02", why: "Nothing about the architecture changed in this phase." } },
  };
  const parsed = parseLlmsTxt(llmsTxt(view, urls, [open, closed]));

  it("lists each phase with how it stands, before Optional", () => {
    const names = parsed.sections.map((s) => s.name);
    expect(names.indexOf("Phases")).toBe(names.length - 2);
    const links = parsed.sections.find((s) => s.name === "Phases")!.links;
    expect(links[0]).toMatchObject({ name: "Phase 6 architecture", url: "https://notes.example.org/phases/6-architecture" });
    expect(links[0]?.notes).toMatch(/^open, delta so far AFN-016; 3 notes$/);
    expect(links[1]?.notes).toMatch(/^closed with no new decision delta/);
    expect(links.at(-1)?.url).toBe("https://notes.example.org/agents/phases.json");
  });
});
