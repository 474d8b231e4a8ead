import { expect, test } from "@playwright/test";
import { AUTHOR, ensureAccounts, signIn } from "./support/studio";

/**
 * An answer the studio cannot read (a server of another version, a proxy's page sent with 200) is
 * said on the page in words a person can act on, and the page keeps what it showed: it does not
 * crash into a blank screen. The answer is replaced in the browser (the server is never wrong on
 * purpose); the clock is the page's own, moved forward so the list is due for a refresh.
 */

test.beforeAll(() => ensureAccounts());

test("a list refresh the studio cannot read is announced, the list stays, and the notice goes once a refresh reads", async ({ page }) => {
  await page.clock.install();
  await signIn(page, AUTHOR);
  const rows = page.locator("table tbody tr");
  await expect(rows.first()).toBeVisible();
  const shown = await rows.count();

  await page.route("**/api/studio/notes", (route) =>
    route.request().method() === "GET"
      ? route.fulfill({ status: 200, contentType: "application/json", body: '{"notes":[{"id":"AFN-001"}]}' })
      : route.fallback(),
  );
  // The list is older than its 5 s freshness, and the tab comes back into view: react-query refreshes it.
  await page.clock.fastForward(10_000);
  await page.evaluate(() => window.dispatchEvent(new Event("visibilitychange")));

  const alert = page.getByRole("alert").filter({ hasText: "The server's answer could not be read" });
  await expect(alert).toContainText("notes.0.title");
  await expect(alert).toContainText("reload it");
  await expect(page.getByRole("heading", { level: 1, name: "Studio" })).toBeVisible();
  await expect(rows).toHaveCount(shown);

  await page.unroute("**/api/studio/notes");
  await page.clock.fastForward(10_000);
  await page.evaluate(() => window.dispatchEvent(new Event("visibilitychange")));
  await expect(alert).toHaveCount(0);
  await expect(rows).toHaveCount(shown);
});
