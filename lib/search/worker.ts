import { parentPort } from "node:worker_threads";
import type { Note } from "@/lib/notes/schema";
import { searchDocument } from "./fields";
import { newSearchIndex, phraseFields, rankQuery, type SearchNote, type SearchView } from "./engine";
import { loadIndex, saveIndex } from "./saved-index";
import type { ToWorker, FromWorker } from "./worker-protocol";

/**
 * The search worker thread: it holds the search index of the published notes and answers queries
 * on it, so building the index (5–8 s at 10,000 notes) and ranking never hold up the server's
 * request thread. The server sends the notes (all at the first build, then the notes a commit
 * changed, each with its old version so the index forgets exactly what it learnt), and the
 * queries, in order; each query names the commit it expects the index to be at.
 *
 * The worker keeps of each note only what ranking reads (its id and short fields); a hit's
 * passage is cut by the server, which holds the whole note. It keeps its index on disk
 * (./saved-index.ts) once a new commit has settled, so the next start loads it instead of building.
 */

const notes = new Map<string, SearchNote>();
let view: SearchView = { commit: "", byId: notes };
let search = newSearchIndex();
// The first thing that went wrong; once set, every answer is that error (the server then falls
// back to searching in its own thread).
let broken: string | null = null;

// Where the index is saved (from "open"), and the commit saved there or loaded from there.
let file: string | null = null;
let saved = "";
let saving: ReturnType<typeof setTimeout> | null = null;
let due = Infinity;
// A new commit is saved once the worker has had nothing to do for SETTLE_MS (saving 10,000 notes
// holds it for about a second, and a query waits behind it), or at the latest MAX_WAIT_MS after it.
const SETTLE_MS = 2_000;
const MAX_WAIT_MS = 30_000;

function slim(note: Note): SearchNote {
  const kept: SearchNote = { id: note.id, title: note.title, tags: note.tags, summary: note.summary, phase: note.phase, core: note.core };
  phraseFields(kept);
  return kept;
}

function add(note: Note) {
  search.add(searchDocument(note));
  notes.set(note.id, slim(note));
}

function clear() {
  search = newSearchIndex();
  notes.clear();
  view = { commit: "", byId: notes };
}

function save() {
  if (saving) clearTimeout(saving);
  saving = null;
  due = Infinity;
  if (!file || !view.commit || view.commit === saved) return;
  try {
    saveIndex(file, { commit: view.commit, notes: [...notes.values()], search });
  } catch (e) {
    // A failed save (a full disk, a read-only folder) costs the next start its time, nothing else;
    // it is tried again at the next commit, not at every message.
    console.error("search worker: the index was not saved", e);
  }
  saved = view.commit;
}

/** Save when the worker has been idle a while: every message puts it off, up to MAX_WAIT_MS. */
function saveLater() {
  if (!file || !view.commit || view.commit === saved) return;
  if (saving) clearTimeout(saving);
  due = Math.min(due, Date.now() + MAX_WAIT_MS);
  saving = setTimeout(save, Math.max(0, Math.min(SETTLE_MS, due - Date.now())));
  saving.unref();
}

function handle(message: ToWorker): FromWorker | null {
  switch (message.t) {
    case "open": {
      file = message.file;
      const loaded = loadIndex(file);
      if (!loaded) return { id: message.id, ok: true, value: null };
      clear();
      search = loaded.search;
      for (const note of loaded.notes) {
        phraseFields(note);
        notes.set(note.id, note);
      }
      view = { commit: loaded.commit, byId: notes };
      saved = loaded.commit;
      return { id: message.id, ok: true, value: loaded.commit };
    }
    case "clear":
      clear();
      return null;
    case "add":
      for (const note of message.notes) add(note);
      return null;
    case "move":
      for (const { old, note } of message.changes) {
        if (old) {
          search.remove(searchDocument(old));
          notes.delete(old.id);
        }
        if (note) add(note);
      }
      return null;
    case "at":
      // A new view object: ranking caches per view (the notes by MiniSearch's short ids).
      view = { commit: message.commit, byId: notes };
      return { id: message.id, ok: true, value: null };
    case "search": {
      if (message.commit !== view.commit) throw new Error(`the index is at ${view.commit || "no commit"}, not ${message.commit}`);
      return { id: message.id, ok: true, value: rankQuery(view, search, message.query, message.limit) };
    }
    case "save":
      save();
      return { id: message.id, ok: true, value: null };
  }
}

parentPort!.on("message", (message: ToWorker) => {
  let answer: FromWorker | null;
  try {
    if (broken) throw new Error(broken);
    answer = handle(message);
  } catch (e) {
    broken ??= `search worker: ${(e as Error).message}`;
    answer = "id" in message ? { id: message.id, ok: false, error: broken } : null;
  }
  if (answer) parentPort!.postMessage(answer);
  if (!broken && message.t !== "save") saveLater();
});
