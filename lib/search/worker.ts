import { parentPort } from "node:worker_threads";
import type { Note } from "@/lib/notes/schema";
import { searchDocument } from "./fields";
import { newSearchIndex, phraseFields, rankQuery, type SearchNote, type SearchView } from "./engine";
import type { ToWorker, FromWorker } from "./worker-protocol";

/**
 * The search worker thread: it holds the search index of the published notes and answers queries
 * on it, so building the index (5–8 s at 10,000 notes) and ranking never hold up the server's
 * request thread. The server sends the notes (all at the first build, then the notes a commit
 * changed, each with its old version so the index forgets exactly what it learnt), and the
 * queries, in order; each query names the commit it expects the index to be at.
 *
 * The worker keeps of each note only what ranking reads (its id and short fields); a hit's
 * passage is cut by the server, which holds the whole note.
 */

const notes = new Map<string, SearchNote>();
let view: SearchView = { commit: "", byId: notes };
const search = newSearchIndex();
// The first thing that went wrong; once set, every answer is that error (the server then falls
// back to searching in its own thread).
let broken: string | null = null;

function slim(note: Note): SearchNote {
  const kept: SearchNote = { id: note.id, title: note.title, tags: note.tags, summary: note.summary, phase: note.phase, core: note.core };
  phraseFields(kept);
  return kept;
}

function add(note: Note) {
  search.add(searchDocument(note));
  notes.set(note.id, slim(note));
}

function handle(message: ToWorker): FromWorker | null {
  switch (message.t) {
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
});
