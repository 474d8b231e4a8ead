import { expect, test, type Page } from "@playwright/test";
import { seriousViolations } from "./support/axe";
import { api, ok, proposedNote, type NoteView } from "./support/review";
import { AUTHOR, ensureAccounts, git, newToken, REVIEWER } from "./support/studio";

/**
 * The public history says in people's words what each published revision did, who made it and who
 * approved it; git's own words (subjects, `Draft-revision:` and `Approved-by:` trailers, commit ids)
 * are folded under "Commit details". A verified note's page says when its claim last changed and who
 * approved that, linking to the revision. Walked through the studio API: published as a hypothesis,
 * Decision and Evidence changed on the draft, approved by the reviewer, promoted and published, then
 * an editorial change (tags) published on top.
 */

test.beforeAll(() => ensureAccounts());

/** The text of the page's history article with every <details> taken out: what a reader sees unfolded. */
const textOutsideDetails = (page: Page) =>
  page.locator("article.history").evaluate((article) => {
    const copy = article.cloneNode(true) as HTMLElement;
    copy.querySelectorAll("details").forEach((d) => d.remove());
    return copy.textContent ?? "";
  });

test("history and note page speak people's words: what changed, by whom, approved by whom; git only in the details", async ({ page, request }) => {
  test.setTimeout(120_000);
  const author = await api(newToken(AUTHOR.name));
  const reviewer = await api(newToken(REVIEWER.name));

  // Published as a hypothesis.
  const proposed = await proposedNote(author, `Words in history ${Date.now().toString(36)}`);
  const { id } = proposed;
  await ok(await author.post(`/api/studio/notes/${id}/publish`, { data: { revision: proposed.revision } }));
  await page.goto(`/notes/${id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(proposed.fields.title as string);
  // A hypothesis makes no verified claim: no verification line.
  await expect(page.locator(".claim-change")).toHaveCount(0);

  // Decision and Evidence change on the draft; the reviewer approves that revision; promoted and published.
  const onMain = await ok<NoteView>(await author.get(`/api/studio/notes/${id}`));
  const fields = onMain.fields;
  await ok(
    await author.put(`/api/studio/notes/${id}`, {
      data: {
        revision: onMain.revision,
        note: {
          ...fields,
          sections: { ...fields.sections, decision: `${fields.sections.decision} Always.`, evidence: `${fields.sections.evidence}\n- a second run` },
        },
      },
    }),
  );
  const edited = await ok<NoteView>(await author.get(`/api/studio/notes/${id}`));
  await ok(await reviewer.post(`/api/studio/notes/${id}/verdicts`, { data: { verdict: "approve", revision: edited.revision } }));
  const promoted = await ok<NoteView>(
    await author.post(`/api/studio/notes/${id}/transitions`, { data: { to: "verified-checkpoint", revision: edited.revision } }),
  );
  await ok(await author.post(`/api/studio/notes/${id}/publish`, { data: { revision: promoted.revision } }));

  // An editorial change on top: the tags.
  const verified = await ok<NoteView>(await author.get(`/api/studio/notes/${id}`));
  await ok(
    await author.put(`/api/studio/notes/${id}`, {
      data: { revision: verified.revision, note: { ...verified.fields, tags: [...(verified.fields.tags as string[]), "words"] } },
    }),
  );
  const retagged = await ok<NoteView>(await author.get(`/api/studio/notes/${id}`));
  await ok(await author.post(`/api/studio/notes/${id}/publish`, { data: { revision: retagged.revision } }));

  // What git holds: three commits on main for the note, the promotion's naming the approval.
  const [tagsCommit, promotion, first] = git("log", "--format=%H", "refs/heads/main", "--", `notes/${id}.md`).split("\n");
  expect([tagsCommit, promotion, first].every((c) => /^[0-9a-f]{40}$/.test(c ?? ""))).toBe(true);
  const approvedBy = git("log", "-1", "--format=%(trailers:key=Approved-by,valueonly)", promotion!).trim();
  expect(approvedBy).toMatch(new RegExp(`^${REVIEWER.name} [0-9a-f]{12}$`));
  expect(git("log", "-1", "--format=%B", promotion!)).toMatch(/^Draft-revision: [0-9a-f]{40}$/m);

  // The history page: each revision in words, newest first.
  await page.goto(`/notes/${id}/history`);
  const revisions = page.locator("li.revision");
  await expect(revisions.locator(".revision__message")).toHaveText([
    "Tags changed",
    "Promoted to verified checkpoint; Decision and Evidence changed",
    "First published as hypothesis",
  ]);
  const promotedItem = page.locator(`#r-${promotion!.slice(0, 12)}`);
  await expect(promotedItem.locator(".revision__meta")).toContainText(`by ${AUTHOR.name} · approved by ${REVIEWER.name}`);
  await expect(revisions.first().locator(".revision__meta")).not.toContainText("approved by");
  // Git's words only under "Commit details": folded, and holding the trailers as git wrote them.
  const outside = await textOutsideDetails(page);
  for (const raw of ["Draft-revision:", "Approved-by:", `Publish ${id}`, promotion!, first!]) expect(outside, `${raw} outside the details`).not.toContain(raw);
  const details = promotedItem.locator("details.revision__commit");
  await expect(details.locator("summary")).toHaveText("Commit details");
  await expect(details.locator("pre")).not.toBeVisible();
  await details.locator("summary").click();
  await expect(details.locator("pre")).toBeVisible();
  await expect(details.locator("pre")).toContainText(`Approved-by: ${approvedBy}`);
  await expect(details).toContainText(promotion!);
  const serious = await seriousViolations(page);
  expect(serious, serious.join("\n")).toEqual([]);

  // The note page: when the claim last changed and who approved it (the tags change is editorial), linking to that revision.
  await page.goto(`/notes/${id}`);
  const claim = page.locator("dd.claim-change");
  await expect(claim).toHaveText(new RegExp(`^Decision and Evidence changed \\d{1,2} [A-Z][a-z]{2} \\d{4} · approved by ${REVIEWER.name}$`));
  const link = claim.getByRole("link");
  await expect(link).toHaveAttribute("href", `/notes/${id}/history#r-${promotion!.slice(0, 12)}`);
  expect(await seriousViolations(page)).toEqual([]);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/notes/${id}/history#r-${promotion!.slice(0, 12)}$`));
  await expect(page.locator(`#r-${promotion!.slice(0, 12)} .revision__message`)).toHaveText("Promoted to verified checkpoint; Decision and Evidence changed");

  // The Markdown twin says the same; its only git line per revision is the commit id and subject.
  const twin = await (await request.get(`/notes/${id}/history.md`)).text();
  const headings = twin.split("\n").filter((l) => l.startsWith("## "));
  expect(headings).toEqual(["## Tags changed", "## Promoted to verified checkpoint; Decision and Evidence changed", "## First published as hypothesis"]);
  const promotedPart = twin.slice(twin.indexOf("## Promoted"), twin.indexOf("## First published"));
  expect(promotedPart).toMatch(new RegExp(`^\\S+ · by ${AUTHOR.name} · approved by ${REVIEWER.name} · status now verified-checkpoint$`, "m"));
  expect(promotedPart).toMatch(new RegExp(`^Commit ${promotion}: Publish ${id}`, "m"));
  for (const raw of ["Draft-revision", "Approved-by"]) expect(twin).not.toContain(raw);
});
