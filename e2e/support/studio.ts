import { execFileSync } from "node:child_process";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { contentRepoPath } from "./content-repo";

/**
 * The studio's end-to-end helpers: accounts made with the real CLI (`npm run user`) against the
 * server's data folder, sign-in through the real form, and native git on the content repository.
 */

export const AUTHOR = { name: "e2e-author", password: "author's long e2e password" };
export const REVIEWER = { name: "e2e-reviewer", password: "reviewer's long e2e password" };

function dataDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error("E2E_DATA_DIR is not set: run the tests through playwright.config.ts");
  return dir;
}

function user(args: string[], input?: string): string {
  return execFileSync(path.resolve("node_modules/.bin/tsx"), ["scripts/user.ts", ...args], {
    env: { ...process.env, DATA_DIR: dataDir() },
    input,
    encoding: "utf8",
    stdio: ["pipe", "pipe", "pipe"],
  }).trim();
}

/** Create the e2e accounts with the CLI, once per data folder (a second worker finds them there). */
export function ensureAccounts(): void {
  for (const [account, role] of [
    [AUTHOR, "author"],
    [REVIEWER, "reviewer"],
  ] as const) {
    try {
      user(["add", account.name, "--role", role], `${account.password}\n`);
    } catch (e) {
      const stderr = String((e as { stderr?: string }).stderr ?? e);
      if (!stderr.includes("already exists")) throw e;
    }
  }
}

/** A new API token for the account, as `npm run user -- token` prints it. */
export function newToken(name: string): string {
  return user(["token", name, "--label", "e2e"]);
}

export async function signIn(page: Page, account: { name: string; password: string }, to = "/studio"): Promise<void> {
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(to)}`);
  await page.getByLabel("Account").fill(account.name);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname === to);
}

/**
 * A note to work on, with its id known before anything is written: the id is claimed through the
 * API (POST /api/studio/notes with no content, as a script may) in the signed-in session, and the
 * editor opened at it. The studio's own "New note" claims the id on the first save instead: see
 * openNewNote and saveNewNote.
 */
export async function createNote(page: Page): Promise<string> {
  const created = await page.request.post("/api/studio/notes", { data: {} });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/studio/notes/${id}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(id);
  return id;
}

/** "New note" on /studio: an empty form at /studio/notes/new, with no id until the first save. */
export async function openNewNote(page: Page): Promise<void> {
  await page.goto("/studio");
  await page.getByRole("link", { name: "New note" }).click();
  await page.waitForURL(/\/studio\/notes\/new$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("New note");
}

/** The first save of a new note: answers the id the server claimed, read from the editor's new address. */
export async function saveNewNote(page: Page): Promise<string> {
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.waitForURL(/\/studio\/notes\/[A-Z]+-\d{3,}$/);
  const id = new URL(page.url()).pathname.split("/").pop() ?? "";
  await expect(page.getByRole("heading", { level: 1 })).toContainText(id);
  await expect(saveState(page)).toHaveText(/^Saved .* · all changes saved$/);
  return id;
}

/** A section's Markdown editor, found by its accessible name (the section heading). */
export const section = (page: Page, name: string) => page.getByLabel(name, { exact: true });

/** The save bar's sentence ("Saved 2 min ago · 3 unsaved changes"). */
export const saveState = (page: Page) => page.getByTestId("save-state");

export async function fillRequired(page: Page, title: string): Promise<void> {
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByLabel("Summary", { exact: true }).fill(`What ${title} decides, in one line.`);
  await page.getByLabel("Phase", { exact: true }).selectOption("6 architecture");
  // Tags are chips: typed, then taken when the field is left.
  await page.getByLabel("Tags", { exact: true }).fill("studio, e2e");
  await section(page, "Decision").fill(`Decide ${title}.`);
}

/** Save and wait until the save bar says everything is saved. */
export async function save(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("button", { name: "Save", exact: true })).toBeEnabled();
  await expect(page.locator("[aria-live=polite]").filter({ hasText: /^(Saved\.|Nothing changed since the last save\.)$/ })).toBeVisible();
  await expect(saveState(page)).toHaveText(/^Saved .* · all changes saved$/);
}

/**
 * The editor's status line once this page's publish has landed: "Published: /notes/ID" stands
 * already for a note published before, and only a publish made here adds its commit.
 */
export const publishLanded = (page: Page) => page.getByRole("status").filter({ hasText: /Published: .* \(commit [0-9a-f]{7}\)/ });

/**
 * `git fsck --strict` on the live content repository, which the other worker's tests may be writing
 * to: a ref deleted between fsck's listing and its read (a publish or a discard removes a draft
 * branch) fails one pass. A real fault fails every pass, so three passes a second apart must all
 * fail; the last one's own words are the error.
 */
export async function fsckStrict(): Promise<string> {
  let last = "";
  for (let pass = 1; pass <= 3; pass++) {
    try {
      return git("fsck", "--strict", "--no-dangling");
    } catch (e) {
      last = String((e as { stderr?: string }).stderr ?? e);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  throw new Error(`git fsck --strict failed three times:\n${last}`);
}

export function git(...args: string[]): string {
  return execFileSync("git", ["--git-dir", contentRepoPath(), ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}
