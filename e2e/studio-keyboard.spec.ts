import { expect, test, type Page } from "@playwright/test";
import { signInByKeyboard, tabTo, typeKeys as type } from "./support/keyboard";
import { AUTHOR, ensureAccounts, git, saveState, section, publishLanded } from "./support/studio";

/**
 * The studio by keyboard only: no click, no fill, no selectOption. Sign in, open "New note", reach
 * every control with Tab, fill every field (phase from its select, tags and a related note as chips,
 * a boundary, the core rank and label, all six sections, a note link from the picker dialog that
 * Esc closes), save with Ctrl+S, propose, publish. Everything typed must arrive on main.
 */

test.describe.configure({ timeout: 150_000 });
test.beforeAll(() => ensureAccounts());

/**
 * One Tab pass over the editor's form, from the link above it until focus leaves it: every control
 * it reaches is marked, and each one, as it takes focus, must be wholly in the window and clear of
 * the sticky save bar (the bar is allowed to hold only its own controls). Answers what was reached
 * and each control that was hidden, with where it was.
 */
async function tabPass(page: Page): Promise<{ reached: number; hidden: string[] }> {
  await tabTo(page, page.getByRole("link", { name: "← All notes in the studio" }), { max: 250 });
  let entered = false;
  let reached = 0;
  const hidden: string[] = [];
  for (let i = 0; i < 300; i++) {
    await page.keyboard.press("Tab");
    const at = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      const form = document.querySelector("main form");
      if (!el || !form?.contains(el)) return null;
      el.setAttribute("data-tabbed", "");
      const bar = document.querySelector<HTMLElement>("[data-save-bar]");
      const r = el.getBoundingClientRect();
      const b = bar?.getBoundingClientRect();
      const name = `${el.tagName.toLowerCase()}#${el.id || "-"} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 30)}"`;
      const where = `top ${Math.round(r.top)} bottom ${Math.round(r.bottom)}, bar ${b ? `${Math.round(b.top)}-${Math.round(b.bottom)}` : "none"}, window ${innerHeight}`;
      const inBar = !!bar?.contains(el);
      const underBar = !inBar && !!b && r.top < b.bottom && r.bottom > b.top;
      // A field taller than the room below the bar cannot be wholly shown; its top must be.
      const room = innerHeight - (b && b.top <= 1 ? b.bottom : 0);
      const outside = r.top < 0 || (r.height <= room ? r.bottom > innerHeight : r.top > innerHeight);
      return { name, where, hidden: underBar || outside };
    });
    if (at === null) {
      if (entered) break;
      continue;
    }
    entered = true;
    reached++;
    if (at.hidden) hidden.push(`${at.name}: ${at.where}`);
  }
  return { reached, hidden };
}

