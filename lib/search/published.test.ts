import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { git, noteFile, tempDir } from "@/lib/store/testing";
import { acceptedNoteFile } from "@/lib/testing/plain-git";

// A real content repository seeded from content/, committed to with native git from outside, as an
// agent would. Set before the store is first asked for: the app reads its location once.
const dir = tempDir("search-published");
process.env.CONTENT_REPO = path.join(dir, "content.git");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const { getPublishedView } = await import("@/lib/content/published");
const { getContentStore } = await import("@/lib/working-copy/content-store");
const { searchNotes } = await import("./index");

function pushWithGit(branch: string, files: Record<string, string>, message: string) {
  const work = tempDir("search-clone");
  try {
    git(work, "clone", "--quiet", process.env.CONTENT_REPO!, ".");
    git(work, "checkout", "--quiet", "-B", branch);
    for (const [file, content] of Object.entries(files)) fs.writeFileSync(path.join(work, file), content);
    git(work, "add", "-A");
    git(work, "commit", "--quiet", "-m", message);
    git(work, "push", "--quiet", "origin", `HEAD:refs/heads/${branch}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

describe("search over the published view of a real repository", () => {
  beforeAll(async () => {
    await getContentStore(); // seeds the repository from content/
  });

  it("finds the seed's notes, AFN-016 first for sparse attention", async () => {
    const view = await getPublishedView();
    expect(view.notes).toHaveLength(21);
    expect((await searchNotes(view, "sparse attention"))[0]?.id).toBe("AFN-016");
  });

  it("never finds a draft on main or a note on a drafts/ branch, and finds a published commit at once", async () => {
    pushWithGit("main", { "notes/AFN-901.md": noteFile("AFN-901", "Zanzibar ledger draft on main.", { status: "draft" }) }, "Draft on main");
    pushWithGit("drafts/AFN-902", { "notes/AFN-902.md": noteFile("AFN-902", "Zanzibar ledger on a drafts branch.") }, "Draft branch");
    const view = await getPublishedView();
    expect(view.byId.has("AFN-901")).toBe(false);
    expect(await searchNotes(view, "zanzibar")).toEqual([]);
    expect((await searchNotes(view, "AFN-901")).map((h) => h.id)).not.toContain("AFN-901");

    pushWithGit("main", { "notes/AFN-903.md": acceptedNoteFile("AFN-903", "Zanzibar ledger, published.") }, "Publish AFN-903");
    const next = await getPublishedView();
    expect(next.commit).not.toBe(view.commit);
    expect((await searchNotes(next, "zanzibar")).map((h) => h.id)).toEqual(["AFN-903"]);
  });
});
