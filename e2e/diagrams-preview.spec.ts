import { expect, test } from "@playwright/test";
import { AUTHOR, createNote, ensureAccounts, signIn } from "./support/studio";

/**
 * The studio's preview draws a Mermaid block as the published page will (same renderer, same
 * checks, loaded as its own chunk), and shows a block that does not parse as its source and reason.
 *
 * The renderer's chunk is held back until the preview has shown the block as pending: the
 * diagram must then appear by itself, without another keystroke (CI once caught the preview
 * rendering before the chunk arrived and never again). Code is highlighted the same way, each
 * grammar its own chunk, held back likewise.
 */

test.beforeAll(() => ensureAccounts());

test("the editor's preview draws a diagram and explains a broken one, even when the renderer arrives late", async ({ page }) => {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/_next/static/chunks/**/*.js", async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    // The renderer's chunk is the one that holds its parse error message.
    if (body.includes("Invalid mermaid header")) await released;
    await route.fulfill({ response, body });
  });

  await signIn(page, AUTHOR);
  await createNote(page);
  const field = page.locator("#section-evidence");
  await field.fill("Flow:\n\n```mermaid\nflowchart LR\n  draft[Draft] --> review{Review}\n```\n\n```mermaid\nnot a diagram\n```\n");
  const group = page.getByRole("group", { name: "Evidence: write or preview" });
  await group.getByRole("button", { name: "Preview" }).click();
  const preview = group.locator("xpath=..").locator(".wmde-markdown");
  await expect(preview.locator("figure.diagram-pending")).toHaveCount(2);
  await expect(preview).toHaveAttribute("aria-busy", "true");

  release();
  await expect(preview.locator("figure.diagram > svg")).toHaveCount(1);
  await expect(preview).toHaveAttribute("aria-busy", "false");
  expect(await preview.locator("figure.diagram > svg text").allTextContents()).toEqual(expect.arrayContaining(["Draft", "Review"]));
  await expect(preview.locator("figure.diagram-error").getByRole("note")).toContainText("This diagram could not be drawn: Invalid mermaid header");
  await expect(preview.locator("figure.diagram-error pre code")).toHaveText("not a diagram");
});

test("the editor's preview highlights code as the page does, loading only the grammar it shows (and no diagram renderer), even when it arrives late", async ({
  page,
}) => {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const scripts: string[] = [];
  await page.route("**/_next/static/chunks/**/*.js", async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    scripts.push(body);
    // The TypeScript grammar's chunk is the one that names its scope.
    if (body.includes("source.ts")) await released;
    await route.fulfill({ response, body });
  });

  await signIn(page, AUTHOR);
  await createNote(page);
  const field = page.locator("#section-evidence");
  await field.fill("The rule:\n\n```ts\nexport const limit: number = 32;\n```\n");
  const group = page.getByRole("group", { name: "Evidence: write or preview" });
  await group.getByRole("button", { name: "Preview" }).click();
  const preview = group.locator("xpath=..").locator(".wmde-markdown");
  const block = preview.locator(".code-block");
  // Before its grammar: the text as written, plain, under the page's label.
  await expect(block.locator(".code-language")).toHaveText("TypeScript");
  await expect(block.locator("pre code")).toHaveText("export const limit: number = 32;");
  await expect(block.locator("pre.highlighted")).toHaveCount(0);

  release();
  await expect(block.locator("pre.highlighted")).toHaveCount(1);
  // Keywords and numbers in the page's token colours (figures.css), not one colour for everything.
  await expect(block.locator("span.hl-d73a49")).toHaveCount(4);
  const colours = await block.locator("span[class*='hl-']").evaluateAll((spans) => new Set(spans.map((s) => getComputedStyle(s).color)).size);
  expect(colours).toBeGreaterThan(1);

  // Only the grammar shown came to the browser: TypeScript's, not Rust's, Kotlin's or C++'s, and not
  // the diagram renderer (1.6 MB of script) for a page that shows no diagram.
  expect(scripts.some((s) => s.includes("source.ts"))).toBe(true);
  expect(scripts.filter((s) => s.includes("Invalid mermaid header")).length, "diagram renderer chunks loaded").toBe(0);
  for (const scope of ["source.rust", "source.kotlin", "source.cpp"])
    expect(
      scripts.filter((s) => s.includes(scope)),
      scope,
    ).toEqual([]);
});
