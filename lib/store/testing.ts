import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { serializeNote } from "@/lib/notes/markdown";
import type { NoteInput } from "@/lib/notes/schema";

/**
 * Helpers for the store's tests and benchmark: real repositories in the temp folder and native git
 * run as a separate process, exactly as an agent or an operator would use it.
 */

export function tempDir(label: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `field-notes-${label}-`));
}

const GIT_ENV = {
  GIT_AUTHOR_NAME: "Plain Git",
  GIT_AUTHOR_EMAIL: "plain-git@example.org",
  GIT_COMMITTER_NAME: "Plain Git",
  GIT_COMMITTER_EMAIL: "plain-git@example.org",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

/** Run native git in `cwd`; its stdout, trimmed. Throws with git's stderr on failure. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...GIT_ENV }, stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** `git fsck --strict` on a bare repository: the empty string when it is clean. */
export function fsck(gitdir: string): string {
  return execFileSync("git", ["--git-dir", gitdir, "fsck", "--strict", "--no-dangling"], {
    encoding: "utf8",
    env: { ...process.env, ...GIT_ENV },
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
}

/** A valid note file for `id` (AFN-NNN), with a summary that says `summary`. */
export function noteFile(id: string, summary = `What ${id} decided.`, extra: Partial<NoteInput> = {}): string {
  return serializeNote({
    id,
    title: `Decision ${id}`,
    summary,
    status: "verified-checkpoint",
    phase: "Phase 6 architecture",
    tags: ["storage"],
    order: Number(id.replace(/\D/g, "")),
    sections: {
      decision: `Keep ${id} transactional.`,
      invariant: "No reader sees half a write.",
      rejectedShortcut: "Publishing each part as soon as it is ready.",
      evidence: "- a test that fails when the lock is removed",
      claimBoundary: "Says nothing about speed.",
      notes: "",
    },
    ...extra,
  });
}

/** The project's own site file (tests and scripts run from the repository root). */
export const siteYaml = () => fs.readFileSync(path.resolve(process.cwd(), "content", "site.yaml"), "utf8");

/** A seed folder like the project's content/: site.yaml, notes, and a nested file. */
export function seedFolder(ids: string[] = ["AFN-001", "AFN-002", "AFN-003"]): string {
  const dir = tempDir("seed");
  fs.mkdirSync(path.join(dir, "notes"));
  fs.writeFileSync(path.join(dir, "site.yaml"), siteYaml());
  for (const id of ids) fs.writeFileSync(path.join(dir, "notes", `${id}.md`), noteFile(id));
  fs.mkdirSync(path.join(dir, "assets", "diagrams"), { recursive: true });
  fs.writeFileSync(path.join(dir, "assets", "diagrams", "bank-flip.txt"), "A -> B\n");
  return dir;
}
