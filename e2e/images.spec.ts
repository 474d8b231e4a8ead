import { expect, test, type Page } from "@playwright/test";
import sharp from "sharp";
import { AUTHOR, REVIEWER, createNote, ensureAccounts, fillRequired, git, save, section, signIn, publishLanded } from "./support/studio";

/**
 * A figure from the author's clipboard to the reader's page: pasted into a section, described (alt
 * text), saved with the note, published with it, and shown on the public page with JavaScript on
 * and off. Until it is published, its address shows nothing to a visitor who is not signed in.
 */

test.describe.configure({ timeout: 120_000 });
test.beforeAll(() => ensureAccounts());

/** Pastes `bytes` as an image file into the textarea, as a browser does with a copied screenshot. */
async function pasteImage(page: Page, textareaLabel: string, bytes: Buffer) {
  await section(page, textareaLabel).click();
  await section(page, textareaLabel).press("Control+End"); // the caret after the text, where the image goes
  await section(page, textareaLabel).evaluate((textarea, b64) => {
    const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([data], "screenshot.png", { type: "image/png" }));
    textarea.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, bytes.toString("base64"));
}

test("an author pastes an image, describes it, publishes the note; readers see it with and without JavaScript", async ({ page, browser, request }) => {
  await signIn(page, AUTHOR);
  const id = await createNote(page);
  await fillRequired(page, `Figure note ${id}`);
  await section(page, "Invariant").fill("No masked key is ever loaded.\n\n```mermaid\nflowchart LR\n  mask[Block mask] --> kernel{Kernel}\n```\n");
  await section(page, "Claim boundary").fill("Says nothing about other backends.");
  await section(page, "Evidence").fill("The mask, as measured:");

  const png = await sharp({ create: { width: 480, height: 270, channels: 3, background: "#2b6cb0" } })
    .png()
    .toBuffer();
  // Esc: the dialog closes, nothing goes in, and the caret is back in the field it was pasted into.
  await pasteImage(page, "Evidence", png);
  const describe = page.getByRole("dialog", { name: "Describe the image" });
  await expect(describe).toBeVisible();
  await expect(describe.getByRole("textbox", { name: "Alt text (required)" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(describe).toBeHidden();
  await expect(section(page, "Evidence")).toBeFocused();
  await expect(section(page, "Evidence")).toHaveValue("The mask, as measured:");

  await pasteImage(page, "Evidence", png);
  await expect(describe).toBeVisible();
  // Alt text is required: an empty answer is refused in the dialog, and nothing is inserted.
  await describe.getByRole("button", { name: "Insert image" }).click();
  await expect(describe.getByRole("alert")).toHaveText(/Alt text is required/);
  await expect(describe.getByRole("textbox", { name: "Alt text (required)" })).toHaveAttribute("aria-invalid", "true");
  await expect(section(page, "Evidence")).toHaveValue("The mask, as measured:");
  await describe.getByRole("textbox", { name: "Alt text (required)" }).fill("Block mask: the kernel skips the grey blocks");
  await page.keyboard.press("Enter");
  await expect(describe).toBeHidden();
  await expect(section(page, "Evidence")).toHaveValue(
    new RegExp(`The mask, as measured:\\n\\n!\\[Block mask: the kernel skips the grey blocks\\]\\(assets/${id}/[0-9a-f]{40}\\.png\\)`),
  );
  await expect(section(page, "Evidence")).toBeFocused();
  const path = /\((assets\/[^)]+)\)/.exec(await section(page, "Evidence").inputValue())![1]!;
  const url = `/${path}`;

  // Uploaded, not saved: the author's preview can load it; a visitor gets nothing.
  expect((await page.request.get(url)).status()).toBe(200);
  expect((await request.get(url)).status()).toBe(404);

  await save(page);
  expect(git("diff-tree", "--no-commit-id", "--name-only", "-r", `refs/heads/drafts/${id}`).split("\n").sort()).toEqual([path, `notes/${id}.md`].sort());
  expect((await request.get(url)).status()).toBe(404); // a draft's image is the draft's: signed-in people only

  // A reviewer sees the figure and the diagram on the review page, drawn as readers will see them.
  const reviewerContext = await browser.newContext();
  const reviewer = await reviewerContext.newPage();
  await signIn(reviewer, REVIEWER, `/studio/notes/${id}/review`);
  const underReview = reviewer.getByRole("img", { name: "Block mask: the kernel skips the grey blocks" });
  await underReview.scrollIntoViewIfNeeded();
  await expect.poll(() => underReview.evaluate((e: HTMLImageElement) => e.complete && e.naturalWidth)).toBe(480);
  expect(await reviewer.locator("figure.diagram > svg text").allTextContents()).toEqual(expect.arrayContaining(["Block mask", "Kernel"]));
  await reviewerContext.close();

  await page.getByRole("button", { name: "Propose as hypothesis" }).click();
  // A status change and a publish commit with the image inspected again: seconds on a loaded 2-core machine.
  await expect(page.getByRole("heading", { name: "Status: hypothesis" })).toBeVisible({ timeout: 30_000 });
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(publishLanded(page)).toBeVisible({ timeout: 30_000 });
  const published = git("log", "-1", "--format=%H", "refs/heads/main", "--", `notes/${id}.md`);
  expect(git("diff-tree", "--no-commit-id", "--name-only", "-r", published).split("\n").sort()).toEqual([path, `notes/${id}.md`].sort());

  const answer = await request.get(url);
  expect([answer.status(), answer.headers()["content-type"], answer.headers()["cache-control"]]).toEqual([
    200,
    "image/png",
    "public, max-age=31536000, immutable",
  ]);

  for (const javaScriptEnabled of [true, false]) {
    const context = await browser.newContext({ javaScriptEnabled });
    const reader = await context.newPage();
    await reader.goto(`/notes/${id}`);
    const img = reader.getByRole("img", { name: "Block mask: the kernel skips the grey blocks" });
    await expect(img).toHaveAttribute("src", url);
    // The space is reserved before the image arrives.
    await expect(img).toHaveAttribute("width", "480");
    await expect(img).toHaveAttribute("height", "270");
    await img.scrollIntoViewIfNeeded();
    await expect
      .poll(() => img.evaluate((e: HTMLImageElement) => e.complete && e.naturalWidth), { message: `JavaScript ${javaScriptEnabled ? "on" : "off"}` })
      .toBe(480);
    await context.close();
  }
});
