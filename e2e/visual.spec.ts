import { expect, test, type Page } from "@playwright/test";
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
type Shot = { name: string; who: Who; path: (notes: VisualNotes) => string; ready?: (page: Page) => Promise<void> };

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
  { name: "review", who: "reviewer", path: (n) => `/studio/notes/${n.proposed}/review` },
  { name: "inbox", who: "reviewer", path: () => "/studio/reviews" },
];

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
            await freezeRunFacts(page);
            await expect(page).toHaveScreenshot(`${shot.name}-${viewport.width}-${colorScheme}.png`, {
              fullPage: true,
              timeout: 30_000,
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
