import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { noteFile } from "@/lib/store/testing";

/**
 * Commits `files` to `branch` of the bare repository `gitdir` the way an agent outside the app
 * would: native git, a clone, a commit and a push (a file given as null is deleted). Tests use it
 * to hold the app to what plain git writes.
 */
export function commitWithGit(gitdir: string, files: Record<string, string | null>, branch = "main"): void {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-clone-"));
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: work,
      env: { ...process.env, GIT_AUTHOR_NAME: "Agent", GIT_AUTHOR_EMAIL: "a@example.org", GIT_COMMITTER_NAME: "Agent", GIT_COMMITTER_EMAIL: "a@example.org" },
    });
  try {
    git("clone", "--quiet", gitdir, ".");
    git("checkout", "--quiet", "-B", branch);
    for (const [f, text] of Object.entries(files)) {
      if (text === null) fs.rmSync(path.join(work, f));
      else {
        fs.mkdirSync(path.dirname(path.join(work, f)), { recursive: true });
        fs.writeFileSync(path.join(work, f), text);
      }
    }
    git("add", "-A");
    git("commit", "--quiet", "-m", "plain git commit");
    git("push", "--quiet", "origin", `HEAD:refs/heads/${branch}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * A note file the rules accept on main from plain git (lib/content/accepted-main.ts serves only
 * those): a new hypothesis in one of the seed's phases, at the order its number gives it.
 */
export function acceptedNoteFile(id: string, summary?: string): string {
  return noteFile(id, summary, { status: "hypothesis", phase: "6 architecture" });
}
