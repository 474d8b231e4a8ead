import type { LRUCache } from "lru-cache";
import type { KeptAgentAnswers } from "@/lib/agents/mcp-answers";
import type { AcceptanceState } from "@/lib/content/accepted-main";
import type { LastChangesState } from "@/lib/content/last-change";
import type { PhasesState } from "@/lib/content/phases";
import type { MainLineState } from "@/lib/content/pinned-note";
import type { PublishedState } from "@/lib/content/published";
import type { PageCacheState } from "@/lib/http/page-cache";
import type { Found } from "@/lib/public/claim-change";
import type { DiagramState } from "@/lib/render/diagrams";
import type { SectionCache } from "@/lib/render/markdown";
import type { SectionState } from "@/lib/render/sections";
import type { SearchHit, SearchIndexState } from "@/lib/search/engine";
import type { SearchCopies } from "@/lib/search";
import type { SearchWorker } from "@/lib/search/worker-client";
import type { PersistState } from "./index";
import type { Oid } from "@/lib/store/types";
import type { PhaseTitles } from "@/lib/phases/schema";

/**
 * Everything the read side keeps in this process, in one object: `readSide()`. Each module that
 * keeps something takes its slot here (`readSide().view ??= …`), creating it on first use with its
 * own bounds; what a slot holds is described where it is used. No read-side module keeps state on
 * globalThis itself. (Memo tables keyed by an object, a view, a note or an index, stay beside their
 * code as WeakMaps: they go with that object.)
 *
 * Why on globalThis: Next loads a module once per bundle layer (the proxy, pages, route handlers,
 * instrumentation), and each copy has its own module-level variables. A cache in one would not be
 * the one the others read: the proxy answers only what a route kept, and the links a warm start
 * restores in instrumentation's layer must be the ones the routes' views read. Every layer's copy
 * of this module finds the same object under one key. (A worker thread has its own globalThis: the
 * search worker's engine keeps its own slots there.)
 *
 * Each slot that depends on main keeps the commit it holds and starts over when main moves, by its
 * own rule: the page cache by main's tip (the ref as read), the views by the commit served (the
 * newest the rules accept), and most keep the previous commit's result to derive the next from.
 */
export type ReadSide = {
  view?: PublishedState; // The published view of the served commit, and the one it is derived from (lib/content/published.ts).
  dates?: LastChangesState; // Last-change dates per published note (lib/content/last-change.ts).
  phases?: PhasesState; // Phases with their deltas, and each note's phase fact (lib/content/phases.ts).
  phaseTitles?: { commit: Oid; titles: Promise<PhaseTitles> }; // The last commit's renamed phases, name → title (lib/content/phases.ts).
  mainLine?: MainLineState; // Main's first-parent commits, for pinned revisions (lib/content/pinned-note.ts).
  acceptance?: Map<string, AcceptanceState>; // Each commit of main judged by the rules, per repository (lib/content/accepted-main.ts).
  approvers?: Map<string, string>; // Approvers' display names by record (lib/content/approvers.ts).
  claims?: Map<string, Promise<Found>>; // Each verified note's last claim change, by note and last-change commit (lib/public/claim-change.ts).
  feeds?: Map<string, Promise<string>>; // Atom feeds of the served commit, by ETag (lib/public/feeds.ts).
  pages?: PageCacheState; // Public pages and agent formats of main's commit (lib/http/page-cache.ts).
  mcp?: KeptAgentAnswers; // MCP tool results by commit, origin and call (lib/agents/mcp-answers.ts).
  searchWorker?: { worker: SearchWorker | null | undefined }; // The search worker, once asked for (lib/search/index.ts).
  searchAnswers?: LRUCache<string, SearchHit[]>; // Search answers by commit, limit and query (lib/search/index.ts).
  searchIndex?: SearchIndexState; // The in-thread search index (lib/search/engine.ts).
  searchCopies?: SearchCopies; // The views and notes as search sees them, with renamed phases' titles (lib/search/index.ts).
  sections?: SectionState; // The section worker, renders in flight, diagram sources per section (lib/render/sections.ts).
  sectionHtml?: SectionCache; // Sections' HTML by what it depends on (lib/render/markdown.ts).
  diagrams?: DiagramState; // The diagram worker and drawings by source (lib/render/diagrams.ts).
  persist?: PersistState; // When the persisted read model is read and written (lib/read-model/index.ts).
};

const KEY = Symbol.for("field-notes.read-side");
const holder = globalThis as typeof globalThis & { [KEY]?: ReadSide };

/** The read side's state in this process, the same object in every bundle layer. */
export function readSide(): ReadSide {
  return (holder[KEY] ??= {});
}

/** Forget everything the read side keeps, as a new process would start (tests). */
export function forgetReadSide(): void {
  delete holder[KEY];
}
