import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isUploadPackAdvertisement, nameHeadIfMissing } from "./advertisement";
import { git, tempDir } from "./testing";

/**
 * The ref advertisement as git's own upload-pack writes it (what `git http-backend` sends after
 * its `# service=` line), for a repository with no refs, one whose HEAD names a branch it lacks,
 * and one whose HEAD is its main.
 */

let root: string;
const advertise = (repo: string) =>
  Buffer.concat([
    Buffer.from("001e# service=git-upload-pack\n0000", "latin1"),
    execFileSync("git", ["upload-pack", "--advertise-refs", "--stateless-rpc", path.join(root, repo)], {
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
    }),
  ]);
const refNames = (body: Buffer) =>
  body
    .toString("latin1")
    .split("\n")
    .map((l) => l.split("\0")[0]!.split(" ")[1])
    .filter(Boolean);

beforeAll(() => {
  root = tempDir("advertisement");
  git(root, "init", "-q", "--bare", "-b", "master", "empty.git");
  git(root, "init", "-q", "--bare", "-b", "master", "headless.git");
  git(root, "init", "-q", "--bare", "-b", "main", "normal.git");
  git(root, "init", "-q", "-b", "main", "work");
  git(path.join(root, "work"), "commit", "-q", "--allow-empty", "-m", "first");
  git(path.join(root, "work"), "push", "-q", "../headless.git", "main", "main:refs/heads/drafts/AFN-001");
  git(path.join(root, "work"), "push", "-q", "../normal.git", "main");
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("nameHeadIfMissing", () => {
  it("names a HEAD (main) when the remote lists refs but no HEAD, and keeps every ref and capability", () => {
    const before = advertise("headless.git");
    expect(refNames(before)).not.toContain("HEAD");
    const after = nameHeadIfMissing(before);
    expect(after.toString("latin1")).toContain(" symref=HEAD:refs/heads/main\n");
    expect(refNames(after)).toEqual(refNames(before));
    // Still well-formed pkt-lines: each length prefix covers its line exactly, ending on a flush.
    let at = 0;
    const lengths: number[] = [];
    while (at < after.length) {
      const len = Number.parseInt(after.toString("latin1", at, at + 4), 16);
      lengths.push(len);
      at += len === 0 ? 4 : len;
    }
    expect(at).toBe(after.length);
    expect(lengths.at(-1)).toBe(0);
    const caps = (b: Buffer) => b.toString("latin1").split("\0")[1]!.split("\n")[0]!.split(" ");
    expect(caps(after)).toEqual([...caps(before), "symref=HEAD:refs/heads/main"]);
  });

  it("leaves an advertisement with no refs, or with a HEAD, exactly as it was", () => {
    for (const repo of ["empty.git", "normal.git"]) {
      const before = advertise(repo);
      expect(nameHeadIfMissing(before).equals(before)).toBe(true);
    }
    expect(refNames(advertise("normal.git"))).toContain("HEAD");
    const garbage = Buffer.from("not a git answer");
    expect(nameHeadIfMissing(garbage)).toBe(garbage);
  });

  it("is applied to upload-pack's advertisement only", () => {
    expect(isUploadPackAdvertisement("GET", "http://h/a.git/info/refs?service=git-upload-pack")).toBe(true);
    expect(isUploadPackAdvertisement("GET", "http://h/a.git/info/refs?service=git-receive-pack")).toBe(false);
    expect(isUploadPackAdvertisement("POST", "http://h/a.git/git-upload-pack")).toBe(false);
  });
});
