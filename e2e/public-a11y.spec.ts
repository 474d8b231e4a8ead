import { expect, test } from "@playwright/test";
import { seriousViolations } from "./support/axe";

/** No serious or critical accessibility violation on the pages a reader uses, in light and dark. */

const PAGES = [
  "/",
  "/notes/AFN-016",
  "/notes/AFN-003",
  "/notes/AFN-016/history",
  "/search?q=sparse+attention",
  "/?status=hypothesis",
  "/tags/sparse-attention",
  "/phases/5",
  "/agents/",
  "/notes/AFN-999",
];

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`${colorScheme} scheme`, () => {
    test.use({ colorScheme });
    for (const url of PAGES) {
      test(`axe finds nothing serious on ${url}`, async ({ page }) => {
        await page.goto(url);
        await page.waitForLoadState("networkidle");
        const serious = await seriousViolations(page);
        expect(serious, serious.join("\n")).toEqual([]);
      });
    }
  });
}
