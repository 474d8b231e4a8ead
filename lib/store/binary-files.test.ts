import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createContentStore, ensureContentRepo } from "./api";
import { fsck, git, seedFolder, tempDir } from "./testing";
import { parseNote } from "@/lib/notes/markdown";

/** A note's images are binary files: staged as blobs, committed with the note in one commit, read back byte for byte. */

const made: string[] = [];
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const EDITOR = { name: "Ada Editor", email: "ada@example.org" };

describe("binary files", () => {
  it("commits bytes and text together, reads the same bytes back, and native git agrees", async () => {
    const seed = seedFolder(["AFN-001"]);
    const dir = tempDir("binary");
    made.push(seed, dir);
    const gitdir = path.join(dir, "content.git");
    await ensureContentRepo(gitdir, seed);
    const store = createContentStore(gitdir, { parse: parseNote });

    // Every byte value, including ones that are not valid UTF-8: a text round-trip would mangle them.
    const bytes = Uint8Array.from({ length: 512 }, (_, i) => i % 256);
    const staged = await store.writeBlob(bytes);
    expect(Buffer.from((await store.readBlob(staged))!)).toEqual(Buffer.from(bytes));

    const head = await store.resolve("refs/heads/main");
    const rev = await store.commit({
      ref: "refs/heads/main",
      expected: head,
      author: EDITOR,
      message: "Image with its note",
      changes: { "assets/AFN-001/x.bin": bytes, "notes/AFN-001.md": (await store.readFile(head!, "notes/AFN-001.md"))! + "\n" },
    });
    expect(await store.fileId(rev.commit, "assets/AFN-001/x.bin")).toBe(staged);
    expect(Buffer.from((await store.readBytes(rev.commit, "assets/AFN-001/x.bin"))!)).toEqual(Buffer.from(bytes));
    expect(
      git(gitdir, "show", "--stat", "--format=", rev.commit)
        .split("\n")
        .map((l) => l.trim().split(/\s+/)[0]),
    ).toEqual(expect.arrayContaining(["assets/AFN-001/x.bin", "notes/AFN-001.md"]));
    expect(git(gitdir, "cat-file", "-s", `${rev.commit}:assets/AFN-001/x.bin`)).toBe("512");
    expect(fsck(gitdir)).toBe("");

    // A tree's id is not a blob: asked for as one, it is simply not there.
    const tree = git(gitdir, "rev-parse", `${rev.commit}^{tree}`);
    expect(await store.readBlob(tree)).toBeNull();
    expect(await store.readBlob("not-an-id")).toBeNull();
  });
});
