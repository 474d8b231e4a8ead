import { expect, test, type Locator, type Page } from "@playwright/test";
import { seriousViolations } from "./support/axe";
import { freezeRunFacts, settle, storageState, visualNotes, type VisualNotes } from "./support/visual";

/**
 * Visual snapshots: every page a reader, an author and a reviewer use, at a phone (390 px) and a
 * laptop (1280 px) width, in light and dark, compared with the committed baselines in
 * e2e/visual.spec.ts-snapshots/. A change to how any of them looks fails here until the baselines
 * are taken again and the new pictures are reviewed in the commit:
 *
 *   npm run test:visual -- --update-snapshots
 *
 * Runs against its own server over a fresh data folder (project "visual" in playwright.config.ts),
 * written only by e2e/visual.setup.ts, so other specs' notes and phase closeouts never show here.
 *
 * What changes per run is made the same before each shot (support/visual.ts, freezeRunFacts): the
 * seed's commit is made when the server starts, so on every public page the commit ids ("Read from
 * published commit …", history) and dates ("Updated …", history, phase records) are replaced by a
 * fixed id and 15 May 2026; in the studio the same goes for revision ids, save dates and times and
 * relative times ("Saved 2 min ago"). Nothing is masked out as a box. Animations and the caret are
 * off (Playwright's defaults for toHaveScreenshot) and the fonts are awaited.
 */

type Who = "anonymous" | "author" | "reviewer";
/** `axe`: the page is also held to axe's serious and critical rules (support/axe.ts) in the same width and scheme. */
type Shot = { name: string; who: Who; path: (notes: VisualNotes) => string; ready?: (page: Page) => Promise<void>; axe?: true };

const SHOTS: Shot[] = [
  { name: "home", who: "anonymous", path: () => "/" },
  { name: "note", who: "anonymous", path: () => "/notes/AFN-016" },
  { name: "history", who: "anonymous", path: () => "/notes/AFN-016/history" },
  { name: "search", who: "anonymous", path: () => "/search?q=sparse+attention" },
  { name: "phase", who: "anonymous", path: () => "/phases/5" },
  { name: "agent-guide", who: "anonymous", path: () => "/agents/" },
  { name: "sign-in", who: "anonymous", path: () => "/sign-in" },
  { name: "studio-list", who: "author", path: () => "/studio" },
  { name: "editor", who: "author", path: (n) => `/studio/notes/${n.draft}` },
  // A verified note's rewritten Decision: Publish is held back, and the panel says why and what to do.
  { name: "editor-verified-change", who: "author", path: () => "/studio/notes/AFN-016" },
  { name: "review", who: "reviewer", path: (n) => `/studio/notes/${n.proposed}/review` },
  { name: "inbox", who: "reviewer", path: () => "/studio/reviews" },
  // The people and phases pages (issue #31): the reviewer's notifications (the setup's review request), mail
  // and feed settings, one's display name, the webhooks (authors), the phases with their actions.
  { name: "notifications", who: "reviewer", path: () => "/studio/notifications", axe: true },
  { name: "notification-settings", who: "reviewer", path: () => "/studio/notifications/settings", axe: true },
  { name: "account", who: "author", path: () => "/studio/account", axe: true },
  { name: "webhooks", who: "author", path: () => "/studio/webhooks", axe: true },
  { name: "studio-phases", who: "author", path: () => "/studio/phases", axe: true },
];

/**
 * How different a pixel must be to count, as Playwright's `threshold` (0-1, on pixelmatch's YIQ
 * distance). Its default, 0.2, let the status palette change unseen: the verified-checkpoint pill
 * redrawn in the structural blue (#e1f1e5 → #e1ebf7) is 0.025 apart, its text green → blue 0.099.
 * 0.01 sees those; anti-aliased edges are judged apart by pixelmatch, and a handful of shifted
 * pixels by maxDiffPixels below.
 */
const THRESHOLD = 0.01;

/**
 * Every status's pill, each in its own colours: the agent guide's table of the published statuses
 * (a draft's pill is in the studio list and the editor shots). The status colours as tokens.css names them.
 */
