import { pinnedNoteUrl, tagUrl } from "@/lib/web/urls";

/**
 * Where each agent format lives. One place builds every URL, so the index, capsules, llms.txt,
 * the guide and the MCP tools cannot disagree about a path. `base` is the site's origin for
 * absolute URLs, or "" for root-relative links inside a document that names its origin once.
 */

export const NOTE_FORMATS = ["md", "txt", "json"] as const;
export type NoteFormat = (typeof NOTE_FORMATS)[number];

export const CAPSULE_FORMATS = ["md", "json"] as const;
export type CapsuleFormat = (typeof CAPSULE_FORMATS)[number];

export const SCHEMA_NAMES = ["note", "index-entry", "capsule", "index", "search", "changes", "governing"] as const;
export type SchemaName = (typeof SCHEMA_NAMES)[number];

export function agentUrls(base: string) {
  return {
    base,
    home: `${base}/`,
    /** The guide's canonical path ends in a slash (site.yaml's canonical_path); /agents redirects here. */
    guide: `${base}/agents/`,
    guideMd: `${base}/agents.md`,
    indexMd: `${base}/agents/index.md`,
    indexJson: `${base}/agents/index.json`,
    /** A later page of the compact index: the entries after the note named by the cursor. */
    indexPage: (cursor: string, format: "md" | "json" = "md") => `${base}/agents/index.${format}?cursor=${encodeURIComponent(cursor)}`,
    pagesTxt: `${base}/agents/pages.txt`,
    tagMd: (tag: string) => `${base}${tagUrl(tag)}.md`,
    llms: `${base}/llms.txt`,
    llmsFull: `${base}/llms-full.txt`,
    mcp: `${base}/agents/mcp`,
    search: (q: string, limit?: number) => `${base}/agents/search.json?q=${encodeURIComponent(q)}${limit === undefined ? "" : `&limit=${limit}`}`,
    /** The published notes changed since a commit main was at; `cursor` for a later page. */
    changes: (since: string, cursor?: string) => `${base}/agents/changes.json?since=${since}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    schema: (name: SchemaName) => `${base}/agents/schema/${name}.json`,
    note: (id: string) => `${base}/notes/${id}`,
    /** The note as published at `commit` (a commit of main that changed it): its text never changes. */
    pinned: (id: string, commit: string) => `${base}${pinnedNoteUrl(id, commit)}`,
    governing: `${base}/agents/governing.json`,
    noteAs: (id: string, format: NoteFormat) => `${base}/notes/${id}.${format}`,
    capsule: (id: string, format: CapsuleFormat) => `${base}/agents/capsules/${id}.${format}`,
  };
}
export type AgentUrls = ReturnType<typeof agentUrls>;
