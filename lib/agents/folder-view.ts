import fs from "node:fs";
import path from "node:path";
import { mentionedIds } from "@/lib/content/links";
import type { PublishedView } from "@/lib/content/published";
import { parseSite, SITE_FILE } from "@/lib/content/site";
import { formatErrors, parseNote } from "@/lib/notes/markdown";
import { isPublishedStatus, type Note } from "@/lib/notes/schema";

/**
 * The published view of a content folder on disk (the repository's content/), for the token bench
 * and the unit tests: the same notes the server publishes, without a git repository.
 */

export function folderView(dir: string, commit = "0".repeat(40)): PublishedView {
  const notesDir = path.join(dir, "notes");
  const notes: Note[] = fs
    .readdirSync(notesDir)
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => {
      const parsed = parseNote(fs.readFileSync(path.join(notesDir, f), "utf8"));
      if (!parsed.ok) throw new Error(formatErrors(path.join(notesDir, f), parsed.errors));
      return parsed.note;
    })
    .filter((n) => isPublishedStatus(n.status))
    .sort((a, b) => b.order - a.order || a.id.localeCompare(b.id));
  return viewOf(notes, parseSite(fs.readFileSync(path.join(dir, SITE_FILE), "utf8")), commit);
}

export function viewOf(notes: Note[], site: PublishedView["site"], commit: string): PublishedView {
  const byId = new Map(notes.map((n) => [n.id, n]));
  const backlinks = new Map<string, string[]>();
  for (const note of notes) {
    for (const target of new Set([...note.related, ...mentionedIds(note)])) {
      if (target !== note.id && byId.has(target)) backlinks.set(target, [...(backlinks.get(target) ?? []), note.id]);
    }
  }
  const core = notes.filter((n) => n.core).sort((a, b) => (a.core?.rank ?? 0) - (b.core?.rank ?? 0));
  return { commit, site, notes, byId, core, backlinks };
}
