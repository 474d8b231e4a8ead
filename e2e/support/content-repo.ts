import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Plain-git access to the server's content repository, as an agent or a person outside the app
 * would commit: clone, write files, commit, push. The server must see the result on its next request.
 */

export function contentRepoPath(): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set: run the tests through playwright.config.ts");
  return path.join(dataDir, "content.git");
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "Plain Git Agent",
      GIT_AUTHOR_EMAIL: "agent@example.org",
      GIT_COMMITTER_NAME: "Plain Git Agent",
      GIT_COMMITTER_EMAIL: "agent@example.org",
    },
  });
}

/** Commit files (path → content, or null to delete) on `branch` of the content repository with plain git. */
export function commitWithGit(
  files: Record<string, string | null>,
  { branch = "main", message = "Commit from plain git" }: { branch?: string; message?: string } = {},
): string {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-e2e-"));
  try {
    git(work, "clone", "--quiet", contentRepoPath(), ".");
    const exists = git(work, "ls-remote", "--heads", "origin", branch).trim() !== "";
    if (exists) git(work, "checkout", "--quiet", branch);
    else git(work, "checkout", "--quiet", "-b", branch);
    for (const [file, content] of Object.entries(files)) {
      const full = path.join(work, file);
      if (content === null) fs.rmSync(full, { force: true });
      else {
        fs.mkdirSync(path.dirname(full), { recursive: true });
        fs.writeFileSync(full, content);
      }
    }
    git(work, "add", "-A");
    git(work, "commit", "--quiet", "-m", message);
    // Another test may push to the same branch meanwhile: rebase onto it and try again.
    for (let attempt = 1; ; attempt++) {
      try {
        git(work, "push", "--quiet", "origin", `HEAD:refs/heads/${branch}`);
        break;
      } catch (e) {
        if (!exists || attempt >= 5) throw e;
        git(work, "pull", "--quiet", "--rebase", "origin", branch);
      }
    }
    return git(work, "rev-parse", "HEAD").trim();
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The commit `main` of the content repository names now, read with plain git. */
export function mainCommit(): string {
  return git(contentRepoPath(), "rev-parse", "refs/heads/main").trim();
}

/** The content of a file on a branch of the content repository, read with plain git. */
export function readWithGit(file: string, branch = "main"): string {
  return git(contentRepoPath(), "show", `${branch}:${file}`);
}
