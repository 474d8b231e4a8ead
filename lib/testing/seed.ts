import fs from "node:fs";
import path from "node:path";
import type { PublishedView } from "@/lib/content/published";
import { parseSite, type Site } from "@/lib/content/site";
import { parseNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";

/** Tests: the archive's own content (content/), read straight from the folder, no git involved. */

const root = path.resolve(__dirname, "../../content");

/** The 21 seed notes, parsed; a seed note that does not parse fails the test file at once, naming it. */
export function seedNotes(): Note[] {
  return fs
    .readdirSync(path.join(root, "notes"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => {
      const parsed = parseNote(fs.readFileSync(path.join(root, "notes", f), "utf8"));
      if (!parsed.ok) throw new Error(`${f}: ${JSON.stringify(parsed.errors)}`);
      return parsed.note;
    });
}

export function seedSite(): Site {
  return parseSite(fs.readFileSync(path.join(root, "site.yaml"), "utf8"));
}

/** A published view of `notes` at a made-up commit, as the read model would hand it to search. */
export function viewOf(notes: Note[], commit = "a".repeat(40)): PublishedView {
  return { commit, site: seedSite(), notes, byId: new Map(notes.map((n) => [n.id, n])), core: [], backlinks: new Map() };
}
