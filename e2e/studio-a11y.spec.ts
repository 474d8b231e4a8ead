import { expect, test, type Page } from "@playwright/test";
import { seriousViolations } from "./support/axe";
import { AUTHOR, ensureAccounts, newToken, REVIEWER, signIn } from "./support/studio";
import { api } from "./support/visual";

/**
 * The studio's pages have no serious or critical violation axe can find, in light and dark: sign-in,
 * the studio list, the editor (filled in, then with its errors showing), the review page with an
 * open thread, and the review inbox.
 */

test.describe.configure({ timeout: 120_000 });
test.beforeAll(() => ensureAccounts());

async function expectNothingSerious(page: Page, what: string) {
  await page.waitForLoadState("networkidle");
  const serious = await seriousViolations(page);
  expect(serious, `${what}:\n${serious.join("\n")}`).toEqual([]);
}

/** A note proposed as hypothesis with one open thread on Evidence, written through the API. */
async function noteUnderReview(page: Page): Promise<string> {
  const author = newToken(AUTHOR.name);
  const reviewer = newToken(REVIEWER.name);
  const created = await api(page.request, author, "POST", "/api/studio/notes", {});
  const saved = await api(page.request, author, "PUT", `/api/studio/notes/${created.id}`, {
    revision: created.revision,
    note: {
      title: `Checked by axe ${created.id}`,
      summary: "A note that exists so the studio's pages have something to show.",
      phase: "6 architecture",
      tags: ["studio"],
      related: ["AFN-016"],
      boundaries: [],
      core: null,
      sections: {
        decision: "Hold every page to axe.",
        invariant: "No serious violation reaches main.",
        rejectedShortcut: "Checking only the public pages.",
        evidence: "- this spec, in light and dark",
        claimBoundary: "Says nothing about what axe cannot find.",
        notes: "",
      },
    },
  });
  const proposed = await api(page.request, author, "POST", `/api/studio/notes/${created.id}/transitions`, { to: "hypothesis", revision: saved.revision });
  await api(page.request, reviewer, "POST", `/api/studio/notes/${created.id}/threads`, {
    section: "evidence",
    quote: "in light and dark",
    revision: proposed.revision,
    text: "Which colour schemes exactly?",
  });
  return created.id;
}

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`${colorScheme} scheme`, () => {
    test.use({ colorScheme });

    test("sign-in and the studio list have nothing serious", async ({ page }) => {
      await page.goto("/sign-in");
      await expectNothingSerious(page, "sign-in");
      await signIn(page, AUTHOR);
      await expectNothingSerious(page, "the studio list");
    });

    test("the editor has nothing serious, filled in and with its errors showing", async ({ page }) => {
      const id = await noteUnderReview(page);
      await signIn(page, AUTHOR, `/studio/notes/${id}`);
      await expect(page.getByLabel("Title", { exact: true })).toBeVisible();
      await expectNothingSerious(page, "the editor");
      await page.getByLabel("Title", { exact: true }).fill("");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect(page.getByLabel("Title", { exact: true })).toHaveAccessibleDescription(/title is empty/);
      await expectNothingSerious(page, "the editor with its errors showing");
    });

    test("the review page and the inbox have nothing serious", async ({ page }) => {
      const id = await noteUnderReview(page);
      await signIn(page, REVIEWER, "/studio/reviews");
      await expect(page.getByRole("link", { name: new RegExp(id) }).first()).toBeVisible();
      await expectNothingSerious(page, "the review inbox");
      await page.goto(`/studio/notes/${id}/review`);
      await expect(page.getByText("Which colour schemes exactly?")).toBeVisible();
      await expectNothingSerious(page, "the review page");
    });
  });
}
