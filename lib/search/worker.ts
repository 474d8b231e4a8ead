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
 * (./saved-index.ts), so the next start loads it and is moved by the notes changed since, instead
 * of building.
 */

const notes = new Map<string, SearchNote>();
let view: SearchView = { commit: "", byId: notes };
let search = newSearchIndex();
// The first thing that went wrong; once set, every answer is that error (the server then falls
// back to searching in its own thread).
let broken: string | null = null;

// Where the index is saved (from "open"), the commit saved there or loaded from there, when, and
// how many notes the index has moved by since.
let file: string | null = null;
let saved = "";
let savedAt = 0;
let movedSince = 0;
let saving: ReturnType<typeof setTimeout> | null = null;
let due = Infinity;
// Notes added since the long posting lists last gave back their spare room (see "at").
let addedSinceTrim = 0;
// Saving 10,000 notes costs this thread about half a second of CPU (and a query waits behind it),
// and a restart moves a saved index by the notes changed since at a fraction of a millisecond each.
// So the index is saved when there is none yet, or when it has moved by SAVE_AFTER_MOVES notes,
// once the worker has had nothing to do for SETTLE_MS (at the latest MAX_WAIT_MS after); a few
// notes behind, it is saved SAVE_EVERY_MS after the last save.
const SETTLE_MS = 2_000;
const MAX_WAIT_MS = 30_000;
const SAVE_AFTER_MOVES = 256;
const SAVE_EVERY_MS = 10 * 60_000;
const TRIM_AFTER_ADDS = 256;
const WARM_UP_QUERIES = 24;

function slim(note: Note): SearchNote {
  const kept: SearchNote = { id: note.id, title: note.title, tags: note.tags, summary: note.summary, phase: note.phase, core: note.core };
  phraseFields(kept);
  return kept;
}

function add(note: Note) {
  addedSinceTrim++;
  search.add(searchDocument(note));
  notes.set(note.id, slim(note));
}

function clear() {
  search = newSearchIndex();
  notes.clear();
  view = { commit: "", byId: notes };
  saved = "";
}

function save() {
  if (saving) clearTimeout(saving);
  saving = null;
  due = Infinity;
  if (!file || !view.commit || view.commit === saved) return;
  savedAt = Date.now();
  movedSince = 0;
  try {
    saveIndex(file, { commit: view.commit, notes: [...notes.values()], search });
  } catch (e) {
    // A failed save (a full disk, a read-only folder) costs the next start its time, nothing else;
    // it is tried again as a save would be (SAVE_AFTER_MOVES, SAVE_EVERY_MS), not at every message.
    console.error("search worker: the index was not saved", e);
  }
  saved = view.commit;
}

/** Save when it pays (see SAVE_AFTER_MOVES) and the worker has been idle a while: every message puts it off. */
function saveLater() {
  if (!file || !view.commit || view.commit === saved) return;
  if (saving) clearTimeout(saving);
  const now = Date.now();
  const behind = !saved || movedSince >= SAVE_AFTER_MOVES;
  if (behind) due = Math.min(due, now + MAX_WAIT_MS);
  const delay = behind ? Math.max(0, Math.min(SETTLE_MS, due - now)) : Math.max(SETTLE_MS, savedAt + SAVE_EVERY_MS - now);
  saving = setTimeout(save, delay);
  saving.unref();
}

// The first queries a worker ranks took 10–30 ms each at 10,000 notes, the ones after 2–5 ms: its
// scoring code was not yet compiled for what it meets, and a reader's first searches paid for it.
// So once its index first stands at a commit, the worker ranks queries of its own (the first words
// of some notes' titles) and drops the answers: one per turn of its event loop, so a reader's
// message waits behind one of them at most.
let warmedUp = false;
function warmUp() {
  if (warmedUp || !notes.size) return;
  warmedUp = true;
  const every = Math.max(1, Math.floor(notes.size / WARM_UP_QUERIES));
  const queries = [...notes.values()].filter((_, i) => i % every === 0).map((n) => n.title.split(/\s+/).slice(0, 2).join(" "));
  const next = () => {
    const query = queries.pop();
    if (query === undefined || broken) return;
    try {
      rankQuery(view, search, query, 10);
    } catch {
      return; // a real search will meet the same problem and report it
    }
    setImmediate(next).unref();
  };
  setImmediate(next).unref();
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
      savedAt = Date.now();
      movedSince = 0;
      return { id: message.id, ok: true, value: loaded.commit };
    }
    case "clear":
      clear();
      return null;
    case "add":
      for (const note of message.notes) add(note);
      return null;
    case "move":
      movedSince += message.changes.length;
      for (const { old, note } of message.changes) {
        if (old) {
          search.remove(searchDocument(old));
          notes.delete(old.id);
        }
        if (note) add(note);
      }
      return null;
    case "at":
      // After a build (or a big push) the lists have stopped growing: their spare room goes back
      // (at 10,000 notes 1.7 MB in 56 ms, since long lists grow as typed arrays; too slow for every commit).
      if (addedSinceTrim >= TRIM_AFTER_ADDS) {
        search.trim();
        addedSinceTrim = 0;
      }
      // A new view object: ranking caches per view (the notes by the index's docs).
      view = { commit: message.commit, byId: notes };
      warmUp();
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
