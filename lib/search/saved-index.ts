import fs from "node:fs";
import path from "node:path";
import MiniSearch from "minisearch";
import type { SearchDocument } from "./fields";
import { SEARCH_OPTIONS, type SearchNote } from "./engine";

/**
 * The search worker's index on disk, so a restart loads it (about 0.6 s at 10,000 notes) and moves
 * it by the notes changed since, instead of indexing every note again (4–8 s). One JSON file in the
 * read model's folder, which is keyed by the app's build (lib/read-model): another build, with
 * another tokenizer or other fields, never reads it. It holds the commit it was saved at, the
 * short fields ranking reads of each note, and MiniSearch's own serialisation. Written whole to a
 * temporary file and renamed, so a reader sees a whole file or none; a file that does not parse,
 * or whose notes and index disagree, is ignored (the worker then builds from the notes).
 */

const FORMAT = 1;

export type SavedIndex = { commit: string; notes: SearchNote[]; search: MiniSearch<SearchDocument> };

export function loadIndex(file: string): SavedIndex | null {
  let saved: { format?: unknown; commit?: unknown; notes?: unknown; index?: unknown };
  try {
    saved = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null; // none yet, or damaged
  }
  if (saved?.format !== FORMAT || typeof saved.commit !== "string" || !/^[0-9a-f]{40}$/.test(saved.commit)) return null;
  if (!Array.isArray(saved.notes) || !saved.index || typeof saved.index !== "object") return null;
  const notes = saved.notes as SearchNote[];
  let search: MiniSearch<SearchDocument>;
  try {
    search = MiniSearch.loadJS(saved.index as Parameters<typeof MiniSearch.loadJS>[0], { ...SEARCH_OPTIONS });
  } catch {
    return null;
  }
  const agree = search.documentCount === notes.length && notes.every((n) => typeof n?.id === "string" && Array.isArray(n.tags) && search.has(n.id));
  return agree ? { commit: saved.commit, notes, search } : null;
}

export function saveIndex(file: string, saved: SavedIndex): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const notes = saved.notes.map(({ id, title, tags, summary, phase, core }) => ({ id, title, tags, summary, phase, core }));
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    fs.writeFileSync(temporary, JSON.stringify({ format: FORMAT, commit: saved.commit, notes, index: saved.search }));
    fs.renameSync(temporary, file);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}
