import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { tempDir } from "@/lib/store/testing";

/**
 * Tests and the benchmark: a code repository with decision records, its history made by native
 * git with the authors and dates given, as a team's repository would have it.
 */

export type Author = { name: string; email: string };

export type SourceRepo = {
  dir: string;
  /** One commit: files written (text or bytes), renamed (`{ from }`) or deleted (null). Answers its id. */
  commit(files: Record<string, string | Buffer | null | { from: string }>, by: Author, date: string, message: string): string;
  git(...args: string[]): string;
};

export function sourceRepo(label = "adr-source"): SourceRepo {
  const dir = tempDir(label);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: gitEnv() }).trim();
  git("init", "--quiet", "-b", "trunk");
  return {
    dir,
    git,
    commit(files, by, date, message) {
      for (const [file, content] of Object.entries(files)) {
        const target = path.join(dir, file);
        if (content === null) git("rm", "--quiet", file);
        else if (typeof content === "object" && !Buffer.isBuffer(content)) {
          fs.mkdirSync(path.dirname(target), { recursive: true });
          git("mv", content.from, file);
        } else {
          fs.mkdirSync(path.dirname(target), { recursive: true });
          fs.writeFileSync(target, content);
          git("add", file);
        }
      }
      const env = { ...gitEnv(), GIT_AUTHOR_NAME: by.name, GIT_AUTHOR_EMAIL: by.email, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
      execFileSync("git", ["commit", "--quiet", "-m", message], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
      return git("rev-parse", "HEAD");
    },
  };
}

function gitEnv() {
  return {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_COMMITTER_NAME: "CI",
    GIT_COMMITTER_EMAIL: "ci@example.org",
  };
}
