import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createContentStore, ensureContentRepo, SEED_MESSAGE } from "./api";
import { fsck, git, seedFolder, tempDir } from "./testing";
import { parseNote } from "@/lib/notes/markdown";

const made: string[] = [];
const temp = (label: string) => {
  const dir = tempDir(label);
  made.push(dir);
  return dir;
};
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe("creating the content repository", () => {
  it("seeds a bare repository: main holds every file of the seed folder in one commit", async () => {
    const seed = seedFolder(["AFN-001", "AFN-002"]);
    made.push(seed);
    const gitdir = path.join(temp("repo"), "data", "content.git");
    await ensureContentRepo(gitdir, seed);

    expect(git(gitdir, "rev-parse", "--is-bare-repository")).toBe("true");
    expect(git(gitdir, "symbolic-ref", "HEAD")).toBe("refs/heads/main");
    expect(git(gitdir, "ls-tree", "-r", "--name-only", "main").split("\n")).toEqual([
      "assets/diagrams/bank-flip.txt",
      "notes/AFN-001.md",
      "notes/AFN-002.md",
      "site.yaml",
    ]);
    expect(git(gitdir, "rev-list", "--count", "main")).toBe("1");
    expect(git(gitdir, "log", "-1", "--format=%an <%ae>|%cn <%ce>|%s", "main")).toBe(
      `Field Notes <field-notes@invalid>|Field Notes <field-notes@invalid>|${SEED_MESSAGE}`,
    );
    expect(git(gitdir, "show", "main:notes/AFN-002.md")).toBe(fs.readFileSync(path.join(seed, "notes", "AFN-002.md"), "utf8").trim());
    expect(fsck(gitdir)).toBe("");
  });

  it("leaves an existing repository as it is", async () => {
    const gitdir = path.join(temp("repo"), "content.git");
    const first = seedFolder(["AFN-001"]);
    const second = seedFolder(["AFN-001", "AFN-002", "AFN-003"]);
    made.push(first, second);
    await ensureContentRepo(gitdir, first);
    const head = git(gitdir, "rev-parse", "main");
    await ensureContentRepo(gitdir, second);
    expect(git(gitdir, "rev-parse", "main")).toBe(head);
    expect((await createContentStore(gitdir, { parse: parseNote }).snapshot("main")).notes.map((n) => n.id)).toEqual(["AFN-001"]);
  });

  it("ends with one complete repository when several starts race, and no temporary folders", async () => {
    const parent = temp("race");
    const gitdir = path.join(parent, "content.git");
    const seed = seedFolder();
    made.push(seed);
    await Promise.all(Array.from({ length: 6 }, () => ensureContentRepo(gitdir, seed)));
    expect(git(gitdir, "rev-list", "--count", "main")).toBe("1");
    expect(fs.readdirSync(parent)).toEqual(["content.git"]);
    expect(fsck(gitdir)).toBe("");
  });

  it("seeds an empty bare repository made with git init, and points its HEAD at main", async () => {
    const gitdir = path.join(temp("init"), "content.git");
    fs.mkdirSync(gitdir);
    git(gitdir, "init", "--quiet", "--bare", "--initial-branch=master");
    const seed = seedFolder(["AFN-001"]);
    made.push(seed);
    await Promise.all([ensureContentRepo(gitdir, seed), ensureContentRepo(gitdir, seed)]);
    expect(git(gitdir, "rev-list", "--count", "main")).toBe("1");
    expect(git(gitdir, "symbolic-ref", "HEAD")).toBe("refs/heads/main");
    expect(git(gitdir, "ls-tree", "-r", "--name-only", "main")).toContain("notes/AFN-001.md");
    expect(fsck(gitdir)).toBe("");
    // A repository that has any branch is never touched.
    const other = path.join(temp("init"), "other.git");
    fs.mkdirSync(other);
    git(other, "init", "--quiet", "--bare", "--initial-branch=trunk");
    const work = temp("init-work");
    git(work, "init", "--quiet", "--initial-branch=trunk");
    fs.writeFileSync(path.join(work, "README"), "mine\n");
    git(work, "add", "README");
    git(work, "commit", "--quiet", "-m", "Mine");
    git(work, "push", "--quiet", other, "trunk");
    await ensureContentRepo(other, seed);
    expect(git(other, "for-each-ref", "--format=%(refname)")).toBe("refs/heads/trunk");
    expect(git(other, "symbolic-ref", "HEAD")).toBe("refs/heads/trunk");
  });

  it("refuses to take over a folder that holds something else", async () => {
    const gitdir = temp("foreign");
    fs.writeFileSync(path.join(gitdir, "notes.txt"), "mine");
    const seed = seedFolder();
    made.push(seed);
    await expect(ensureContentRepo(gitdir, seed)).rejects.toThrow(/is not a git repository/);
    expect(fs.readdirSync(gitdir)).toEqual(["notes.txt"]);
  });

  it("says so when the seed folder is missing", async () => {
    const gitdir = path.join(temp("noseed"), "content.git");
    await expect(ensureContentRepo(gitdir, path.join(gitdir, "..", "nowhere"))).rejects.toThrow(/seed folder .*nowhere does not exist/);
    expect(fs.existsSync(gitdir)).toBe(false);
  });
});
