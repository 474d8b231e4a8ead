import fs from "node:fs";
import path from "node:path";
import { newSearchIndex, type SearchNote } from "./engine";
import { TermIndex } from "./term-index";

/**
 * The search worker's index on disk, so a restart loads it (about 0.6 s at 10,000 notes) and moves
 * it by the notes changed since, instead of indexing every note again (4–8 s). One JSON file in the
 * read model's folder, which is keyed by the app's build (lib/read-model): another build, with
 * another tokenizer or other fields, never reads it. It holds the commit it was saved at, the
 * short fields ranking reads of each note, and the index's own data (TermIndex.serialize). Written whole to a
 * temporary file and renamed, so a reader sees a whole file or none; a file that does not parse,
 * or whose notes and index disagree, is ignored (the worker then builds from the notes).
 */

// 2: the project's own index (1 was MiniSearch's serialisation, which a start now builds anew).
const FORMAT = 2;

export type SavedIndex = { commit: string; notes: SearchNote[]; search: TermIndex };

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
  let search: TermIndex;
  try {
    search = TermIndex.fromData(saved.index, newSearchIndex().fields);
  } catch {
    return null;
  }
  const agree = search.documentCount === notes.length && notes.every((n) => typeof n?.id === "string" && Array.isArray(n.tags) && search.has(n.id));
  return agree ? { commit: saved.commit, notes, search } : null;
}

/**
 * Written term by term rather than through one `JSON.stringify`: the text is 20 MB at 10,000 notes,
 * and a save after each commit raised the server's peak memory by about 200 MB when it was built
 * whole. Read back by `JSON.parse` and `TermIndex.fromData`.
 */
export function saveIndex(file: string, saved: SavedIndex): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const notes = saved.notes.map(({ id, title, tags, summary, phase, core }) => ({ id, title, tags, summary, phase, core }));
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    const fd = fs.openSync(temporary, "w");
    try {
      const out = writer(fd);
      out.write(`{"format":${FORMAT},"commit":${JSON.stringify(saved.commit)},"notes":${JSON.stringify(notes)},"index":`);
      for (const part of saved.search.serialize()) out.write(part);
      out.write("}");
      out.end();
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, file);
  } catch (e) {
    fs.rmSync(temporary, { force: true });
    throw e;
  }
}

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
