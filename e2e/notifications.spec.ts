import { expect, test, type Page } from "@playwright/test";
import { seriousViolations } from "./support/axe";
import { AUTHOR, ensureAccounts, newToken, REVIEWER, signIn, publishLanded } from "./support/studio";
import { api } from "./support/visual";

/**
 * Told, not polled (issue 31), by keyboard: a review request reaches the reviewer as a
 * notification in the header; the reviewer opens it, comments with a mention completed from the
 * accounts, and approves; the author is notified of both and publishes; the reviewer is told of the
 * publish. The notifications page and its settings have nothing serious for axe, light and dark.
 */

test.describe.configure({ timeout: 180_000 });
test.beforeAll(() => ensureAccounts());

/** Focus a control and press a key on it: the keyboard, not the mouse, does the work. */
async function press(page: Page, locator: ReturnType<Page["getByRole"]>, key = "Enter") {
  await locator.focus();
  await page.keyboard.press(key);
}

/** A note proposed as hypothesis by the author, who asks the reviewer by name. */
async function askedOfReviewer(page: Page): Promise<{ id: string; title: string }> {
  const author = newToken(AUTHOR.name);
  const created = await api(page.request, author, "POST", "/api/studio/notes", {});
  const title = `Told not polled ${created.id}`;
  const saved = await api(page.request, author, "PUT", `/api/studio/notes/${created.id}`, {
    revision: created.revision,
    note: {
      title,
      summary: "A note whose review is announced rather than found.",
      phase: "6 architecture",
      tags: ["studio"],
      related: [],
      boundaries: [],
      core: null,
      sections: {
        decision: "Tell the reviewer.",
        invariant: "Every request reaches the person asked.",
        rejectedShortcut: "Asking people to refresh the inbox.",
        evidence: "- this spec",
        claimBoundary: "Says nothing about mail.",
        notes: "",
      },
    },
  });
  const proposed = await api(page.request, author, "POST", `/api/studio/notes/${created.id}/transitions`, { to: "hypothesis", revision: saved.revision });
  await api(page.request, author, "POST", `/api/studio/notes/${created.id}/review-requests`, { revision: proposed.revision, reviewers: [REVIEWER.name] });
  return { id: created.id, title };
}

test("a request reaches the reviewer, a mention and a verdict reach the author, a publish reaches the reviewer; all by keyboard", async ({ page, browser }) => {
  const { id, title } = await askedOfReviewer(page);

  // The reviewer sees the count in the header and follows it, then the request, by keyboard.
  const reviewerContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const reviewer = await reviewerContext.newPage();
  await signIn(reviewer, REVIEWER, "/studio");
  const headerLink = reviewer.getByRole("link", { name: /^Notifications, \d+ unread$/ });
  await expect(headerLink).toBeVisible();
  await press(reviewer, headerLink);
  await reviewer.waitForURL("**/studio/notifications");
  await press(reviewer, reviewer.getByRole("link", { name: `${AUTHOR.name} asks you to review ${id} (${title})` }));
  await reviewer.waitForURL(`**/studio/notes/${id}/review`);

  // A thread on Evidence, the author's name completed from "@e2e-au", sent with Tab and Enter.
  const evidence = reviewer.getByRole("region", { name: "Review of Evidence" });
  await press(reviewer, evidence.getByRole("button", { name: "Comment on Evidence" }));
  const box = evidence.getByLabel("Your comment on Evidence");
  await box.focus();
  await reviewer.keyboard.type("Which spec is it? @e2e-au");
  await expect(reviewer.getByRole("listbox", { name: "People to mention" }).getByRole("option", { name: `@${AUTHOR.name}` })).toBeVisible();
  await reviewer.keyboard.press("Enter");
  // The caret is after the name as the Enter is handled, not a frame later, so nothing typed next lands elsewhere.
  const named = `Which spec is it? @${AUTHOR.name} `;
  expect(await box.evaluate((b: HTMLTextAreaElement) => [b.value, b.selectionStart])).toEqual([named, named.length]);
  await reviewer.keyboard.type("please name it.");
  await expect(box).toHaveValue(`Which spec is it? @${AUTHOR.name} please name it.`);
  await reviewer.keyboard.press("Tab");
  await expect(evidence.getByRole("button", { name: "Start thread" })).toBeFocused();
  await reviewer.keyboard.press("Enter");
  const thread = evidence.getByRole("article", { name: "Thread on Evidence" });
  await expect(thread).toContainText(`@${AUTHOR.name} please name it.`);
  await press(reviewer, reviewer.getByRole("button", { name: "Approve", exact: true }));
  await expect(reviewer.getByRole("heading", { name: "Verdict: Approved" })).toBeVisible();

  // The author is told of both, opens the mention, and publishes.
  await signIn(page, AUTHOR, "/studio/notifications");
  const mention = page.getByRole("link", { name: `${REVIEWER.name} mentioned you on ${id} (${title}), Evidence` });
  await expect(mention).toBeVisible();
  await expect(page.getByRole("link", { name: `${REVIEWER.name} approved ${id} (${title})` })).toBeVisible();
  await press(page, mention);
  await page.waitForURL(new RegExp(`/studio/notes/${id}/review#thread-[0-9a-f]{12}$`));
  await expect(page.getByText(`@${AUTHOR.name} please name it.`)).toBeVisible();
  await page.goto(`/studio/notes/${id}`);
  await press(page, page.getByRole("button", { name: "Publish", exact: true }));
  await press(page, page.getByRole("button", { name: "Publish now" }));
  await expect(publishLanded(page)).toBeVisible();

  // The reviewer (who approved it) is told of the publish; following the mention marked it read for the author.
  await reviewer.goto("/studio/notifications");
  await expect(reviewer.getByRole("link", { name: `${AUTHOR.name} published ${id} (${title})` })).toBeVisible();
  await page.goto("/studio/notifications");
  await expect(page.getByRole("listitem").filter({ has: mention })).toContainText("read");
  await expect(page.getByRole("button", { name: `Mark unread: ${REVIEWER.name} mentioned you on ${id} (${title}), Evidence` })).toBeVisible();
  await reviewerContext.close();
});

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`${colorScheme} scheme`, () => {
    test.use({ colorScheme });
    test("the notifications page and its settings have nothing serious", async ({ page }) => {
      await askedOfReviewer(page);
      await signIn(page, REVIEWER, "/studio/notifications");
      await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
      await page.waitForLoadState("networkidle");
      expect(await seriousViolations(page)).toEqual([]);
      await page.goto("/studio/notifications/settings");
      await press(page, page.getByRole("button", { name: /^Make (a|a new) feed address$/ }));
      await expect(page.getByLabel("Your feed address (shown once: copy it now)")).toHaveValue(/\/api\/studio\/notifications\/feed\/fnf_/);
      await page.waitForLoadState("networkidle");
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
