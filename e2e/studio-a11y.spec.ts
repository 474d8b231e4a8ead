import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { AUTHOR, createNote, ensureAccounts, signIn } from "./support/studio";

/** The studio's pages have no WCAG A/AA violations axe can find: sign-in, the list, and the editor with its errors showing. */

test.describe.configure({ timeout: 120_000 });
test.beforeAll(() => ensureAccounts());

async function violations(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

test("sign-in, the studio list and the editor pass axe", async ({ page }) => {
  await page.goto("/sign-in");
  expect(await violations(page)).toEqual([]);
  await signIn(page, AUTHOR);
  expect(await violations(page)).toEqual([]);
  await createNote(page);
  await expect(page.getByLabel("Evidence", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByLabel("Title", { exact: true })).toHaveAccessibleDescription(/title is empty/);
  expect(await violations(page)).toEqual([]);
});