const STATUS_TOKENS = ["hypothesis", "checkpoint", "structural", "superseded", "retracted"] as const;
const STATUS_OF: Record<(typeof STATUS_TOKENS)[number], string> = {
  hypothesis: "hypothesis",
  checkpoint: "verified-checkpoint",
  structural: "verified-structural",
  superseded: "superseded",
  retracted: "retracted",
};
const statusTable = (page: Page) => page.getByRole("table", { name: "What each published status means" });

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

for (const colorScheme of ["light", "dark"] as const) {
  for (const viewport of WIDTHS) {
    test.describe(`${viewport.width} px, ${colorScheme}`, () => {
      for (const shot of SHOTS) {
        test(`${shot.name} looks as reviewed`, async ({ browser, baseURL }) => {
          const context = await browser.newContext({
            baseURL,
            colorScheme,
            viewport,
            storageState: shot.who === "anonymous" ? undefined : storageState(shot.who),
          });
          try {
            const page = await context.newPage();
            const response = await page.goto(shot.path(visualNotes()));
            expect(response?.status()).toBe(200);
            await page.waitForLoadState("networkidle");
            await shot.ready?.(page);
            await settle(page);
            if (shot.axe) expect(await seriousViolations(page), `axe on ${shot.name}, ${viewport.width} px, ${colorScheme}`).toEqual([]);
            await freezeRunFacts(page);
            await expect(page).toHaveScreenshot(`${shot.name}-${viewport.width}-${colorScheme}.png`, {
              fullPage: true,
              timeout: 30_000,
              threshold: THRESHOLD,
              // A sub-pixel shift of one control between runs (seen: 146 pixels on the 390 px editor, whose
              // fields size themselves to their text) is noise; a changed colour, badge or line of text is
              // thousands of pixels. An absolute count, so a tall page gets no more slack than a short one.
              maxDiffPixels: 300,
            });
          } finally {
            await context.close();
          }
        });
      }
    });
  }
}

/**
 * The status pills up close, so a change of any status's colours is a reviewed change: one picture
 * per width and scheme of the guide's status table, and a proof that the comparison sees each
 * status's background and text colour move (a colour swapped for its neighbour's must fail it).
 */
const pillShot = (table: Locator, name: string, timeout = 30_000) => expect(table).toHaveScreenshot(name, { timeout, threshold: THRESHOLD, maxDiffPixels: 20 });

for (const colorScheme of ["light", "dark"] as const) {
  for (const viewport of WIDTHS) {
    test(`${viewport.width} px, ${colorScheme}: every status's pill keeps its colours`, async ({ browser, baseURL }, info) => {
      const context = await browser.newContext({ baseURL, colorScheme, viewport });
      try {
        const page = await context.newPage();
        expect((await page.goto("/agents/"))?.status()).toBe(200);
        await settle(page);
        const table = statusTable(page);
        await expect(table.locator(".status")).toHaveCount(STATUS_TOKENS.length);
        const name = `status-pills-${viewport.width}-${colorScheme}.png`;
        await pillShot(table, name);
        // Taking baselines again would store the changed colours as the new truth: prove only against stored ones.
        if (info.config.updateSnapshots === "all" || info.config.updateSnapshots === "changed") return;
        for (const [i, token] of STATUS_TOKENS.entries()) {
          const other = STATUS_TOKENS[(i + 1) % STATUS_TOKENS.length]!;
          for (const part of ["bg", "fg"] as const) {
            // The neighbour's colour as the browser resolves it, set where tokens.css sets the token (:root, both schemes).
            await page.evaluate(
              ([t, o, p]) => {
                const probe = document.createElement("span");
                probe.className = `badge status status--${o}`;
                document.body.append(probe);
                const seen = getComputedStyle(probe);
                document.documentElement.style.setProperty(`--${t}-${p}`, p === "bg" ? seen.backgroundColor : seen.color);
                probe.remove();
              },
              [token, STATUS_OF[other], part] as const,
            );
            await expect(pillShot(table, name, 3_000), `--${token}-${part} drawn as ${other}'s must fail the shot`).rejects.toThrow();
            await page.evaluate(([t, p]) => document.documentElement.style.removeProperty(`--${t}-${p}`), [token, part] as const);
          }
        }
        // And back as stored.
        await pillShot(table, name);
      } finally {
        await context.close();
      }
    });
  }
}
