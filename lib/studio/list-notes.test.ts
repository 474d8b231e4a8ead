import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StudioActor } from "@/lib/rules/identity";
import { parseSite } from "@/lib/content/site";
import { APP_IDENTITY } from "@/lib/store/api";
import { studioFixture } from "@/lib/testing/studio";
import { createNote } from "./create-note";
import { listNotes } from "./list-notes";

/**
 * The studio list names who changed a note the way the public pages do: the seed (committed by the
 * app itself) reads as the archive's author from site.yaml, a person's save reads as that person.
 */

let fixture: Awaited<ReturnType<typeof studioFixture>>;
const grace: StudioActor = { id: "grace", name: "grace", role: "author", via: "session" };
const siteAuthor = parseSite(fs.readFileSync("content/site.yaml", "utf8")).author;

beforeAll(async () => {
  fixture = await studioFixture();
});
afterAll(() => fixture.cleanup());

describe("the studio list's last change", () => {
  it("names the archive's author for a seed note, not the app's commit identity", async () => {
    const notes = await listNotes(grace);
    const seeded = notes.filter((n) => !n.draft);
    expect(seeded.length).toBeGreaterThan(0);
    for (const n of seeded) {
      expect(n.lastChange?.author.name, n.id).toBe(APP_IDENTITY.name);
      expect(n.lastChange?.by, n.id).toBe(siteAuthor);
    }
    expect(siteAuthor).not.toBe(APP_IDENTITY.name);
  });

  it("names the person who saved a draft", async () => {
    const { id } = await createNote(grace, {
      note: { title: "Admission control fails closed", summary: "A request that cannot be placed is refused.", phase: "6 architecture" },
    });
    const draft = (await listNotes(grace)).find((n) => n.id === id);
    expect(draft?.lastChange?.by).toBe("grace");
  });
});
