import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContentStore, ensureContentRepo, NothingToCommitError, StoreRequestError, UnknownRevisionError, type ContentStore, type Oid } from "./api";
import { fsck, git, noteFile, seedFolder, tempDir } from "./testing";
import { parseNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";

const made: string[] = [];
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const EDITOR = { name: "Ada Editor", email: "ada@example.org" };

async function freshStore(ids?: string[]): Promise<ContentStore<Note>> {
  const seed = seedFolder(ids);
  const dir = tempDir("store");
  made.push(seed, dir);
  const gitdir = path.join(dir, "content.git");
  await ensureContentRepo(gitdir, seed);
  return createContentStore(gitdir, { parse: parseNote });
}

async function save(store: ContentStore<Note>, changes: Record<string, string | null>, message = "Edit", ref = "refs/heads/main") {
  return store.commit({ ref, expected: await store.resolve(ref), author: EDITOR, message, changes });
}

describe("reading a revision", () => {
  let store: ContentStore<Note>;
  beforeAll(async () => {
    store = await freshStore(["AFN-001", "AFN-002", "AFN-010"]);
  });

  it("resolves a branch by full name, short name and commit id, and nothing else", async () => {
    const head = await store.resolve("refs/heads/main");
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    expect(await store.resolve("main")).toBe(head);
    expect(await store.resolve("HEAD")).toBe(head);
    expect(await store.resolve(head!)).toBe(head);
    expect(await store.resolve("refs/heads/nope")).toBeNull();
    expect(await store.resolve("0".repeat(40))).toBeNull();
    expect(await store.resolve("refs/heads/../../config")).toBeNull();
    expect(await store.resolve("refs/heads/main.lock")).toBeNull();
    expect(await store.resolve("main\0")).toBeNull();
  });

  it("snapshots every note, parsed, sorted by path", async () => {
    const snap = await store.snapshot("main");
    expect(snap.commit).toBe(await store.resolve("main"));
    expect(snap.notes.map((n) => [n.path, n.id, n.ok])).toEqual([
      ["notes/AFN-001.md", "AFN-001", true],
      ["notes/AFN-002.md", "AFN-002", true],
      ["notes/AFN-010.md", "AFN-010", true],
    ]);
    const first = snap.notes[0];
    expect(first?.ok && first.note.title).toBe("Decision AFN-001");
    expect(first?.blob).toBe(git(store.gitdir, "rev-parse", "main:notes/AFN-001.md"));
  });

  it("reads one note and any file, and answers null for what is not there", async () => {
    const note = await store.readNote("AFN-002", "main");
    expect(note?.ok && note.note.summary).toBe("What AFN-002 decided.");
    expect(await store.readNote("AFN-404", "main")).toBeNull();
    expect(await store.readNote("../site", "main")).toBeNull();
    expect(await store.readFile("main", "site.yaml")).toContain("title: Inference Architecture Field Notes");
    expect(await store.readFile("main", "assets/diagrams/bank-flip.txt")).toBe("A -> B\n");
    expect(await store.readFile("main", "assets/diagrams")).toBeNull();
    expect(await store.readFile("main", "missing.md")).toBeNull();
    expect(await store.readFile("refs/heads/nope", "site.yaml")).toBeNull();
    expect(await store.readFile("main", "../config")).toBeNull();
  });

  it("throws UnknownRevisionError for a snapshot or history of a revision that does not exist", async () => {
    await expect(store.snapshot("refs/heads/drafts/AFN-404")).rejects.toBeInstanceOf(UnknownRevisionError);
    await expect(store.history("notes/AFN-001.md", "refs/heads/nope")).rejects.toBeInstanceOf(UnknownRevisionError);
    expect(await store.history("../notes/AFN-001.md", "main")).toEqual([]);
  });
});

describe("log and listFiles", () => {
  it("list first-parent commits newest first (up to a commit, or a limit) and the files of a folder", async () => {
    const store = await freshStore(["AFN-001", "AFN-002"]);
    const seed = (await store.resolve("main"))!;
    const a = await save(store, { "phases/phase-6.yaml": "name: Phase 6\n", "phases/old/x.yaml": "x\n" }, "Add phases");
    const b = await save(store, { "notes/AFN-003.md": noteFile("AFN-003") }, "Add AFN-003");
    expect((await store.log("main")).map((r) => r.commit)).toEqual([b.commit, a.commit, seed]);
    expect((await store.log("main", { until: seed })).map((r) => r.message)).toEqual(["Add AFN-003", "Add phases"]);
    expect(await store.log("main", { limit: 1 })).toEqual([b]);
    expect(await store.listFiles("main", "phases")).toEqual(["phase-6.yaml"]);
    expect(await store.listFiles("main", "notes")).toEqual(["AFN-001.md", "AFN-002.md", "AFN-003.md"]);
    expect(await store.listFiles("main", "")).toEqual(["site.yaml"]);
    expect(await store.listFiles(seed, "phases")).toEqual([]);
    expect(await store.listFiles("main", "../phases")).toEqual([]);
  });
});

describe("an invalid note file", () => {
  it("comes back as ok:false with line-numbered errors, not as a throw, and the others still read", async () => {
    const store = await freshStore(["AFN-001"]);
    const broken = noteFile("AFN-002").replace("status: verified-checkpoint", "status: almost-done");
    await save(store, { "notes/AFN-002.md": broken, "notes/AFN-003.md": "no front matter here\n" });

    const snap = await store.snapshot("main");
    expect(snap.notes.map((n) => [n.id, n.ok])).toEqual([
      ["AFN-001", true],
      ["AFN-002", false],
      ["AFN-003", false],
    ]);
    const bad = await store.readNote("AFN-002", "main");
    expect(bad?.ok).toBe(false);
    if (bad && !bad.ok)
      expect(bad.errors).toEqual([expect.objectContaining({ field: "status", line: 5, message: expect.stringMatching(/status must be one of/) })]);
  });
});

describe("history of a file", () => {
  it("lists the commits that added, changed or deleted it, newest first, with author, date and blob", async () => {
    const store = await freshStore(["AFN-001", "AFN-002"]);
    const seedCommit = (await store.resolve("main"))!;
    const changed = await save(store, { "notes/AFN-001.md": noteFile("AFN-001", "Revised once.") }, "Revise AFN-001");
    await save(store, { "notes/AFN-002.md": noteFile("AFN-002", "Unrelated.") }, "Revise AFN-002");
    const deleted = await save(store, { "notes/AFN-001.md": null }, "Retire AFN-001 for now");
    const back = await save(store, { "notes/AFN-001.md": noteFile("AFN-001", "Back again.") }, "Restore AFN-001");

    const history = await store.history("notes/AFN-001.md", "main");
    expect(history.map((r) => [r.commit, r.message])).toEqual([
      [back.commit, "Restore AFN-001"],
      [deleted.commit, "Retire AFN-001 for now"],
      [changed.commit, "Revise AFN-001"],
      [seedCommit, "Seed the content repository from content/"],
    ]);
    expect(history[1]?.blob).toBeNull();
    expect(history[0]?.blob).toBe(git(store.gitdir, "rev-parse", "main:notes/AFN-001.md"));
    expect(history[0]?.author).toEqual(EDITOR);
    expect(history[0]?.parents).toEqual([deleted.commit]);
    expect(history[0]?.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    expect(Math.abs(Date.parse(history[0]!.date) - Date.now())).toBeLessThan(60_000);
    // The same list native git gives.
    expect(history.map((r) => r.commit).join("\n")).toBe(git(store.gitdir, "log", "--first-parent", "--format=%H", "main", "--", "notes/AFN-001.md"));
    expect(await store.history("notes/AFN-001.md", "main", { limit: 2 })).toEqual(history.slice(0, 2));
    // After one more commit, the history is extended, not stale.
    const latest = await save(store, { "notes/AFN-001.md": noteFile("AFN-001", "Once more.") }, "Once more");
    expect((await store.history("notes/AFN-001.md", "main")).map((r) => r.commit)).toEqual([latest.commit, ...history.map((r) => r.commit)]);
  });

  it("reads each commit's notes tree once when every note's history is asked at once (last-change dates on a cold start)", async () => {
    const ids = Array.from({ length: 200 }, (_, i) => `AFN-${String(i + 1).padStart(3, "0")}`);
    const writer = await freshStore(ids);
    for (let k = 0; k < 6; k++) await save(writer, { [`notes/${ids[k * 30]}.md`]: noteFile(ids[k * 30]!, `Edit ${k}.`) }, `Edit ${k}`);
    // A new process: nothing of these commits' trees is in memory yet.
    const store = createContentStore(writer.gitdir, { parse: parseNote });
    const before = store.stats().objectsRead;
    const latest = await Promise.all(ids.map(async (id) => (await store.history(`notes/${id}.md`, "main", { limit: 1 }))[0]!));
    expect(latest.map((r) => r.commit)).toEqual(ids.map((id) => git(store.gitdir, "log", "-1", "--format=%H", "main", "--", `notes/${id}.md`)));
    // 7 commits, their root and notes trees: each read once, not once per note (200 notes × 7 commits);
    // and main's commit once more, when it is first resolved.
    expect(store.stats().objectsRead - before).toBeLessThanOrEqual(3 * 7 + 1);
  });

  it("gives each revision's date in its author's own timezone", async () => {
    const store = await freshStore(["AFN-001"]);
    const work = tempDir("tz");
    made.push(work);
    git(work, "clone", "--quiet", store.gitdir, ".");
    fs.writeFileSync(path.join(work, "notes", "AFN-001.md"), noteFile("AFN-001", "Written in Mumbai."));
    git(work, "commit", "--quiet", "-am", "From Mumbai", "--date", "2024-03-01T10:00:00+05:30");
    git(work, "push", "--quiet", "origin", "main");
    const [latest] = await store.history("notes/AFN-001.md", "main");
    expect(latest?.date).toBe("2024-03-01T10:00:00+05:30");
    expect(latest?.author).toEqual({ name: "Plain Git", email: "plain-git@example.org" });
  });
});

describe("a commit", () => {
  it("writes nested paths, deletes files, and drops a folder once it is empty", async () => {
    const store = await freshStore(["AFN-001"]);
    await save(store, { "reviews/AFN-001/thread.md": "first comment\n", "reviews/AFN-001/verdict.md": "approve\n" });
    expect(git(store.gitdir, "ls-tree", "-r", "--name-only", "main", "reviews")).toBe("reviews/AFN-001/thread.md\nreviews/AFN-001/verdict.md");
    await save(store, { "reviews/AFN-001/thread.md": null });
    expect(await store.readFile("main", "reviews/AFN-001/verdict.md")).toBe("approve\n");
    await save(store, { "reviews/AFN-001/verdict.md": null, "assets/diagrams/bank-flip.txt": null });
    expect(git(store.gitdir, "ls-tree", "--name-only", "main")).toBe("notes\nsite.yaml");
    expect(fsck(store.gitdir)).toBe("");
  });

  it("writes trees in git's order, which native git checks: folders sort as if named with a trailing /", async () => {
    const store = await freshStore(["AFN-001"]);
    const names = ["a.b", "a/x.md", "a-b", "a0", "a=", "b", "é.md", "\u{1D4B3}.md", "\uE000.md", "Z.md", "_x", "notes/AFN-001.md.bak"];
    await save(store, Object.fromEntries(names.map((n) => [n, `${n}\n`])));
    expect(fsck(store.gitdir)).toBe("");
    // git's own listing, byte order with "a/" after "a.b" and "a-b" but before "a0" and "a=".
    expect(git(store.gitdir, "-c", "core.quotePath=false", "ls-tree", "--name-only", "main").split("\n")).toEqual([
      "Z.md",
      "_x",
      "a-b",
      "a.b",
      "a",
      "a0",
      "a=",
      "assets",
      "b",
      "notes",
      "site.yaml",
      "é.md",
      "\uE000.md",
      "\u{1D4B3}.md",
    ]);
    for (const n of names) expect(await store.readFile("main", n)).toBe(`${n}\n`);
    // Editing an entry in the middle keeps the order; the new tree is written from the cached one.
    await save(store, { "a.b": null, "a/y.md": "y\n", a0: "changed\n" });
    expect(fsck(store.gitdir)).toBe("");
    expect(await store.readFile("main", "a0")).toBe("changed\n");
    expect(await store.readFile("main", "a/y.md")).toBe("y\n");
  });

  it("refuses unsafe or malformed paths, and writes nothing", async () => {
    const store = await freshStore(["AFN-001"]);
    const head = await store.resolve("main");
    const objects = git(store.gitdir, "count-objects");
    for (const bad of [
      "",
      "/etc/passwd",
      "notes/../site.yaml",
      "notes//AFN-001.md",
      "notes/",
      ".git/config",
      "notes/.GIT/x",
      "a\0b",
      "a\\b",
      "Git~1/hooks",
      "notes/.git. /x",
      "a\nb",
    ]) {
      await expect(save(store, { [bad]: "x" }), JSON.stringify(bad)).rejects.toBeInstanceOf(StoreRequestError);
    }
    await expect(save(store, { "site.yaml/inside.md": "x" })).rejects.toThrow(/"site.yaml" is a file/);
    await expect(save(store, { notes: "x" })).rejects.toThrow(/"notes" is a folder/);
    await expect(save(store, { "a/b": "x", a: "y" })).rejects.toThrow(/folder/);
    expect(await store.resolve("main")).toBe(head);
    expect(git(store.gitdir, "count-objects")).toBe(objects);
  });

  it("refuses an empty change set, one that changes nothing, an empty message and a bad ref", async () => {
    const store = await freshStore(["AFN-001"]);
    await expect(save(store, {})).rejects.toThrow(/change set is empty/);
    const same = (await store.readFile("main", "notes/AFN-001.md"))!;
    await expect(save(store, { "notes/AFN-001.md": same })).rejects.toBeInstanceOf(NothingToCommitError);
    await expect(save(store, { "notes/AFN-404.md": null })).rejects.toBeInstanceOf(NothingToCommitError);
    await expect(save(store, { "x.md": "x" }, "  \n ")).rejects.toThrow(/message is empty/);
    for (const ref of ["main", "refs/heads/a..b", "refs/heads/x.lock", "refs/heads/with space", "refs/heads/"]) {
      await expect(store.commit({ ref, expected: null, author: EDITOR, message: "m", changes: { "x.md": "x" } })).rejects.toBeInstanceOf(StoreRequestError);
    }
  });

  it("cleans the author into a header git fsck --strict accepts, and refuses an empty e-mail", async () => {
    const store = await freshStore(["AFN-001"]);
    const head = await store.resolve("main");
    const rev = await store.commit({
      ref: "refs/heads/main",
      expected: head,
      author: { name: "  Eve <admin@evil>\nInjected: yes ", email: " <eve@example.org>\n" },
      message: "Signed",
      changes: { "notes/AFN-002.md": noteFile("AFN-002") },
    });
    expect(rev.author).toEqual({ name: "Eve admin@evil Injected: yes", email: "eve@example.org" });
    expect(git(store.gitdir, "log", "-1", "--format=%an|%ae|%cn|%ce", "main")).toBe(
      "Eve admin@evil Injected: yes|eve@example.org|Field Notes|field-notes@invalid",
    );
    expect(fsck(store.gitdir)).toBe("");
    const nameless = await store.commit({
      ref: "refs/heads/main",
      expected: rev.commit,
      author: { name: "<>", email: "bob@example.org" },
      message: "m",
      changes: { "x.md": "x" },
    });
    expect(nameless.author.name).toBe("bob");
    await expect(
      store.commit({ ref: "refs/heads/main", expected: nameless.commit, author: { name: "Nobody", email: " <> " }, message: "m", changes: { "y.md": "y" } }),
    ).rejects.toThrow(/e-mail is empty/);
  });

  it("starts a draft branch from main, lists it, fast-forwards main to it and deletes it", async () => {
    const store = await freshStore(["AFN-001"]);
    const main = (await store.resolve("main"))!;
    const draft = await store.commit({
      ref: "refs/heads/drafts/AFN-002",
      expected: null,
      parent: main,
      author: EDITOR,
      message: "Draft AFN-002",
      changes: { "notes/AFN-002.md": noteFile("AFN-002", "A draft.", { status: "draft" }) },
    });
    expect(draft.parents).toEqual([main]);
    expect(await store.listRefs("refs/heads/drafts/")).toEqual([{ ref: "refs/heads/drafts/AFN-002", oid: draft.commit }]);
    expect(await store.listRefs("refs/heads/")).toEqual([
      { ref: "refs/heads/drafts/AFN-002", oid: draft.commit },
      { ref: "refs/heads/main", oid: main },
    ]);
    expect((await store.snapshot("drafts/AFN-002")).notes.map((n) => n.id)).toEqual(["AFN-001", "AFN-002"]);
    expect((await store.snapshot("main")).notes.map((n) => n.id)).toEqual(["AFN-001"]);

    await store.updateRef("refs/heads/main", main, draft.commit);
    expect(await store.resolve("main")).toBe(draft.commit);
    await store.updateRef("refs/heads/drafts/AFN-002", draft.commit, null);
    expect(await store.listRefs("refs/heads/drafts/")).toEqual([]);
    expect(git(store.gitdir, "for-each-ref", "--format=%(refname)")).toBe("refs/heads/main");
    // The emptied refs/heads/drafts folder went with it, so a ref by that name can be created.
    expect(fs.existsSync(path.join(store.gitdir, "refs", "heads", "drafts"))).toBe(false);
    await store.updateRef("refs/heads/drafts", null, main);
    expect(await store.resolve("drafts")).toBe(main);
    await expect(store.updateRef("refs/heads/main", main, null)).rejects.toThrow(/is at/);
    await expect(store.updateRef("refs/heads/main", draft.commit, "f".repeat(40))).rejects.toThrow(/not a commit/);
    expect(fsck(store.gitdir)).toBe("");
  });
});

describe("snapshots after a commit", () => {
  it("parse only the note that changed; the others are reused as they were", async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `AFN-${String(i + 1).padStart(3, "0")}`);
    const store = await freshStore(ids);
    const before = await store.snapshot("main");
    const parsedBefore = store.stats().notesParsed;
    expect(parsedBefore).toBe(40);

    await save(store, { "notes/AFN-007.md": noteFile("AFN-007", "Changed.") });
    const after = await store.snapshot("main");
    expect(store.stats().notesParsed - parsedBefore).toBe(1);
    expect(after.notes).toHaveLength(40);
    const seven = after.notes[6];
    expect(seven?.ok && seven.note.summary).toBe("Changed.");
    expect(after.notes[5]).toBe(before.notes[5]);

    // The earlier snapshot is still served, from cache.
    const built = store.stats().snapshotsBuilt;
    expect(await store.snapshot(before.commit)).toBe(before);
    expect(store.stats().snapshotsBuilt).toBe(built);

    // Adding and removing notes parses only the added one.
    await save(store, { "notes/AFN-041.md": noteFile("AFN-041"), "notes/AFN-001.md": null });
    const third = await store.snapshot("main");
    expect(store.stats().notesParsed - parsedBefore).toBe(2);
    expect(third.notes.map((n) => n.id)).toEqual([...ids.slice(1), "AFN-041"]);

    // A new store (a restarted server) reads and parses everything again.
    const cold = createContentStore(store.gitdir, { parse: parseNote });
    expect((await cold.snapshot("main")).notes).toEqual(third.notes);
    expect(cold.stats().notesParsed).toBe(40);
  });
});
