import { expect, test } from "@playwright/test";
import {
  AUTHOR,
  createNote,
  ensureAccounts,
  fillRequired,
  git,
  openNewNote,
  save,
  saveNewNote,
  saveState,
  section,
  signIn,
  publishLanded,
} from "./support/studio";

/**
 * The authoring studio as an author meets it: sign in, write, be told what is wrong and where,
 * save as a commit in their own name, lose nothing to a second tab or a reload, propose, publish.
 * Each test creates its own note, so the two workers never share one.
 */

// Each test signs in (scrypt) and most drive two pages; on a loaded machine a minute is too tight.
test.describe.configure({ timeout: 120_000 });

test.beforeAll(() => ensureAccounts());

test("an author writes a note, meets field errors and a policy finding, fixes them and saves as themself", async ({ page }) => {
  await signIn(page, AUTHOR);
  // "New note" opens an empty form and writes nothing: no draft branch, no id taken. This page's own
  // writes are watched (other tests create drafts in parallel, so the repository's refs cannot say).
  const writes: { call: string; status: number }[] = [];
  page.on("response", (r) => {
    const req = r.request();
    if (req.method() !== "GET" && new URL(r.url()).pathname.startsWith("/api/studio/"))
      writes.push({ call: `${req.method()} ${new URL(r.url()).pathname}`, status: r.status() });
  });
  await openNewNote(page);
  await expect(saveState(page)).toHaveText("Not saved yet · the note gets its id on the first save");
  expect(writes).toEqual([]);

  // An empty note: the schema's messages appear at the fields, and nothing is sent.
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText(/Not saved: \d+ fields need attention\./)).toBeVisible();
  await expect(page.getByLabel("Title", { exact: true })).toHaveAccessibleDescription(/title is empty/);
  await expect(page.getByLabel("Summary", { exact: true })).toHaveAccessibleDescription(/summary is empty/);
  await expect(page.getByLabel("Phase", { exact: true })).toHaveAccessibleDescription(/phase is empty/);
  await expect(page.getByLabel("Title", { exact: true })).toBeFocused();

  await fillRequired(page, "Studio first note");
  await expect(page.getByLabel("Title", { exact: true })).not.toHaveAccessibleDescription(/title is empty/);
  await expect(saveState(page)).toHaveText("Not saved yet · 5 unsaved changes");

  // A local path in Evidence: the archive policy refuses it at the field and line, and nothing is written.
  await section(page, "Evidence").fill("- a trace of the kernel\n- raw file in /home/someone/x/trace.json");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  const evidenceErrors = page.locator("#section-evidence-errors");
  await expect(evidenceErrors).toContainText("line 2");
  await expect(evidenceErrors).toContainText("local file path");
  await expect(evidenceErrors).toContainText("/home/someone/x/trace.json");
  // Every write this page sent was refused, so no id was claimed and nothing was committed.
  expect(writes.filter((w) => w.status < 400)).toEqual([]);
  await expect(page).toHaveURL(/\/studio\/notes\/new$/);

  await section(page, "Evidence").fill("- a trace of the kernel\n- the pinned trace.json of the benchmark");
  await expect(evidenceErrors).toHaveCount(0);
  // The first save claims the id and writes the note in one commit.
  const id = await saveNewNote(page);

  expect(git("log", "-1", "--format=%an <%ae>|%s", `refs/heads/drafts/${id}`)).toBe(
    `e2e-author <e2e-author@users.field-notes.invalid>|${id}: write "Studio first note"`,
  );
  expect(git("show", `refs/heads/drafts/${id}:notes/${id}.md`)).toContain("the pinned trace.json of the benchmark");
  expect(git("show", `refs/heads/drafts/${id}:notes/${id}.md`)).toMatch(/tags:\n {2}- studio\n {2}- e2e/);
  // A second save names what changed; the bar counts the change, then says it is saved.
  await section(page, "Notes").fill("Written in the studio.");
  await expect(saveState(page)).toHaveText(/^Saved (just now|\d+ min ago) · 1 unsaved change$/);
  await save(page);
  expect(git("log", "-1", "--format=%an|%s", `refs/heads/drafts/${id}`)).toBe(`e2e-author|${id}: edit Notes`);
});

