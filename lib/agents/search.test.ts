import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseSite } from "@/lib/content/site";
import type { PublishedView } from "@/lib/content/published";
import { parseNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";
import { indexEntry } from "./index-entry";
import { agentSearch } from "./search";
import { agentUrls } from "./urls";

const root = path.resolve(__dirname, "../../content");
const notes: Note[] = fs
  .readdirSync(path.join(root, "notes"))
  .filter((f) => f.endsWith(".md"))
  .map((f) => {
    const parsed = parseNote(fs.readFileSync(path.join(root, "notes", f), "utf8"));
    if (!parsed.ok) throw new Error(`${f}: ${JSON.stringify(parsed.errors)}`);
    return parsed.note;
  });
const site = parseSite(fs.readFileSync(path.join(root, "site.yaml"), "utf8"));
const view: PublishedView = { commit: "a".repeat(40), site, notes, byId: new Map(notes.map((n) => [n.id, n])), core: [], backlinks: new Map() };

describe("agentSearch", () => {
  it("answers each hit as the note's index entry for the origin asked, also when the same note was answered for another origin before", () => {
    const one = agentUrls("https://notes.example.org");
    const other = agentUrls("http://localhost:3000");
    for (const urls of [one, other, one]) {
      const answer = agentSearch(view, urls, "sparse attention", 5);
      expect(answer.results.length).toBeGreaterThan(0);
      for (const r of answer.results) {
        const { score, field, passage, ...entry } = r;
        expect(entry).toEqual(indexEntry(view.byId.get(r.id)!, urls));
        expect(entry.urls.capsule_json.startsWith(urls.base)).toBe(true);
        expect([typeof score, typeof field, typeof passage]).toEqual(["number", "string", "string"]);
      }
    }
  });
});