test("an author writes, saves with Ctrl+S, proposes and publishes a note without touching the mouse", async ({ page }) => {
  const title = `Written by keyboard ${Date.now().toString(36)}`;

  // Sign in.
  await signInByKeyboard(page, AUTHOR, "/studio");

  // New note: an unsaved form.
  await tabTo(page, page.getByRole("link", { name: "New note" }));
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/studio\/notes\/new$/);
  await expect(section(page, "Notes")).toBeVisible();

  // Every control of the form is reached by Tab, in one pass from the link above it (the save bar
  // first, then the fields), and none is under the save bar or out of the window when it has focus.
  const controls = page
    .locator("main form")
    .locator("a[href], button:not([disabled]), input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled])");
  const count = await controls.count();
  expect(count).toBeGreaterThan(40);
  const pass = await tabPass(page);
  expect(pass.hidden).toEqual([]);
  expect(pass.reached).toBeGreaterThan(40);
  const missed = await controls.evaluateAll((els) =>
    els.filter((el) => !el.hasAttribute("data-tabbed") && (el as HTMLElement).offsetParent !== null).map((el) => el.outerHTML.slice(0, 120)),
  );
  expect(missed).toEqual([]);

  // Title and summary.
  await tabTo(page, page.getByLabel("Title", { exact: true }), { back: true, max: 250 });
  await type(page, title);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Summary", { exact: true })).toBeFocused();
  await type(page, "A note written and published with the keyboard alone.");

  // Phase: a select of main's phases, moved with the arrow keys.
  const phase = page.getByLabel("Phase", { exact: true });
  await tabTo(page, phase);
  for (let i = 0; i < 20 && (await phase.inputValue()) !== "6 architecture"; i++) await page.keyboard.press("ArrowDown");
  await expect(phase).toHaveValue("6 architecture");

  // Tags and a related note become chips on Enter.
  await tabTo(page, page.getByLabel("Tags", { exact: true }));
  await type(page, "keyboard");
  await page.keyboard.press("Enter");
  await type(page, "e2e");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("list", { name: "Tags chosen" }).getByRole("listitem")).toHaveText(["keyboard×", "e2e×"]);
  await tabTo(page, page.getByLabel("Related notes", { exact: true }));
  await type(page, "afn-001");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("list", { name: "Related notes chosen" })).toContainText("AFN-001");

  // What the note governs: a glob, a chip on Enter.
  await tabTo(page, page.getByLabel("Affects", { exact: true }));
  await type(page, "src/keyboard/**");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("list", { name: "Affects chosen" })).toContainText("src/keyboard/**");

  // A boundary (Space checks it), the core rank and label.
  await tabTo(page, page.getByRole("checkbox").first());
  await page.keyboard.press("Space");
  await expect(page.getByRole("checkbox").first()).toBeChecked();
  await tabTo(page, page.getByLabel("Core rank"));
  await type(page, "42");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Core label")).toBeFocused();
  await type(page, "Keyboard walk");

  // The six sections; in Invariant, a note link from the picker (Esc closes it the first time).
  const texts: Record<string, string> = {
    Decision: "Every control is reachable by Tab.",
    Invariant: "No field needs a mouse; see ",
    "Rejected shortcut": "Testing with clicks only.",
    Evidence: "- this walk, run in CI",
    "Claim boundary": "Says nothing about screen readers.",
    Notes: "Saved with Ctrl+S.",
  };
  for (const [name, text] of Object.entries(texts)) {
    await tabTo(page, section(page, name));
    await type(page, text);
    if (name !== "Invariant") continue;
    const linkButton = page.getByRole("button", { name: "Link to a note in Invariant" });
    await tabTo(page, linkButton, { back: true });
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Link to a note" });
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    // Focus is back on the button as Esc closes it, not a frame later: an Enter pressed at once opens it again.
    expect(await linkButton.evaluate((button) => button === document.activeElement)).toBe(true);
    await expect(dialog).toHaveCount(0);
    await page.keyboard.press("Enter");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Find a note by id or title")).toBeFocused();
    await type(page, "AFN-002");
    await page.keyboard.press("Enter");
    await expect(dialog).toHaveCount(0);
    await expect(section(page, name)).toHaveValue(`${text}AFN-002`);
    await expect(section(page, name)).toBeFocused();
  }

  // Ctrl+S saves (14 fields filled, Affects among them): the id is claimed now, and the editor moves to the note's address.
  await expect(saveState(page)).toHaveText(/^Not saved yet · 14 unsaved changes$/);
  await page.keyboard.press("Control+s");
  await page.waitForURL(/\/studio\/notes\/[A-Z]+-\d{3,}$/);
  const id = new URL(page.url()).pathname.split("/").pop() ?? "";
  await expect(saveState(page)).toHaveText(/^Saved just now · all changes saved$/);
  expect(git("log", "-1", "--format=%an|%s", `refs/heads/drafts/${id}`)).toBe(`e2e-author|${id}: write "${title}"`);

  // Propose, then publish, by keyboard.
  const propose = page.getByRole("button", { name: "Propose as hypothesis" });
  await expect(propose).toBeEnabled();
  await tabTo(page, propose, { max: 200 });
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Status: hypothesis" })).toBeVisible();
  const publish = page.getByRole("button", { name: "Publish", exact: true });
  await expect(publish).toBeEnabled();
  await tabTo(page, publish);
  await page.keyboard.press("Enter");
  // Asked once more; the confirmation has the focus.
  await expect(page.getByRole("button", { name: "Publish now" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(publishLanded(page)).toBeVisible();

  // Everything typed is on main, as one note.
  const file = git("show", `refs/heads/main:notes/${id}.md`);
  for (const expected of [
    title,
    "A note written and published with the keyboard alone.",
    "phase: 6 architecture",
    "  - keyboard\n  - e2e",
    "  - AFN-001",
    "rank: 42",
    "Keyboard walk",
    "status: hypothesis",
    ...Object.values(texts),
    "No field needs a mouse; see AFN-002",
  ]) {
    expect(file).toContain(expected);
  }
  expect(file).toMatch(/boundaries:\n {2}- \S+/);
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 720 },
]) {
  test(`at ${viewport.width} px, Tab through a note with every field written never lands under the save bar`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signInByKeyboard(page, AUTHOR, "/studio");
    // A published note opens with all its text in the fields (nothing is written by looking).
    await page.goto("/studio/notes/AFN-016");
    await expect(section(page, "Evidence")).toHaveValue(/\S/);
    const pass = await tabPass(page);
    expect(pass.reached).toBeGreaterThan(40);
    expect(pass.hidden).toEqual([]);
  });
}
