import { expect, test } from "@playwright/test";
import { signInByKeyboard, tabTo, typeKeys } from "./support/keyboard";
import { api, ok, proposedNote, type NoteView } from "./support/review";
import { AUTHOR, ensureAccounts, git, newToken, REVIEWER, publishLanded } from "./support/studio";
import { seriousViolations } from "./support/axe";
import type { Page } from "@playwright/test";

/**
 * "Verified means reviewed" in the browser, by keyboard only: a verified note whose Decision was
 * rewritten cannot be published (the editor says why and what to do); its author asks a named
 * reviewer; the reviewer finds it under "Requested from you", comments and approves; the author
 * publishes, and the public page shows the new Decision with the approval in its commit.
 */

test.beforeAll(() => ensureAccounts());

/** axe's serious and critical findings, in both colour schemes: none. */
async function expectNoA11yViolations(page: Page) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await seriousViolations(page), colorScheme).toEqual([]);
  }
}
// Two sign-ins, a review and a publish on the shared 2-core machine.
test.describe.configure({ timeout: 180_000 });

/** A published verified checkpoint, carried there through the API: propose, publish, approve, promote, publish. */
async function verifiedNote(title: string) {
  const author = await api(newToken(AUTHOR.name));
  const reviewer = await api(newToken(REVIEWER.name));
  const note = await proposedNote(author, title);
  await ok(await author.post(`/api/studio/notes/${note.id}/publish`, { data: { revision: note.revision } }));
  const published = await ok<NoteView>(await author.get(`/api/studio/notes/${note.id}`));
  await ok(await reviewer.post(`/api/studio/notes/${note.id}/verdicts`, { data: { verdict: "approve", revision: published.noteRevision } }));
  const promoted = await ok<NoteView>(
    await author.post(`/api/studio/notes/${note.id}/transitions`, { data: { to: "verified-checkpoint", revision: published.revision } }),
  );
  await ok(await author.post(`/api/studio/notes/${note.id}/publish`, { data: { revision: promoted.revision } }));
  return { author, reviewer, id: note.id };
}

