import { expect, test } from "@playwright/test";
import { signInByKeyboard, tabTo, typeKeys } from "./support/keyboard";
import { api, proposedNote } from "./support/review";
import { AUTHOR, ensureAccounts, git, newToken, REVIEWER } from "./support/studio";

/**
 * The review by keyboard only, beside the editor's walk (studio-keyboard.spec.ts): a reviewer signs
 * in, opens the draft from the inbox, starts a thread on a quoted passage, answers it in place,
 * jumps to the verdict with "Finish review" and approves, without the mouse. Every word arrives on
 * the note's review ref, and the verdict names the revision the page showed.
 */

test.beforeAll(() => ensureAccounts());
// Signs in, writes three review commits: about 20 s alone, near a minute on the shared 2-core machine.
test.describe.configure({ timeout: 120_000 });

test("a reviewer goes from the inbox to a comment and a verdict without touching the mouse", async ({ page }) => {
  const author = await api(newToken(AUTHOR.name));
  const title = `Reviewed by keyboard ${Date.now().toString(36)}`;
  const note = await proposedNote(author, title);
  const comment = `Which kernel test, by keyboard ${Date.now().toString(36)}?`;

  await page.setViewportSize({ width: 1280, height: 900 });
  await signInByKeyboard(page, REVIEWER, "/studio/reviews");

  // The inbox: Tab to the draft's entry, Enter opens its review page.
  const entry = page.getByRole("region", { name: /Waiting for any reviewer/ }).getByRole("link", { name: new RegExp(title) });
  await tabTo(page, entry, { max: 200 });
  await page.keyboard.press("Enter");
  await page.waitForURL(`**/studio/notes/${note.id}/review`);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

  // A thread on Evidence: the button opens the form with the comment field focused; Shift+Tab reaches the quote.
  const evidence = page.getByRole("region", { name: "Review of Evidence" });
  await tabTo(page, evidence.getByRole("button", { name: "Comment on Evidence" }), { max: 200 });
  await page.keyboard.press("Enter");
  const commentField = evidence.getByLabel("Your comment on Evidence");
  await expect(commentField).toBeFocused();
  await typeKeys(page, comment);
  await page.keyboard.press("Shift+Tab");
  await expect(evidence.getByLabel("Quoted passage (optional)")).toBeFocused();
  await typeKeys(page, "a kernel test");
  // Enter in the quote field starts nothing (it is not a form to submit); Tab on to the button.
  await page.keyboard.press("Enter");
  await expect(evidence.getByRole("article")).toHaveCount(0);
  await tabTo(page, evidence.getByRole("button", { name: "Start thread" }));
  await page.keyboard.press("Enter");
  const thread = evidence.getByRole("article", { name: "Thread on Evidence" });
  await expect(thread).toContainText(comment);
  await expect(thread.locator("blockquote")).toHaveText("a kernel test");

  // A reply in the thread itself.
  await tabTo(page, thread.getByLabel("Reply to this thread"));
  await typeKeys(page, "And on which backend?");
  await page.keyboard.press("Tab");
  await expect(thread.getByRole("button", { name: "Reply", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(thread).toContainText("And on which backend?");

  // "Finish review" at the top moves the keyboard to the verdict: the next Tab is in it.
  await tabTo(page, page.getByRole("link", { name: "Finish review" }), { back: true, max: 200 });
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#verdict$/);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Summary (optional)")).toBeFocused();
  await typeKeys(page, "Reads well once the test is named.");
  await page.keyboard.press("Tab");
  const approve = page.getByRole("button", { name: "Approve", exact: true });
  await expect(approve).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Verdict: Approved" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "You approved" })).toBeVisible();

  // Everything typed is on the review ref, by the reviewer, and the verdict names the revision shown.
  const ref = `refs/reviews/${note.id}`;
  expect(git("log", "-1", "--format=%s", ref)).toContain(`approve revision ${note.noteRevision.slice(0, 7)}`);
  expect(git("log", "--format=%an", ref).split("\n")).toEqual(["e2e-reviewer", "e2e-reviewer", "e2e-reviewer"]);
  for (const words of [comment, "And on which backend?", "Reads well once the test is named."]) expect(git("grep", "-c", "-F", words, ref)).toMatch(/:1$/);
  await author.dispose();
});
