import { expect, test } from "@playwright/test";
import { strToU8, zipSync } from "fflate";
import { seriousViolations } from "./support/axe";
import { AUTHOR, ensureAccounts, signIn } from "./support/studio";

/**
 * The studio's Import page in a real browser (issue #28): an author opens it from the header,
 * uploads a zip of a small ADR folder made here, sees the plan, runs it, watches the progress bar
 * reach 100% and the report, and opens an imported draft in the editor. axe finds nothing serious
 * on the page with its plan and report, light and dark.
 */

const RECORDS = {
  "0041-cache-sessions.md": `---
status: Proposed
date: 2022-03-01
---

# Cache sessions in Redis

## Decision

Sessions live in Redis with a one-hour expiry.

## Invariant

A session is never stored in the application's memory.

## Claim boundary

Says nothing about cache sizing.
`,
  "0042-structured-logging.md": `---
date: 2022-04-01
---

# Structured logging

## Decision

Every service logs JSON lines.
`,
  "README.md": "# Decisions\n\nThe team's decision records.\n",
};

function adrZip(): Buffer {
  const files = Object.fromEntries(Object.entries(RECORDS).map(([name, text]) => [`e2e-adrs/docs/adr/${name}`, strToU8(text)]));
  return Buffer.from(zipSync(files));
}

test.beforeAll(() => ensureAccounts());

test("an author uploads a zip of ADRs, sees the plan, runs it to 100% and opens an imported draft", async ({ page }) => {
  // Three axe runs and the editor's first load: more than the default minute on a shared machine.
  test.setTimeout(180_000);
  await signIn(page, AUTHOR);
  await page.getByRole("link", { name: "Import", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Import decision records" })).toBeVisible();

  // The form by keyboard: the source's kind is a radio group, the zip a file input with its label.
  await page.getByLabel("A zip of the folder", { exact: true }).check();
  await page.getByLabel("Zip of the folder", { exact: true }).setInputFiles({ name: "e2e-adrs.zip", mimeType: "application/zip", buffer: adrZip() });
  await page.getByLabel(/Status overrides/).fill("Proposed=hypothesis");
  await page.getByRole("button", { name: "Show the plan" }).focus();
  await page.keyboard.press("Enter");

  const plan = page.getByRole("table", { name: "Records" });
  await expect(plan).toBeVisible();
  await expect(plan.getByRole("row", { name: /ADR-041/ })).toContainText("front-matter");
  await expect(plan.getByRole("row", { name: /ADR-041/ })).toContainText("Proposed → hypothesis");
  await expect(plan.getByRole("row", { name: /ADR-042/ })).toContainText("(no status) → draft");
  await expect(page.getByText("docs/adr/README.md:1")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole("button", { name: /Run the import/ }).click();
  const bar = page.locator("progress");
  await expect(bar).toHaveAttribute("value", "100", { timeout: 30_000 });
  await expect(page.getByRole("status").filter({ hasText: "Done" })).toContainText("(100%)");
  await expect(page.getByRole("status").filter({ hasText: "Done" })).toContainText("2 of 2 records");
  await expect(page.getByRole("heading", { name: "Report" })).toBeVisible();
  const report = page.getByRole("table", { name: "Imported records" });
  await expect(report.getByRole("row", { name: /ADR-041/ })).toContainText("on the import branch");
  expect(await seriousViolations(page)).toEqual([]);
  await page.emulateMedia({ colorScheme: "dark" });
  expect(await seriousViolations(page)).toEqual([]);
  await page.emulateMedia({ colorScheme: "light" });

  await report.getByRole("link", { name: "ADR-042" }).click();
  await page.waitForURL((url) => url.pathname === "/studio/notes/ADR-042");
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue("Structured logging");
});

test("a zip whose entry reaches outside its folder is refused beside the file field", async ({ page }) => {
  await signIn(page, AUTHOR, "/studio/import");
  await page.getByLabel("A zip of the folder", { exact: true }).check();
  const evil = Buffer.from(zipSync({ "adrs/0001-a.md": strToU8("# 1. A\n"), "../evil.md": strToU8("x") }));
  await page.getByLabel("Zip of the folder", { exact: true }).setInputFiles({ name: "evil.zip", mimeType: "application/zip", buffer: evil });
  await page.getByRole("button", { name: "Show the plan" }).click();
  const field = page.getByLabel("Zip of the folder", { exact: true });
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(/the entry "..\/evil.md" points outside the zip's folder/).first()).toBeVisible();
  await expect(page.getByRole("table", { name: "Records" })).toHaveCount(0);
});
