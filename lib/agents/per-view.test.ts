import { describe, expect, it } from "vitest";
import type { PublishedView } from "@/lib/content/published";
import { perView, MAX_DOCUMENTS } from "./per-view";

describe("derived documents of one view", () => {
  it("keeps the documents in use while a flood of forged origins passes through, and forgets the flood", () => {
    const view = { commit: "c0ffee" } as unknown as PublishedView;
    const builds = new Map<string, number>();
    const get = (key: string) =>
      perView(view, key, () => {
        builds.set(key, (builds.get(key) ?? 0) + 1);
        return `document for ${key}`;
      });
    expect(get("llms.txt http://notes.example.org")).toBe("document for llms.txt http://notes.example.org");
    for (let i = 0; i < MAX_DOCUMENTS * 3; i++) {
      get(`llms.txt http://forged-${i}.example`);
      // The real site keeps being read: it stays built once.
      if (i % 100 === 0) get("llms.txt http://notes.example.org");
    }
    expect(builds.get("llms.txt http://notes.example.org")).toBe(1);
    // The first forged document was pushed out (bounded memory): asking again rebuilds it.
    get("llms.txt http://forged-0.example");
    expect(builds.get("llms.txt http://forged-0.example")).toBe(2);
    // A recent one is still there.
    get(`llms.txt http://forged-${MAX_DOCUMENTS * 3 - 1}.example`);
    expect(builds.get(`llms.txt http://forged-${MAX_DOCUMENTS * 3 - 1}.example`)).toBe(1);
  });
});
