import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answer, noteFields, params, request, studioFixture } from "@/lib/testing/studio";
import * as list from "./route";
import * as one from "./[id]/route";

/**
 * A tag is a page of its own (/tags/<slug>): a tag whose URL form is "." or ".." would be a link
 * to the folder above (a browser resolves /tags/.. to /), in the sitemap and the export alike, so a
 * save refuses it at the tags field and writes nothing (issue 32).
 */

let f: Awaited<ReturnType<typeof studioFixture>>;
beforeAll(async () => {
  f = await studioFixture();
});
afterAll(() => f.cleanup());

const git = (...args: string[]) => execFileSync("git", ["--git-dir", f.gitdir, ...args], { encoding: "utf8" }).trim();

describe("a tag without a page of its own", () => {
  it.each([[".."], ["."]])("%j is refused at save with a field error, and nothing is committed", async (tag) => {
    const created = await answer(await list.POST(request(f.author, "POST", "/api/studio/notes", {}), params({})));
    const { id, revision } = created.body;
    const saved = await answer(
      await one.PUT(request(f.author, "PUT", `/api/studio/notes/${id}`, { revision, note: noteFields("Dots", { tags: ["kernels", tag] }) }), params({ id })),
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(422);
    expect(saved.body.error.code).toBe("invalid-note");
    expect(saved.body.error.where).toContainEqual({ field: "tags", message: expect.stringContaining(`the tag ${JSON.stringify(tag)} has no page of its own`) });
    expect(git("rev-parse", `refs/heads/drafts/${id}`)).toBe(revision);
  });

  it("a tag of punctuation that makes a page of its own is kept", async () => {
    const created = await answer(await list.POST(request(f.author, "POST", "/api/studio/notes", {}), params({})));
    const { id, revision } = created.body;
    const saved = await answer(
      await one.PUT(request(f.author, "PUT", `/api/studio/notes/${id}`, { revision, note: noteFields("Dots", { tags: ["...", "C++"] }) }), params({ id })),
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  });
});
