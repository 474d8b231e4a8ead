import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";

/** No serious or critical accessibility violation on the pages a reader uses, in light and dark. */

const PAGES = ["/", "/notes/AFN-016", "/notes/AFN-003", "/notes/AFN-016/history", "/search?q=sparse+attention", "/?status=hypothesis", "/tags/sparse-attention", "/notes/AFN-999"];

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`${colorScheme} scheme`, () => {
    test.use({ colorScheme });
    for (const url of PAGES) {
      test(`axe finds nothing serious on ${url}`, async ({ page }) => {
        await page.goto(url);
        await page.waitForLoadState("networkidle");
        const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
        const serious = results.violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("\n  ")}`);
        expect(serious, serious.join("\n")).toEqual([]);
      });
    }
  });
}
