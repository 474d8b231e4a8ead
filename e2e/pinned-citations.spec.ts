import { expect, test } from "@playwright/test";
import { commitWithGit, mainCommit, readWithGit } from "./support/content-repo";

/**
 * Citations that keep their text, and "which decisions govern this change", through the production
 * server and its proxy (page cache, Markdown-twin rewrite): `?rev=` on the page and its twin after
 * main changed the note, 404 for a draft's commit, the path form `/notes/<id>@<commit>` redirected
 * to it, and the governing answer for a posted diff.
 */

// This file's own note, a hypothesis copied from AFN-021 (PCX-: a prefix the studio never allocates):
// plain git may change a hypothesis, whereas an unapproved edit of a verified note is not served.
const NOTE = "PCX-931";

test("a pinned note keeps its text after main changes it; a draft's commit is 404; a diff finds the note governing it", async ({ request }) => {
  const original = readWithGit("notes/AFN-021.md")
    .replace(/^id: .*$/m, `id: ${NOTE}`)
    .replace(/^title: .*$/m, "title: A note pinned by its citations")
    .replace(/^order: .*$/m, "order: 931");
  commitWithGit({ [`notes/${NOTE}.md`]: original }, { message: `${NOTE}, a hypothesis to cite` });
  const before = mainCommit();
  // The page and twin at main's commit now, so the caches hold the live versions first.
  expect((await request.get(`/notes/${NOTE}`)).status()).toBe(200);
  expect((await request.get(`/notes/${NOTE}.md`)).status()).toBe(200);

  const changed = original
    .replace(/\n---\n/, "\naffects:\n  - src/logits/**\n---\n")
    .replace(/## Decision\n\n[^\n]+/, "## Decision\n\nThe decision as main says it after the change.");
  commitWithGit({ [`notes/${NOTE}.md`]: changed }, { message: `${NOTE} governs src/logits, and says its decision anew` });
  const draft = commitWithGit({ [`notes/${NOTE}.md`]: original.replace(/^title: .*$/m, "title: A draft title") }, { branch: `drafts/${NOTE}` });

  const live = await request.get(`/notes/${NOTE}`);
  expect(await live.text()).toContain("The decision as main says it after the change.");

  const pinned = await request.get(`/notes/${NOTE}?rev=${before}`);
  expect(pinned.status()).toBe(200);
  const html = await pinned.text();
  expect(html).not.toContain("The decision as main says it after the change.");
  expect(html).toContain("Pinned revision");
  expect(html).toMatch(/<section class="note-section" id="claim-boundary"/);
  const twin = await request.get(`/notes/${NOTE}.md?rev=${before.slice(0, 12)}`);
  expect(twin.status()).toBe(200);
  expect(await twin.text()).toContain(`commit: ${before}`);

  expect((await request.get(`/notes/${NOTE}?rev=${draft}`)).status()).toBe(404);
  expect((await request.get(`/notes/${NOTE}.md?rev=${draft}`)).status()).toBe(404);

  // The path form: a short commit is redirected to the canonical ?rev= URL; a draft's commit is a 404 that says why.
  const short = await request.get(`/notes/${NOTE}@${before.slice(0, 7)}`, { maxRedirects: 0 });
  expect(short.status()).toBe(308);
  expect(new URL(short.headers().location ?? "", "http://x").pathname + new URL(short.headers().location ?? "", "http://x").search).toBe(
    `/notes/${NOTE}?rev=${before}`,
  );
  const pinnedTwin = await request.get(`/notes/${NOTE}@${before.slice(0, 9)}.md`);
  expect(pinnedTwin.status()).toBe(200);
  expect(await pinnedTwin.text()).toContain(`commit: ${before}`);
  const draftAt = await request.get(`/notes/${NOTE}@${draft.slice(0, 8)}`);
  expect(draftAt.status()).toBe(404);
  expect(await draftAt.text()).toContain(`no commit main has been at starts with ${draft.slice(0, 8)}`);

  const diff = `diff --git a/src/logits/mask.ts b/src/logits/mask.ts\n--- a/src/logits/mask.ts\n+++ b/src/logits/mask.ts\n@@ -1 +1 @@\n-a\n+b\n`;
  const governing = await request.post("/agents/governing.json", { data: diff, headers: { "content-type": "text/x-diff" } });
  expect(governing.status()).toBe(200);
  const doc = await governing.json();
  expect(doc.notes.map((n: { id: string }) => n.id)).toEqual([NOTE]);
  const cited = await request.get(new URL(doc.notes[0].urls.invariant).pathname + new URL(doc.notes[0].urls.invariant).search);
  expect(cited.status()).toBe(200);
  expect(await cited.text()).toContain("The decision as main says it after the change.");
});
