import { expect, test, type Page } from "@playwright/test";
import { api, ok, proposedNote, type NoteView } from "./support/review";
import { AUTHOR, ensureAccounts, git, newToken, REVIEWER, signIn } from "./support/studio";

/**
 * The review page as a reviewer uses it: from the inbox to a verdict without leaving the page, the
 * changes of an edited published note marked word by word against what readers see today, and the
 * threads beside their section on a wide screen and under it on a phone. Notes are written through
 * the JSON API (the same rules as the editor), so these tests do not depend on the editor's form.
 */

test.beforeAll(() => ensureAccounts());
// Each test signs in and writes a few commits: 15-35 s alone, near a minute on the shared 2-core machine.
test.describe.configure({ timeout: 120_000 });

/** The grid row of one section on the review page (its text, its changes, its threads). */
const sectionRow = (page: Page, key: string) => page.locator(`[data-section="${key}"]`);

test("a reviewer goes from the inbox to a verdict on one page, bound to the revision shown", async ({ page }) => {
  const author = await api(newToken(AUTHOR.name));
  const title = `Inbox to verdict ${Date.now().toString(36)}`;
  const note = await proposedNote(author, title);

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, REVIEWER, "/studio/reviews");
  await page
    .getByRole("region", { name: /Waiting for any reviewer/ })
    .getByRole("link", { name: new RegExp(title) })
    .click();
  const reviewPath = `/studio/notes/${note.id}/review`;
  await page.waitForURL(`**${reviewPath}`);

  // The note as readers will see it: its title, the reliance panel, phase and tags, every section.
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole("heading", { name: "How far to rely on this note" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Phase 6 architecture" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Evidence" })).toBeVisible();
  // Never published: compared with its previous revision, never "added against nothing" everywhere.
  await expect(page.getByText(/every field is new|against nothing/)).toHaveCount(0);
  await expect(page.getByLabel("Changes since")).toHaveValue(/^[0-9a-f]{40}$/);

  // "Finish review" at the top leads to the verdict at the end; Approve is the primary action.
  await page.getByRole("link", { name: "Finish review" }).click();
  const approve = page.getByRole("button", { name: "Approve", exact: true });
  const requestChanges = page.getByRole("button", { name: "Request changes", exact: true });
  await expect(approve).toBeInViewport();
  const background = (l: typeof approve) => l.evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(await background(approve)).not.toBe(await background(requestChanges));

  await page.getByLabel("Summary (optional)").fill("Reads well; the invariant is testable.");
  await approve.click();
  await expect(page.getByRole("heading", { name: "Verdict: Approved" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "You approved" })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe(reviewPath);

  // The verdict names exactly the revision the page showed.
  expect(git("log", "-1", "--format=%s", `refs/reviews/${note.id}`)).toContain(`approve revision ${note.noteRevision.slice(0, 7)}`);
  await author.dispose();
});

test("the review page marks added and removed words against the published version of an edited published note", async ({ page }) => {
  const author = await api(newToken(AUTHOR.name));
  // AFN-007 is published and no other test edits it.
  const published = await ok<NoteView>(await author.get("/api/studio/notes/AFN-007"));
  const decision = published.fields.sections.decision ?? "";
  expect(decision).toContain("Two findings show why");
  const edited = decision.replace("Two findings show why", "Three audits prove why");
  await ok(
    await author.put("/api/studio/notes/AFN-007", {
      data: { revision: published.revision, note: { ...published.fields, sections: { ...published.fields.sections, decision: edited } } },
    }),
  );

  await signIn(page, REVIEWER, "/studio/notes/AFN-007/review");
  await expect(page.getByLabel("Changes since")).toHaveValue("published");
  const row = sectionRow(page, "decision");
  const changes = row.locator("[data-changes]");
  await expect(changes).toContainText("since the published version");
  for (const word of ["Three", "audits", "prove"]) await expect(changes.locator("ins").filter({ hasText: word }), `${word} marked added`).toHaveCount(1);
  for (const word of ["Two", "findings", "show"]) await expect(changes.locator("del").filter({ hasText: word }), `${word} marked removed`).toHaveCount(1);
  // Only the edited words are marked; the rest of the sentence is plain context.
  await expect(changes.locator("ins, del").filter({ hasText: "Unicode" })).toHaveCount(0);
  // The text above the changes is the new one, as readers will see it once published.
  await expect(row.locator(".prose")).toContainText("Three audits prove why");
  await expect(row.locator(".prose")).not.toContainText("Two findings show why");
  // Sections the edit did not touch say so, with no marks.
  await expect(sectionRow(page, "invariant")).toContainText("Unchanged since the published version");
  await expect(sectionRow(page, "invariant").locator("ins, del")).toHaveCount(0);
  // The side column lists what changed, linking to it.
  await expect(page.getByRole("list", { name: "Changed since the published version" }).getByRole("link")).toHaveText(["Decision"]);
  await author.dispose();
});

test("a thread sits under its section at 390 px and beside it at 1280 px, and takes a reply in place", async ({ page }) => {
  const author = await api(newToken(AUTHOR.name));
  const reviewer = await api(newToken(REVIEWER.name));
  const note = await proposedNote(author, `Thread placement ${Date.now().toString(36)}`);
  const comment = `Which kernel test? ${Date.now().toString(36)}`;
  await ok(
    await reviewer.post(`/api/studio/notes/${note.id}/threads`, {
      data: { section: "evidence", revision: note.noteRevision, quote: "a kernel test", text: comment },
    }),
  );

  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, REVIEWER, `/studio/notes/${note.id}/review`);
  const thread = page.getByRole("article", { name: "Thread on Evidence" });
  await expect(thread).toContainText(comment);
  const box = async (l: ReturnType<Page["locator"]>) => (await l.boundingBox())!;
  const evidenceText = await box(sectionRow(page, "evidence").locator(".prose"));
  const nextHeading = await box(page.getByRole("heading", { level: 2, name: "Claim boundary" }));
  const phone = await box(thread);
  expect(phone.y).toBeGreaterThan(evidenceText.y + evidenceText.height - 1);
  expect(phone.y + phone.height).toBeLessThan(nextHeading.y);
  expect(phone.x + phone.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The quoted passage is marked in the section's text.
  const marked = await page.evaluate(() => {
    const entry = [...CSS.highlights.entries()].find(([name]) => name.endsWith("quoteMark"));
    return entry ? [...entry[1]].map((r) => r.toString()) : [];
  });
  expect(marked).toEqual(["a kernel test"]);

  // Replying happens in the thread itself.
  await thread.getByLabel("Reply to this thread").fill("The evidence will name it.");
  await thread.getByRole("button", { name: "Reply", exact: true }).click();
  await expect(thread).toContainText("The evidence will name it.");

  await page.setViewportSize({ width: 1280, height: 900 });
  const wideText = await box(sectionRow(page, "evidence").locator(".prose"));
  const wide = await box(thread);
  expect(wide.x).toBeGreaterThanOrEqual(wideText.x + wideText.width);
  // The text keeps the public page's reading width and the threads get a column of their own
  // (the old layout squeezed both into that width: about 330 and 200 px).
  expect(wideText.width).toBeGreaterThan(600);
  expect(wide.width).toBeGreaterThan(260);
  expect(wide.y).toBeLessThan(wideText.y + wideText.height + 200);
  await author.dispose();
  await reviewer.dispose();
});