test("the toolbar adds a code block, a table and a diagram, and the preview shows them as the page will", async ({ page }) => {
  await signIn(page, AUTHOR);
  await createNote(page);
  const field = section(page, "Notes");
  await field.fill("Selected words");
  await field.selectText();
  await page.getByRole("button", { name: "Code block in Notes (Ctrl+Shift+J)" }).click();
  await expect(field).toHaveValue("```\nSelected words\n```");
  await field.press("Control+End");
  await page.getByRole("button", { name: "Add a table to Notes" }).click();
  await field.press("Control+End");
  const diagram = page.getByRole("button", { name: "Add a diagram to Notes" });
  await diagram.click();
  const text = await field.inputValue();
  expect(text).toContain("| Header | Header |");
  expect(text).toMatch(/```mermaid\nflowchart LR\n/);
  // A change of colour scheme recolours the toolbar's words at once, not through a fade of
  // unreadable greys (axe caught "Diagram" mid-fade once, at a contrast under 4.5:1).
  for (const colorScheme of ["dark", "light"] as const) {
    await page.emulateMedia({ colorScheme });
    const [words, body] = await diagram.evaluate((b) => [getComputedStyle(b).color, getComputedStyle(document.body).color]);
    expect(words, colorScheme).toBe(body);
  }
  const group = page.getByRole("group", { name: "Notes: write or preview" });
  await group.getByRole("button", { name: "Preview" }).click();
  const preview = group.locator("xpath=..").locator(".wmde-markdown");
  await expect(preview.locator("pre code").first()).toHaveText("Selected words");
  await expect(preview.locator("table th").first()).toHaveText("Header");
  await expect(preview.locator("figure.diagram > svg")).toHaveCount(1);
});

test("the editor shows the note's text before its script runs, and takes no typing until it has", async ({ browser, page }) => {
  await signIn(page, AUTHOR);
  // The same session, without JavaScript: what the page is before its script has run.
  const plain = await browser.newContext({ storageState: await page.context().storageState(), javaScriptEnabled: false });
  const before = await plain.newPage();
  await before.goto("/studio/notes/AFN-016");
  const decision = before.locator("#section-decision");
  await expect(decision).toHaveValue(/\S/);
  await expect(decision).not.toBeEditable();
  await expect(before.getByText("Loading the editor…")).toHaveCount(0);
  const shown = await decision.inputValue();
  await plain.close();
  // Once it has run, the same field takes typing.
  await page.goto("/studio/notes/AFN-016");
  await expect(section(page, "Decision")).toBeEditable();
  await expect(section(page, "Decision")).toHaveValue(shown);
});

test("a second tab saves first: the first tab gets both versions side by side and keeps its text", async ({ page, context }) => {
  await signIn(page, AUTHOR);
  const id = await createNote(page);
  await fillRequired(page, "Contested note");
  await save(page);

  const other = await context.newPage();
  await other.goto(`/studio/notes/${id}`);
  await section(other, "Decision").fill("Their decision, saved first.");
  await save(other);

  await page.bringToFront();
  await section(page, "Evidence").fill("My evidence, typed before their save.");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("heading", { name: "This note changed while you were editing" })).toBeVisible();
  // The other tab was this same author's: the page says so, not "e2e-author saved…".
  await expect(page.getByText("You saved a newer version in another tab or window.")).toBeVisible();
  await expect(page.getByLabel("Your Evidence")).toHaveText("My evidence, typed before their save.");
  // What differs is marked on each side: their new words in theirs, mine in mine.
  await expect(page.getByLabel("Their Decision").locator("mark").first()).toBeVisible();
  expect((await page.getByLabel("Their Decision").locator("mark").allInnerTexts()).join(" ")).toContain("saved first");
  expect((await page.getByLabel("Your Decision").locator("mark").allInnerTexts()).join(" ")).toContain("Contested");
  await expect(page.getByLabel("Your Evidence").locator("mark")).toHaveText(["My evidence, typed before their save."]);
  await expect(page.getByLabel("Their Evidence")).toHaveText("");
  // Only they changed Decision, so the merge starts from theirs; only I changed Evidence, so from mine.
  await expect(page.getByLabel("Merged Decision")).toHaveValue("Their decision, saved first.");
  await expect(page.getByLabel("Merged Evidence")).toHaveValue("My evidence, typed before their save.");
  await page.getByRole("group", { name: "Decision" }).getByRole("button", { name: "Take mine" }).click();
  await expect(page.getByLabel("Merged Decision")).toHaveValue(`Decide Contested note.`);
  await page.getByRole("group", { name: "Decision" }).getByRole("button", { name: "Take theirs" }).click();
  await page.getByLabel("Merged Evidence").fill("My evidence, typed before their save, merged by hand.");

  await page.getByRole("button", { name: "Continue with the merged version" }).click();
  await expect(section(page, "Evidence")).toHaveValue("My evidence, typed before their save, merged by hand.");
  // One message, and it agrees with itself: merged, save it; no "someone saved a newer version" beside it.
  await expect(page.getByText("Merged: review it and save.")).toBeVisible();
  await expect(page.getByText(/Someone saved a newer version/)).toHaveCount(0);
  await expect(page.getByText(/You have unsaved edits of this note/)).toHaveCount(0);
  await save(page);
  const file = git("show", `refs/heads/drafts/${id}:notes/${id}.md`);
  expect(file).toContain("Their decision, saved first.");
  expect(file).toContain("My evidence, typed before their save, merged by hand.");
});

test("a link inside the studio asks before leaving unsaved text, and says where the text stays", async ({ page }) => {
  await signIn(page, AUTHOR);
  const id = await createNote(page);
  await fillRequired(page, "Left by a link");
  await save(page);
  await section(page, "Notes").fill("Typed, then the author clicked Reviews.");
  const asked: string[] = [];
  // First "stay": the editor keeps the text and the address.
  page.once("dialog", (d) => {
    asked.push(d.message());
    void d.dismiss();
  });
  await page.getByRole("navigation", { name: "Studio" }).getByRole("link", { name: "Reviews" }).click();
  await expect(section(page, "Notes")).toHaveValue("Typed, then the author clicked Reviews.");
  expect(page.url()).toContain(`/studio/notes/${id}`);
  expect(asked).toEqual(["This note has 1 unsaved change. Leave the editor? They stay in this browser and are offered back when you open the note again."]);
  // Then "leave": the reviews page opens, and coming back offers the text.
  page.once("dialog", (d) => void d.accept());
  await page.getByRole("navigation", { name: "Studio" }).getByRole("link", { name: "Reviews" }).click();
  await page.waitForURL(/\/studio\/reviews$/);
  await page.goto(`/studio/notes/${id}`);
  await page.getByRole("button", { name: "Restore unsaved edits" }).click();
  await expect(section(page, "Notes")).toHaveValue("Typed, then the author clicked Reviews.");
});

test("unsaved text survives a reload and is offered back", async ({ page }) => {
  await signIn(page, AUTHOR);
  const id = await createNote(page);
  await fillRequired(page, "Reloaded note");
  await section(page, "Invariant").fill("Typed, never saved, then the tab reloaded.");
  await page.reload();
  await expect(page.getByText(/You have unsaved edits of this note from/)).toBeVisible();
  await expect(section(page, "Invariant")).toHaveValue("");
  await page.getByRole("button", { name: "Restore unsaved edits" }).click();
  await expect(section(page, "Invariant")).toHaveValue("Typed, never saved, then the tab reloaded.");
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue("Reloaded note");
  await save(page);
  // Saved: nothing is offered any more.
  await page.reload();
  await expect(section(page, "Invariant")).toHaveValue("Typed, never saved, then the tab reloaded.");
  await expect(page.getByText(/You have unsaved edits/)).toHaveCount(0);
  expect(git("show", `refs/heads/drafts/${id}:notes/${id}.md`)).toContain("Typed, never saved");
});

test("proposing needs an invariant and a claim boundary; publishing shows the note to readers and agents", async ({ page, request }) => {
  await signIn(page, AUTHOR);
  const id = await createNote(page);
  const title = `Published from the studio ${id}`;
  await fillRequired(page, title);
  await save(page);

  const propose = page.getByRole("button", { name: "Propose as hypothesis" });
  await expect(propose).toBeDisabled();
  await expect(propose).toHaveAccessibleDescription(/the Invariant section is empty.*the Claim boundary section is empty/);
  const publish = page.getByRole("button", { name: "Publish", exact: true });
  await expect(publish).toBeDisabled();
  await expect(publish).toHaveAccessibleDescription(/a draft is not published: propose it as a hypothesis first/);

  await section(page, "Invariant").fill("No masked key is ever loaded.");
  await section(page, "Claim boundary").fill("Says nothing about other backends.");
  // Unsaved edits hold status changes back: they apply to the saved revision.
  await expect(propose).toHaveAccessibleDescription(/save your changes first/);
  await save(page);
  await expect(propose).toBeEnabled();
  await propose.click();
  await expect(page.getByRole("heading", { name: "Status: hypothesis" })).toBeVisible();
  expect(git("log", "-1", "--format=%an|%s", `refs/heads/drafts/${id}`)).toBe(`e2e-author|${id}: draft → hypothesis`);

  await expect(publish).toBeEnabled();
  const mainBefore = git("rev-parse", "refs/heads/main");
  await publish.click();
  // Asked once more before anything is public: "Not yet" publishes nothing. (Not "main is where it
  // was": other specs publish on the same server in parallel, and CI once saw main move meanwhile.)
  await page.getByRole("button", { name: "Not yet" }).click();
  await expect(page.getByRole("button", { name: "Not yet" })).toHaveCount(0);
  expect(git("log", "--format=%H", "refs/heads/main", "--", `notes/${id}.md`)).toBe("");
  expect(git("for-each-ref", "--format=%(refname)", `refs/heads/drafts/${id}`)).toBe(`refs/heads/drafts/${id}`);
  await publish.click();
  await expect(page.getByRole("group", { name: new RegExp(`Publish ${id} now\\?`) })).toContainText(
    "goes onto the public site, the feed and the agent formats at once",
  );
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(publishLanded(page)).toBeVisible();
  const commit = git("log", "-1", "--format=%H", "refs/heads/main", "--", `notes/${id}.md`);
  expect(git("log", "-1", "--format=%an <%ae>|%s", commit)).toBe(`e2e-author <e2e-author@users.field-notes.invalid>|Publish ${id}: ${title}`);
  expect(git("diff-tree", "--no-commit-id", "--name-only", "-r", commit)).toBe(`notes/${id}.md`);
  expect(git("merge-base", "--is-ancestor", mainBefore, commit) === "").toBe(true);
  expect(git("for-each-ref", `refs/heads/drafts/${id}`)).toBe("");

  // The public home and the note's page show it on the next request; so does the agents' index.
  await page.goto("/");
  await expect(page.getByText(title).first()).toBeVisible();
  const notePage = await request.get(`/notes/${id}`);
  expect(notePage.status()).toBe(200);
  expect(await notePage.text()).toContain(title);
  const index = await request.get("/agents/index.json");
  expect(index.status()).toBe(200);
  expect(JSON.stringify(await index.json())).toContain(id);
});
