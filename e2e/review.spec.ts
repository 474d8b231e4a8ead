import { expect, test } from "@playwright/test";
import { AUTHOR, createNote, ensureAccounts, fillRequired, git, REVIEWER, save, section, signIn, publishLanded } from "./support/studio";

/**
 * Review in the browser, from draft to verified: a reviewer comments on Evidence, the author follows
 * the editor's thread count to the review page, replies there and changes the draft (the thread turns outdated), the reviewer resolves and approves, the author
 * promotes and publishes. Every word of the review is on refs/reviews/<id>; none of it is public.
 */

test.beforeAll(() => ensureAccounts());

test("a reviewer and an author carry a draft to verified checkpoint; no comment text appears anywhere public", async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  // Words that occur only in the review, so finding one anywhere public is a leak.
  const mark = `${Date.now().toString(36)}`;
  const COMMENT = `Zorblax${mark} which kernel test fails when a masked block is loaded?`;
  const REPLY = `Quillfen${mark} test_masked_blocks fails; the evidence now names it.`;
  const SUMMARY = `Vantrope${mark} evidence names the failing test.`;

  // The author writes a note and proposes it as a hypothesis.
  await signIn(page, AUTHOR);
  const id = await createNote(page);
  const title = `Reviewed in the studio ${id}`;
  await fillRequired(page, title);
  await section(page, "Invariant").fill("No masked key is ever loaded.");
  await section(page, "Rejected shortcut").fill("Masking scores after loading every block.");
  await section(page, "Evidence").fill("- a kernel test that fails when a masked block is loaded");
  await section(page, "Claim boundary").fill("Says nothing about speed on other backends.");
  await save(page);
  await page.getByRole("button", { name: "Propose as hypothesis" }).click();
  await expect(page.getByRole("heading", { name: "Status: hypothesis" })).toBeVisible();

  // The reviewer finds it in the inbox and comments on a passage of Evidence.
  const reviewerContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const reviewer = await reviewerContext.newPage();
  await signIn(reviewer, REVIEWER, "/studio/reviews");
  await reviewer
    .getByRole("region", { name: /Waiting for any reviewer/ })
    .getByRole("link", { name: new RegExp(id) })
    .click();
  await reviewer.waitForURL(`**/studio/notes/${id}/review`);
  await expect(reviewer.getByRole("heading", { level: 1, name: title })).toBeVisible();
  const reviewerEvidence = reviewer.getByRole("region", { name: "Review of Evidence" });
  await reviewerEvidence.getByRole("button", { name: "Comment on Evidence" }).click();
  await reviewerEvidence.getByLabel("Quoted passage (optional)").fill("a kernel test");
  await reviewerEvidence.getByLabel("Your comment on Evidence").fill(COMMENT);
  await reviewerEvidence.getByRole("button", { name: "Start thread" }).click();
  const reviewerThread = reviewerEvidence.getByRole("article", { name: "Thread on Evidence" });
  await expect(reviewerThread).toContainText(COMMENT);
  await expect(reviewerThread.getByText("Open", { exact: true })).toBeVisible();

  // The editor keeps to writing: under Evidence one line counts its threads and leads to the review
  // page, where the author reads the thread beside the passage and replies in place.
  await page.reload();
  await expect(page.getByRole("region", { name: "Review of Evidence" })).toHaveCount(0);
  const evidenceThreads = page.getByRole("link", { name: /^1 open review thread on Evidence:/ });
  await evidenceThreads.click();
  await page.waitForURL(new RegExp(`/studio/notes/${id}/review#thread-`));
  const authorThread = page.getByRole("region", { name: "Review of Evidence" }).getByRole("article", { name: "Thread on Evidence" });
  await expect(authorThread).toContainText(COMMENT);
  await expect(authorThread).toBeInViewport();
  await authorThread.getByLabel("Reply to this thread").fill(REPLY);
  await authorThread.getByRole("button", { name: "Reply", exact: true }).click();
  await expect(authorThread).toContainText(REPLY);
  await expect(authorThread.getByText("Outdated", { exact: true })).toHaveCount(0);
  await page.getByRole("link", { name: `Open ${id} in the editor` }).click();
  await page.waitForURL(`**/studio/notes/${id}`);
  await section(page, "Evidence").fill("- test_masked_blocks fails when a masked block is loaded");
  await save(page);
  await expect(page.getByRole("link", { name: /^1 open review thread, 1 outdated on Evidence:/ })).toBeVisible();

  // The reviewer sees it outdated (with what it was about), resolves it and approves the new revision.
  await reviewer.reload();
  await expect(reviewerThread.getByText("Outdated", { exact: true })).toBeVisible();
  await expect(reviewerThread.locator("blockquote")).toHaveText("a kernel test");
  await expect(reviewerThread).toContainText(REPLY);
  await reviewerThread.getByRole("button", { name: "Resolve" }).click();
  await expect(reviewerThread.getByText("Resolved", { exact: true })).toBeVisible();
  await reviewer.getByLabel("Summary (optional)").fill(SUMMARY);
  await reviewer.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(reviewer.getByRole("heading", { name: "Verdict: Approved" })).toBeVisible();
  await reviewerContext.close();

  // The author promotes the approved revision and publishes it.
  await page.reload();
  const promote = page.getByRole("button", { name: "Promote to verified checkpoint" });
  await expect(promote).toBeEnabled();
  await promote.click();
  await expect(page.getByRole("heading", { name: "Status: verified checkpoint" })).toBeVisible();
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(publishLanded(page)).toBeVisible();

  // Every word of the review is in git, on its own ref, by the people who wrote it.
  const reviewRef = `refs/reviews/${id}`;
  expect(git("log", "--format=%an", reviewRef).split("\n")).toEqual(["e2e-reviewer", "e2e-reviewer", "e2e-author", "e2e-reviewer"]);
  for (const words of [COMMENT, REPLY, SUMMARY]) expect(git("grep", "-c", "-F", words.slice(0, 30), reviewRef)).toMatch(/:1$/);
  expect(() => git("grep", "-q", "-F", mark, "refs/heads/main")).toThrow();

  // The public note shows the verified status; nothing public carries a word of the review.
  await page.goto(`/notes/${id}`);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.locator(".note__ids .status")).toHaveText(/verified checkpoint/);
  const pages = [
    "/",
    `/notes/${id}`,
    `/notes/${id}.md`,
    `/notes/${id}.txt`,
    `/notes/${id}.json`,
    `/notes/${id}/history`,
    "/agents/index.json",
    `/agents/capsules/${id}.json`,
    "/llms.txt",
    "/llms-full.txt",
    "/feed.xml",
  ];
  for (const path of pages) {
    const response = await request.get(path);
    const body = await response.text();
    if (path !== `/agents/capsules/${id}.json`) expect(response.status(), path).toBe(200);
    for (const word of [`Zorblax${mark}`, `Quillfen${mark}`, `Vantrope${mark}`]) expect(body, `${path} must not contain review text`).not.toContain(word);
  }
  expect(await (await request.get(`/notes/${id}.json`)).text()).toContain("verified-checkpoint");
  // Search echoes what was asked, so ask for one review word and look for the others.
  const search = await (await request.get(`/search?q=Zorblax${mark}`)).text();
  expect(search).toContain("No note matches");
  expect(search).not.toContain(`Quillfen${mark}`);
  const agentSearch = await (await request.get(`/agents/search.json?q=Quillfen${mark}`)).text();
  expect(agentSearch).not.toContain(`Zorblax${mark}`);
  expect(agentSearch).not.toContain("test_masked_blocks fails; the evidence");
});

test("a draft's review page and its API admit nothing to someone not signed in", async ({ request }) => {
  const response = await request.get("/studio/notes/AFN-001/review");
  expect(response.status()).toBe(404);
  expect((await request.get("/api/studio/notes/AFN-001/threads")).status()).toBe(404);
  expect((await request.post("/api/studio/notes/AFN-001/verdicts", { data: { verdict: "approve", revision: "0".repeat(40) } })).status()).toBe(401);
});
