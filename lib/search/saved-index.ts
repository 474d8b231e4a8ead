import fs from "node:fs";
import path from "node:path";
import type MiniSearch from "minisearch";
import type { SearchDocument } from "./fields";
import { SEARCH_OPTIONS, type SearchNote } from "./engine";
import { loadCompact, type SerializedIndex } from "./postings";

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
    search = loadCompact(saved.index as SerializedIndex, { ...SEARCH_OPTIONS });
  } catch {
    return null;
  }
  const agree = search.documentCount === notes.length && notes.every((n) => typeof n?.id === "string" && Array.isArray(n.tags) && search.has(n.id));
  return agree ? { commit: saved.commit, notes, search } : null;
}

/**
 * Written term by term rather than through `JSON.stringify(search)`: MiniSearch's `toJSON` builds a
 * copy of the whole index as plain objects, and the string is 20 MB at 10,000 notes, so a save
 * after each commit raised the server's peak memory by about 200 MB. The file holds exactly what
 * `toJSON` gives (saved-index.test.ts holds them equal), read back by `MiniSearch.loadJS`.
 */
export function saveIndex(file: string, saved: SavedIndex): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const notes = saved.notes.map(({ id, title, tags, summary, phase, core }) => ({ id, title, tags, summary, phase, core }));
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    const fd = fs.openSync(temporary, "w");
    try {
      writeIndex(writer(fd), saved.commit, notes, saved.search as unknown as Internals);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, file);
  } catch (e) {
    fs.rmSync(temporary, { force: true });
    throw e;
  }
}

function writeIndex(out: ReturnType<typeof writer>, commit: string, notes: object[], index: Internals): void {
  out.write(`{"format":${FORMAT},"commit":${JSON.stringify(commit)},"notes":${JSON.stringify(notes)},"index":{`);
  out.write(`"documentCount":${index._documentCount},"nextId":${index._nextId},`);
  out.write(`"documentIds":${JSON.stringify(Object.fromEntries(index._documentIds))},"fieldIds":${JSON.stringify(index._fieldIds)},`);
  out.write(`"fieldLength":${JSON.stringify(Object.fromEntries(index._fieldLength))},"averageFieldLength":${JSON.stringify(index._avgFieldLength)},`);
  out.write(`"storedFields":${JSON.stringify(Object.fromEntries(index._storedFields))},"dirtCount":${index._dirtCount},"index":[`);
  let first = true;
  for (const [term, fields] of index._index) {
    const data: Record<number, Record<number, number>> = {};
    for (const [fieldId, freqs] of fields) data[fieldId] = Object.fromEntries(freqs);
    out.write(`${first ? "" : ","}${JSON.stringify([term, data])}`);
    first = false;
  }
  out.write(`],"serializationVersion":2}}`);
  out.end();
}

// MiniSearch's own fields, as its toJSON reads them (lib/search/score.ts reads the same, pinned to
// the version it was checked against).
type Internals = {
  _index: Iterable<[string, Map<number, Iterable<readonly [number, number]>>]>;
  _documentCount: number;
  _nextId: number;
  _documentIds: Map<number, string>;
  _fieldIds: Record<string, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _storedFields: Map<number, Record<string, unknown>>;
  _dirtCount: number;
};

/** Text written to a file in 64 KB pieces. */
function writer(fd: number) {
  let parts: string[] = [];
  let size = 0;
  const flush = () => {
    if (parts.length) fs.writeSync(fd, parts.join(""));
    parts = [];
    size = 0;
  };
  return {
    write(text: string) {
      parts.push(text);
      size += text.length;
      if (size >= 65_536) flush();
    },
    end: flush,
  };
}
