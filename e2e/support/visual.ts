import fs from "node:fs";
import { expect, type APIRequestContext, type Page } from "@playwright/test";

/**
 * The visual snapshots' data. They run in a Playwright run of their own (`npm run test:visual`, which
 * sets E2E_VISUAL=1 for playwright.config.ts) over a fresh data folder, because the other specs
 * publish notes and close phases on theirs, which would change the home page, search and the phase
 * pages under the snapshots. Nothing but e2e/visual.setup.ts writes to this folder, so what the
 * snapshots show is the seed plus the setup's two notes.
 */

function visualDataDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error("E2E_DATA_DIR is not set: run the tests through playwright.config.ts");
  return dir;
}

/** Where the setup leaves the signed-in sessions (beside the data folder, not in it). */
export const storageState = (role: "author" | "reviewer") => `${visualDataDir()}-auth/${role}.json`;

/** The ids the setup's drafts got, left beside the sessions for the snapshots. */
export const notesFile = () => `${visualDataDir()}-auth/notes.json`;
export type VisualNotes = { draft: string; proposed: string };
export const visualNotes = (): VisualNotes => JSON.parse(fs.readFileSync(notesFile(), "utf8")) as VisualNotes;

/** The drafts the setup writes, in this order, on a fresh folder: the ids follow the seed's 21 notes. */
export const DRAFT_TITLE = "Prefetch the next expert block while the current one decodes";
export const PROPOSED_TITLE = "Keep the router's top-k on the GPU between decode steps";

export async function api(request: APIRequestContext, token: string, method: "GET" | "POST" | "PUT", url: string, data?: unknown) {
  const response = await request.fetch(url, { method, data, headers: { authorization: `Bearer ${token}` } });
  const body = await response.json();
  expect(response.ok(), `${method} ${url}: ${JSON.stringify(body)}`).toBe(true);
  return body;
}

/** Waits until the page's height has held still for a moment (late client components, images, fonts). */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await page.waitForFunction(
    () =>
      new Promise<boolean>((resolve) => {
        const first = document.documentElement.scrollHeight;
        setTimeout(() => resolve(document.documentElement.scrollHeight === first), 400);
      }),
    undefined,
    { polling: 100, timeout: 15_000 },
  );
}

/**
 * What changes from run to run, made the same before a snapshot: the seed's commit is made at server
 * start, so commit ids and every date differ per run, and the drafts' save times are real times.
 * Each is replaced in the page by a fixed text of the same kind (so the layout around it is the same
 * every run); what it replaced is listed in the spec's header.
 */
export async function freezeRunFacts(page: Page): Promise<void> {
  await page.evaluate(() => {
    const FIXED_DATE = new Date(Date.UTC(2026, 4, 15, 9, 30));
    const fixedText = (text: string): string => {
      let out = text;
      // A short commit id standing alone (a <code> or a span of its own) may be all digits: 1 run in 27 at 7 digits.
      if (/^\s*[0-9a-f]{7,40}\s*$/.test(out)) return out.replace(/[0-9a-f]+/, (m) => "0123456789abcdef0123456789abcdef01234567".slice(0, m.length));
      // Full and short commit ids in running text (7 to 40 hex digits with at least one digit and one letter a-f).
      out = out.replace(/\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b/g, (m) => "0123456789abcdef0123456789abcdef01234567".slice(0, m.length));
      // Dates as the pages write them: "3 December 2026", "3 Dec 2026", "3 Dec", with an optional time.
      out = out.replace(
        /\b\d{1,2} (January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\b( \d{4})?/g,
        // May is both the long and the short name, so the fixed date reads right in either format.
        (_m, _month: string, year?: string) => `15 May${year ? " 2026" : ""}`,
      );
      out = out.replace(/\b\d{4}-\d{2}-\d{2}(T[0-9:.]+Z?)?\b/g, (m) => FIXED_DATE.toISOString().slice(0, m.length));
      out = out.replace(/\b\d{1,2}:\d{2}(:\d{2})?( UTC)?\b/g, (_m, seconds?: string, utc?: string) => `09:30${seconds ? ":00" : ""}${utc ?? ""}`);
      // Relative times ("2 min ago", "just now", "3 hours ago").
      out = out.replace(/\b(\d+ (seconds?|s|min|minutes?|hours?|h|days?) ago|just now|a few seconds ago|a minute ago)\b/g, "2 min ago");
      // The server's own address (its port differs between CI and a local run).
      out = out.split(location.origin).join("http://127.0.0.1:3100");
      return out;
    };
    const freeze = (root: Node) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node: Node | null = root.nodeType === Node.TEXT_NODE ? root : walker.nextNode(); node; node = walker.nextNode()) {
        const before = node.nodeValue ?? "";
        const after = fixedText(before);
        // Only a real change is written, so the observer below does not wake itself up.
        if (after !== before) node.nodeValue = after;
      }
    };
    freeze(document.body);
    for (const input of Array.from(document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input, textarea"))) {
      const after = fixedText(input.value);
      if (after !== input.value) input.value = after;
    }
    // A select is as wide as its longest option, and Chromium keeps that width after an option's
    // text changes until the select is laid out again.
    for (const select of Array.from(document.querySelectorAll<HTMLSelectElement>("select"))) {
      const display = select.style.display;
      select.style.display = "none";
      void select.offsetWidth;
      select.style.display = display;
    }
    // React may write the text again afterwards (a late hydration, a query refetch, a ticking "ago"):
    // freeze whatever it writes, before the browser paints it.
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === "characterData") freeze(record.target);
        for (const added of Array.from(record.addedNodes)) freeze(added);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}