test("a rewritten Decision of a verified note is published only after a named reviewer approves it, all by keyboard", async ({ browser }) => {
  const title = `Verified by keyboard ${Date.now().toString(36)}`;
  const { author, reviewer, id } = await verifiedNote(title);
  const decision = `Skip masked blocks, measured again ${Date.now().toString(36)}.`;
  // The rewrite itself, through the same API the editor's save uses.
  const opened = await ok<NoteView>(await author.get(`/api/studio/notes/${id}`));
  const saved = await ok<NoteView>(
    await author.put(`/api/studio/notes/${id}`, {
      data: { revision: opened.revision, note: { ...opened.fields, sections: { ...opened.fields.sections, decision } } },
    }),
  );

  // The author: Publish is held back, and the editor says why and what to do.
  const authorPage = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await signInByKeyboard(authorPage, AUTHOR, `/studio/notes/${id}`);
  const publish = authorPage.getByRole("button", { name: "Publish", exact: true });
  await expect(publish).toBeDisabled();
  // Markdown is typed in the mono face (a fence, a table and an indent line up), as the issue asked.
  const [typedIn, mono] = await authorPage
    .locator(".w-md-editor-text-input")
    .first()
    .evaluate((el) => {
      const probe = document.createElement("span");
      probe.style.fontFamily = "var(--font-mono)";
      document.body.append(probe);
      const want = getComputedStyle(probe).fontFamily;
      probe.remove();
      return [getComputedStyle(el).fontFamily, want];
    });
  expect(typedIn).toBe(mono);
  await expect(authorPage.locator("#unmet-publish")).toContainText(/this changes the Decision of a verified note: no approval of revision [0-9a-f]{7}/);
  await expect(authorPage.locator("#unmet-publish")).toContainText("Ask for a review below, or publish the change as a new hypothesis that supersedes");
  // A publish sent anyway (the API, whatever the browser shows) is refused the same way.
  const refused = await author.post(`/api/studio/notes/${id}/publish`, { data: { revision: saved.revision } });
  expect(refused.status()).toBe(422);
  expect((await refused.json()).error.message).toMatch(/is verified, and this changes its Decision/);

  // Ask the reviewer by name: Tab to the checkbox, Space, Tab to the button, Enter.
  const ask = authorPage.getByRole("region", { name: "Ask for a review" });
  await tabTo(authorPage, ask.getByRole("checkbox", { name: REVIEWER.name }), { max: 300 });
  await authorPage.keyboard.press("Space");
  await tabTo(authorPage, ask.getByRole("button", { name: "Ask this reviewer" }));
  await authorPage.keyboard.press("Enter");
  await expect(ask.getByRole("status")).toHaveText(`Asked ${REVIEWER.name} to review this revision before it is published.`);
  await expectNoA11yViolations(authorPage);

  // The reviewer: the inbox lists it under "Requested from you", saying what changed since they last
  // looked (their approval of the hypothesis, before the promotion and the rewrite).
  const reviewerPage = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await signInByKeyboard(reviewerPage, REVIEWER, "/studio/reviews");
  const requested = reviewerPage.getByRole("region", { name: /Requested from you/ });
  const entry = requested.getByRole("listitem").filter({ hasText: title });
  await expect(entry).toContainText(`${AUTHOR.name} asked you to review it for publishing`);
  await expect(entry).toContainText(/Since your approval of revision [0-9a-f]{7}: Status, Decision changed\./);
  await expect(reviewerPage.getByRole("region", { name: /Waiting for any reviewer/ }).getByRole("link", { name: new RegExp(title) })).toHaveCount(0);
  await expectNoA11yViolations(reviewerPage);
  await tabTo(reviewerPage, requested.getByRole("link", { name: new RegExp(title) }), { max: 200 });
  await reviewerPage.keyboard.press("Enter");
  await reviewerPage.waitForURL(`**/studio/notes/${id}/review`);

  // A comment on the Decision, then the verdict.
  const section = reviewerPage.getByRole("region", { name: "Review of Decision" });
  await tabTo(reviewerPage, section.getByRole("button", { name: "Comment on Decision" }), { max: 200 });
  await reviewerPage.keyboard.press("Enter");
  await typeKeys(reviewerPage, "Measured again: good.");
  await tabTo(reviewerPage, section.getByRole("button", { name: "Start thread" }));
  await reviewerPage.keyboard.press("Enter");
  await expect(section.getByRole("article", { name: "Thread on Decision" })).toContainText("Measured again: good.");
  await tabTo(reviewerPage, reviewerPage.getByRole("button", { name: "Approve", exact: true }), { max: 200 });
  await reviewerPage.keyboard.press("Enter");
  await expect(reviewerPage.getByRole("heading", { name: "Verdict: Approved" })).toBeVisible();
  // Answered: it leaves the reviewer's inbox.
  await reviewerPage.goto("/studio/reviews");
  await expect(reviewerPage.getByRole("region", { name: /Requested from you/ }).getByRole("link", { name: new RegExp(title) })).toHaveCount(0);

  // The author publishes by keyboard.
  await authorPage.reload();
  await expect(publish).toBeEnabled();
  await tabTo(authorPage, publish, { max: 300 });
  await authorPage.keyboard.press("Enter");
  // Asked once more, saying it replaces the published version; the confirmation has the focus.
  await expect(authorPage.getByRole("group", { name: /Publish .* now\?/ })).toContainText("in place of the published version");
  await expect(authorPage.getByRole("button", { name: "Publish now" })).toBeFocused();
  await authorPage.keyboard.press("Enter");
  await expect(authorPage.getByText("Published.", { exact: true })).toBeVisible();
  expect(git("show", `refs/heads/main:notes/${id}.md`)).toContain(decision);

  // The public page shows the new Decision under its badge, and the commit names the approval.
  await authorPage.goto(`/notes/${id}`);
  await expect(authorPage.locator("main")).toContainText(decision);
  expect(git("log", "-1", "--format=%(trailers:key=Approved-by,valueonly)", "refs/heads/main", "--", `notes/${id}.md`)).toMatch(
    new RegExp(`^${REVIEWER.name} [0-9a-f]{12}$`),
  );
  await author.dispose();
  await reviewer.dispose();
});

