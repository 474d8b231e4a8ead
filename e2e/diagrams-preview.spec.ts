import { expect, test } from "@playwright/test";
import { AUTHOR, createNote, ensureAccounts, signIn } from "./support/studio";

/**
 * The studio's preview draws a Mermaid block as the published page will (same renderer, same
 * checks, loaded as its own chunk), and shows a block that does not parse as its source and reason.
 */

test.beforeAll(() => ensureAccounts());

test("the editor's preview draws a diagram and explains a broken one", async ({ page }) => {
  await signIn(page, AUTHOR);
  await createNote(page);
  const field = page.locator("#section-evidence");
  await field.fill("Flow:\n\n```mermaid\nflowchart LR\n  draft[Draft] --> review{Review}\n```\n\n```mermaid\nnot a diagram\n```\n");
  const group = page.getByRole("group", { name: "Evidence: write or preview" });
  await group.getByRole("button", { name: "Preview" }).click();
  const preview = group.locator("xpath=..").locator(".wmde-markdown");
  await expect(preview.locator("figure.diagram > svg")).toHaveCount(1);
  expect(await preview.locator("figure.diagram > svg text").allTextContents()).toEqual(expect.arrayContaining(["Draft", "Review"]));
  await expect(preview.locator("figure.diagram-error").getByRole("note")).toContainText("This diagram could not be drawn: Invalid mermaid header");
  await expect(preview.locator("figure.diagram-error pre code")).toHaveText("not a diagram");
});
