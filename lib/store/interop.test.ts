import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createContentStore, ensureContentRepo, RefConflictError, type ContentStore } from "./api";
import { fsck, git, noteFile, seedFolder, tempDir } from "./testing";
import { parseNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";

/**
 * The repository is shared with native git: an agent clones it, commits a note and pushes; an
 * operator runs `git gc`. The store must read all of it on the next request, and everything the
 * store writes must read back in git.
 */

const made: string[] = [];
const temp = (label: string) => {
  const dir = tempDir(label);
  made.push(dir);
  return dir;
};
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const EDITOR = { name: "Ada Editor", email: "ada@example.org" };

async function freshStore(): Promise<ContentStore<Note>> {
  const seed = seedFolder(["AFN-001", "AFN-002"]);
  made.push(seed);
  const gitdir = path.join(temp("interop"), "content.git");
  await ensureContentRepo(gitdir, seed);
  return createContentStore(gitdir, { parse: parseNote });
}

async function save(store: ContentStore<Note>, changes: Record<string, string | null>, message: string) {
  return store.commit({ ref: "refs/heads/main", expected: await store.resolve("main"), author: EDITOR, message, changes });
}

function cloneOf(store: ContentStore<Note>): string {
  const work = temp("clone");
  git(work, "clone", "--quiet", store.gitdir, ".");
  return work;
}

describe("native git reads what the store writes", () => {
  it("clones, logs and shows the store's commits", async () => {
    const store = await freshStore();
    await save(store, { "notes/AFN-003.md": noteFile("AFN-003") }, "Add AFN-003");
    await save(store, { "notes/AFN-001.md": null, "reviews/AFN-003/thread.md": "Looks right.\n" }, "Retire AFN-001, review AFN-003");

    const work = cloneOf(store);
    expect(fs.readdirSync(path.join(work, "notes")).sort()).toEqual(["AFN-002.md", "AFN-003.md"]);
    expect(fs.readFileSync(path.join(work, "notes", "AFN-003.md"), "utf8")).toBe(noteFile("AFN-003"));
    expect(fs.readFileSync(path.join(work, "reviews", "AFN-003", "thread.md"), "utf8")).toBe("Looks right.\n");
    expect(git(work, "log", "--format=%s|%an", "origin/main")).toBe(
      ["Retire AFN-001, review AFN-003|Ada Editor", "Add AFN-003|Ada Editor", "Seed the content repository from content/|Field Notes"].join("\n"),
    );
    expect(git(work, "status", "--porcelain")).toBe("");
    expect(fsck(store.gitdir)).toBe("");
  });
});

describe("the store reads what native git writes", () => {
  it("sees a note pushed from a clone on the next request, without a restart", async () => {
    const store = await freshStore();
    const before = await store.snapshot("main");
    expect(before.notes.map((n) => n.id)).toEqual(["AFN-001", "AFN-002"]);

    const work = cloneOf(store);
    fs.writeFileSync(path.join(work, "notes", "AFN-002.md"), noteFile("AFN-002", "Corrected by an agent."));
    fs.writeFileSync(path.join(work, "notes", "AFN-004.md"), noteFile("AFN-004"));
    git(work, "add", "-A");
    git(work, "commit", "--quiet", "-m", "Agent: correct AFN-002, add AFN-004");
    git(work, "push", "--quiet", "origin", "main");
    const pushed = git(work, "rev-parse", "HEAD");

    expect(await store.resolve("main")).toBe(pushed);
    const after = await store.snapshot("main");
    expect(after.notes.map((n) => n.id)).toEqual(["AFN-001", "AFN-002", "AFN-004"]);
    const two = after.notes[1];
    expect(two?.ok && two.note.summary).toBe("Corrected by an agent.");
    const [latest] = await store.history("notes/AFN-002.md", "main");
    expect(latest).toMatchObject({ commit: pushed, message: "Agent: correct AFN-002, add AFN-004", author: { name: "Plain Git" } });
  });

  it("sees a commit made in a worktree of the bare repository", async () => {
    const store = await freshStore();
    await store.snapshot("main");
    const tree = path.join(temp("worktree"), "wt");
    git(store.gitdir, "worktree", "add", "--quiet", tree, "main");
    fs.writeFileSync(path.join(tree, "site.yaml"), fs.readFileSync(path.join(tree, "site.yaml"), "utf8").replace("Field Notes", "Field Notebook"));
    git(tree, "commit", "--quiet", "-am", "Rename the site");
    expect(await store.resolve("main")).toBe(git(tree, "rev-parse", "HEAD"));
    expect(await store.readFile("main", "site.yaml")).toContain("title: Inference Architecture Field Notebook");
  });

  it("reads packed objects and packed refs after git gc, and commits on top of them", async () => {
    const store = await freshStore();
    for (let i = 3; i <= 6; i++) await save(store, { [`notes/AFN-00${i}.md`]: noteFile(`AFN-00${i}`) }, `Add AFN-00${i}`);
    const draft = await store.commit({
      ref: "refs/heads/drafts/AFN-007",
      expected: null,
      parent: await store.resolve("main"),
      author: EDITOR,
      message: "Draft AFN-007",
      changes: { "notes/AFN-007.md": noteFile("AFN-007", "Draft.", { status: "draft" }) },
    });
    const head = (await store.resolve("main"))!;
    const expected = await store.snapshot("main");
    const expectedHistory = await store.history("notes/AFN-001.md", "main");

    git(store.gitdir, "gc", "--quiet", "--prune=now");
    expect(fs.existsSync(path.join(store.gitdir, "refs", "heads", "main"))).toBe(false);
    expect(fs.readFileSync(path.join(store.gitdir, "packed-refs"), "utf8")).toContain(`${head} refs/heads/main`);
    expect(fs.readdirSync(path.join(store.gitdir, "objects")).filter((d) => /^[0-9a-f]{2}$/.test(d))).toEqual([]);

    // A restarted server reads everything from the pack.
    const cold = createContentStore(store.gitdir, { parse: parseNote });
    expect(await cold.resolve("main")).toBe(head);
    expect(await cold.snapshot("main")).toEqual(expected);
    expect(await cold.history("notes/AFN-001.md", "main")).toEqual(expectedHistory);
    expect(await cold.listRefs("refs/heads/")).toEqual([
      { ref: "refs/heads/drafts/AFN-007", oid: draft.commit },
      { ref: "refs/heads/main", oid: head },
    ]);

    // Writing on top of a packed ref, then deleting one.
    const next = await save(cold, { "notes/AFN-001.md": noteFile("AFN-001", "After gc.") }, "Edit after gc");
    expect(next.parents).toEqual([head]);
    expect(git(store.gitdir, "rev-parse", "main")).toBe(next.commit);
    await cold.updateRef("refs/heads/drafts/AFN-007", draft.commit, null);
    expect(git(store.gitdir, "for-each-ref", "--format=%(refname)")).toBe("refs/heads/main");
    expect(git(store.gitdir, "show", "main:notes/AFN-001.md")).toContain("summary: After gc.");
    expect(fsck(store.gitdir)).toBe("");
  });

  it("refuses a save whose base moved under it by a push, naming the pushed commit", async () => {
    const store = await freshStore();
    const opened = (await store.resolve("main"))!;
    const work = cloneOf(store);
    fs.writeFileSync(path.join(work, "notes", "AFN-001.md"), noteFile("AFN-001", "Pushed first."));
    git(work, "commit", "--quiet", "-am", "Pushed first");
    git(work, "push", "--quiet", "origin", "main");
    const pushed = git(work, "rev-parse", "HEAD");

    const stale = store.commit({
      ref: "refs/heads/main",
      expected: opened,
      author: EDITOR,
      message: "Too late",
      changes: { "notes/AFN-001.md": noteFile("AFN-001", "Saved second.") },
    });
    await expect(stale).rejects.toBeInstanceOf(RefConflictError);
    await expect(stale).rejects.toMatchObject({ expected: opened, actual: pushed });
    expect(git(store.gitdir, "show", "main:notes/AFN-001.md")).toContain("summary: Pushed first.");
  });
});
