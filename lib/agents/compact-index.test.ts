import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseLlmsTxt } from "@/e2e/support/agents-llms-txt";
import { compactIndexJson, compactIndexMarkdown } from "./compact-index";
import { folderView, viewOf } from "./folder-view";
import { indexEntryMarkdown } from "./index-entry";
import { llmsTxt } from "./llms-txt";
import { INDEX_JSON_PAGE_SIZE, INDEX_PAGE_SIZE } from "@/lib/agents/index-cursor";
import type { IndexDocument } from "./schemas";
import { agentUrls } from "./urls";

/**
 * A large archive's index, as an agent reads it: every page fits one fetch (under the 50,000
 * characters afdocs passes for an llms.txt; most agents truncate at about 100,000), and walking
 * `next` from the first page reaches every note once, in order, in both formats.
 */

const seed = folderView(path.resolve(__dirname, "../../content"), "c0ffee".padEnd(40, "0"));
// 450 notes: the seed's notes (long decisions, every boundary) over and over under new IDs.
const many = Array.from({ length: 450 }, (_, i) => ({
  ...seed.notes[i % seed.notes.length]!,
  id: `AFN-${String(i + 1000).padStart(5, "0")}`,
  core: undefined,
}));
const view = viewOf(many, seed.site, seed.commit);
// A longer origin than most: the page must fit with it too.
const urls = agentUrls("https://decision-notes.engineering.example.org");
// What an agent receives: the JSON routes send it pretty-printed (lib/agents/http.ts).
const served = (doc: object) => `${JSON.stringify(doc, null, 2)}\n`;
const ONE_FETCH = 50_000;

function ok<T>(page: { ok: true; body: T; next: string | null } | { ok: false; error: string }) {
  if (!page.ok) throw new Error(page.error);
  return page;
}

describe("the compact index of a large archive", () => {
  it("/llms.txt lists the first Markdown page, links the paged index for the rest, and fits one fetch", () => {
    const text = llmsTxt(view, urls);
    expect(text.length).toBeLessThanOrEqual(ONE_FETCH);
    const notes = parseLlmsTxt(text).sections.find((s) => s.name === "Notes")!.links;
    expect(notes).toHaveLength(INDEX_PAGE_SIZE + 1);
    expect(notes.at(-1)).toMatchObject({ name: `The other ${many.length - INDEX_PAGE_SIZE} notes`, url: urls.indexPage(many[INDEX_PAGE_SIZE - 1]!.id) });
  });

  it("/agents/index.md: each page fits one fetch, and `next` walks every note once, in order, from where llms.txt stops", () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { body: string; next: string | null } = ok(compactIndexMarkdown(view, urls, cursor));
      expect(page.body.length, `page ${pages + 1}`).toBeLessThanOrEqual(ONE_FETCH);
      const lines = page.body.split("\n").filter((l) => l.startsWith("- [AFN-"));
      expect(lines.length).toBeLessThanOrEqual(INDEX_PAGE_SIZE);
      for (const line of lines) seen.push(/^- \[(AFN-\d+):/.exec(line)![1]!);
      cursor = page.next === null ? null : new URL(page.next).searchParams.get("cursor");
      if (page.next) expect(page.body).toContain(`Next page: ${page.next}`);
      pages++;
    } while (cursor !== null);
    expect(seen).toEqual(many.map((n) => n.id));
    expect(pages).toBe(Math.ceil(many.length / INDEX_PAGE_SIZE));
    // The first page is the very lines llms.txt lists.
    expect(ok(compactIndexMarkdown(view, urls)).body).toContain(
      many
        .slice(0, INDEX_PAGE_SIZE)
        .map((n) => indexEntryMarkdown(n, urls))
        .join("\n"),
    );
  });

  it("/agents/index.json: each page, as served, fits one fetch, and `next` walks every note once, in order", () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { body: IndexDocument; next: string | null } = ok(compactIndexJson(view, urls, {}, cursor));
      expect(served(page.body).length, `page ${pages + 1}`).toBeLessThanOrEqual(ONE_FETCH);
      expect(page.body.entries.length).toBeLessThanOrEqual(INDEX_JSON_PAGE_SIZE);
      expect(page.body.count).toBe(many.length);
      seen.push(...page.body.entries.map((e) => e.id));
      expect(page.body.next ?? null).toBe(page.next);
      cursor = page.next === null ? null : new URL(page.next).searchParams.get("cursor");
      pages++;
    } while (cursor !== null);
    expect(seen).toEqual(many.map((n) => n.id));
    expect(pages).toBe(Math.ceil(many.length / INDEX_JSON_PAGE_SIZE));
  });
});