test("a never-published draft offers no retraction; discarding it asks first, then removes it from the studio", async ({ page }) => {
  const author = await api(newToken(AUTHOR.name));
  const title = `Discarded ${Date.now().toString(36)}`;
  const note = await proposedNote(author, title);
  await page.setViewportSize({ width: 390, height: 844 });
  await signInByKeyboard(page, AUTHOR, `/studio/notes/${note.id}`);
  await expect(page.getByRole("button", { name: "Retract…" })).toBeDisabled();
  await expect(page.locator("#unmet-retracted")).toContainText("was never published, so no reader needs to be told: discard the draft instead");

  const discard = page.getByRole("region", { name: "Discard" });
  await tabTo(page, discard.getByRole("button", { name: "Discard unpublished version…" }), { max: 300 });
  await page.keyboard.press("Enter");
  await expect(discard.getByRole("group")).toContainText(
    `Discard the unpublished version? ${note.id} leaves the studio; it was never published, and its id is not given to another note.`,
  );
  await expectNoA11yViolations(page);
  // The confirming button has the focus; Escape is not a yes, "Keep it" keeps it.
  await expect(discard.getByRole("button", { name: "Discard it", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await page.waitForURL((url) => url.pathname === "/studio");
  expect(git("for-each-ref", "--format=%(refname)", `refs/heads/drafts/${note.id}`)).toBe("");
  expect(git("rev-parse", "--verify", "-q", `refs/discarded/${note.id}/${note.revision}`)).toBe(note.revision);
  expect((await author.get(`/api/studio/notes/${note.id}`)).status()).toBe(404);
  await author.dispose();
});

test("an author retracts a published note with the reason readers will see; Esc leaves the form and hands the focus back at once", async ({
  page,
  request,
}) => {
  const author = await api(newToken(AUTHOR.name));
  const title = `Retracted ${Date.now().toString(36)}`;
  const note = await proposedNote(author, title);
  await ok(await author.post(`/api/studio/notes/${note.id}/publish`, { data: { revision: note.revision } }));
  await signInByKeyboard(page, AUTHOR, `/studio/notes/${note.id}`);

  const retract = page.getByRole("button", { name: "Retract…" });
  await tabTo(page, retract, { max: 300 });
  await page.keyboard.press("Enter");
  const reason = page.getByLabel("Reason (readers will see it)");
  await expect(reason).toBeVisible();
  await reason.focus();
  await page.keyboard.press("Escape");
  // Back on the button as Esc is handled, not a frame later: an Enter pressed at once opens the form again.
  expect(await retract.evaluate((button) => button === document.activeElement)).toBe(true);
  await expect(reason).toHaveCount(0);
  await page.keyboard.press("Enter");
  await expect(reason).toBeVisible();
  await reason.fill("Measured on the wrong build; see the next note.");
  await page.getByRole("button", { name: "Retract", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Status: retracted" })).toBeVisible();

  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(publishLanded(page)).toBeVisible();
  const publicPage = await request.get(`/notes/${note.id}`);
  expect(publicPage.status()).toBe(200);
  // Readers (no session) see the status and the reason (React separates text nodes with empty comments).
  const html = (await publicPage.text()).replaceAll("<!-- -->", "");
  expect(html).toContain("Why it was retracted: Measured on the wrong build; see the next note.");
  expect(html).toContain('class="badge status status--retracted"');
  await author.dispose();
});
