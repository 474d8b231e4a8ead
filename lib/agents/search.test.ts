import { describe, expect, it } from "vitest";
import { indexEntry } from "./index-entry";
import { agentSearch } from "./search";
import { agentUrls } from "./urls";
import { seedNotes, viewOf } from "@/lib/testing/seed";

const view = viewOf(seedNotes());

describe("agentSearch", () => {
  it("answers each hit as the note's index entry for the origin asked, also when the same note was answered for another origin before", async () => {
    const one = agentUrls("https://notes.example.org");
    const other = agentUrls("http://localhost:3000");
    for (const urls of [one, other, one]) {
      const answer = await agentSearch(view, urls, {}, "sparse attention", 5);
      expect(answer.results.length).toBeGreaterThan(0);
      for (const r of answer.results) {
        const { score, field, passage, ...entry } = r;
        expect(entry).toEqual(indexEntry(view.byId.get(r.id)!, urls, {}));
        expect(entry.urls.capsule_json.startsWith(urls.base)).toBe(true);
        expect([typeof score, typeof field, typeof passage]).toEqual(["number", "string", "string"]);
      }
    }
  });
});
