import { expect, test, type Page } from "@playwright/test";
import { isSeedId, seed, SEED_IDS } from "./support/public-seed";

/**
 * Moving around the public archive: from a note to the next, to the list and to its sections; the
 * records as a table, filtered by status, tag and phase together, sorted and grouped, all in the
 * URL and without JavaScript; the archive's byline; a phrase highlighted as one; phases in order.
 * Other tests may publish extra notes (AFN-9xx) at the top of the list meanwhile, so neighbours are
 * checked in the middle of the seed's records and lists for the seed's notes.
 */

/** The seed page's byline: its first line. */
const BYLINE = "Andrea Borio";

const tableIds = (page: Page) => page.locator("table.records-table tbody td.col-id").allInnerTexts();

test.describe("a note page", () => {
  test("leads to the previous and next records in the editorial order, and back to the list", async ({ page }) => {
    const [before, id, after] = SEED_IDS.slice(4, 7);
    await page.goto(`/notes/${id}`);
    const neighbours = page.getByRole("navigation", { name: "Previous and next decision records" });
    await expect(neighbours.getByRole("link", { name: /Previous record/ })).toHaveAttribute("href", `/notes/${before}`);
    await neighbours.getByRole("link", { name: /Next record/ }).click();
    await expect(page).toHaveURL(new RegExp(`/notes/${after}$`));
    await expect(page.locator(".note__ids .id")).toHaveText(after ?? "");
    await page.getByRole("navigation", { name: "Previous and next decision records" }).getByRole("link", { name: "All decision records" }).click();
    await expect(page).toHaveURL(/\/#records$/);
    await expect(page.getByRole("heading", { name: "All decision records" })).toBeInViewport();
  });

  test("the last record says so instead of linking further", async ({ page }) => {
    await page.goto(`/notes/${SEED_IDS.at(-1)}`);
    const neighbours = page.getByRole("navigation", { name: "Previous and next decision records" });
    await expect(neighbours).toContainText("This is the last record.");
    await expect(neighbours.getByRole("link", { name: /Next record/ })).toHaveCount(0);
  });

  test("has an 'On this page' contents of its sections, beside the note and sticky on a wide screen", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/notes/AFN-016");
    const toc = page.getByRole("navigation", { name: "On this page" });
    await expect(toc.getByRole("listitem")).toHaveText([
      "How far to rely on it",
      "Decision",
      "Invariant",
      "Rejected shortcut",
      "Evidence",
      "Claim boundary",
      "Notes",
      "Related notes",
    ]);
    await toc.getByRole("link", { name: "Evidence" }).click();
    await expect(page).toHaveURL(/#evidence$/);
    await expect(page.getByRole("heading", { level: 2, name: "Evidence" })).toBeInViewport();

    // In the right-hand column, and still in view far down the note.
    const article = await page.locator("section.note-section").first().boundingBox();
    const beside = await toc.boundingBox();
    expect(beside && article && beside.x).toBeGreaterThan((article?.x ?? 0) + (article?.width ?? 0));
    await page.getByRole("heading", { name: "Referenced by" }).scrollIntoViewIfNeeded();
    await expect(toc).toBeInViewport();
  });

  test("on a phone the contents come before the sections, in the one column", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto("/notes/AFN-016");
    const toc = await page.getByRole("navigation", { name: "On this page" }).boundingBox();
    const decision = await page.getByRole("heading", { level: 2, name: "Decision" }).boundingBox();
    expect(toc && decision && toc.y).toBeLessThan(decision?.y ?? 0);
    expect((toc?.x ?? 0) + (toc?.width ?? 0)).toBeLessThanOrEqual(390);
  });

  test("names the archive's author for the seed, not the app", async ({ page }) => {
    await page.goto("/notes/AFN-016");
    await expect(page.locator(".facts")).toContainText(`by ${BYLINE}`);
    await expect(page.locator(".facts")).not.toContainText("by Field Notes");
  });
});

test("the home page carries the seed's byline as the archive's author", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator(".masthead .byline")).toHaveText(`By ${BYLINE}`);
});

test.describe("all decision records", () => {
  test.use({ javaScriptEnabled: false });

  test("filters by status, tag and phase together from a form, into the URL", async ({ page }) => {
    await page.goto("/");
    const form = page.getByRole("form", { name: "Filter and sort the records" });
    await form.getByLabel("Status").selectOption("verified-checkpoint");
    await form.getByLabel("Phase").selectOption({ label: "Phase 6 architecture" });
    await form.getByRole("button", { name: "Apply" }).click();
    // Only the choices made, none of the empty ones the form sends.
    await expect(page).toHaveURL(/\/\?status=verified-checkpoint&phase=6-architecture#records$/);
    const expected = seed.records.filter((r) => r.status === "verified checkpoint" && r.phase === "Phase 6 architecture").map((r) => r.id);
    expect(expected.length).toBeGreaterThan(0);
    const ids = await page.locator("ol.records article .card__meta .id").allInnerTexts();
    expect(ids.filter(isSeedId)).toEqual(expected);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Status: verified checkpoint · Phase 6 architecture");
  });

  test("a tag from the form: a tidy address, the count line in view, and status counts that follow the tag", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 700 });
    await page.goto("/");
    const form = page.getByRole("form", { name: "Filter and sort the records" });
    await form.getByLabel("Tag").selectOption({ label: "sparse attention" });
    await form.getByRole("button", { name: "Apply" }).click();
    // The form sends every choice, empty ones too; the address a reader sees and shares is the tidy one.
    await expect(page).toHaveURL(/\/\?tag=sparse-attention#records$/);
    const countLine = page.locator(".page-head .counts");
    await expect(countLine).toBeInViewport();
    const [shown, archive] = ((await countLine.innerText()).match(/\d+/g) ?? []).map(Number);
    expect(shown).toBeLessThan(archive ?? 0);
    const bar = page.getByRole("navigation", { name: "Filter by status" });
    await expect(bar.getByRole("link", { name: /^all/ }).locator(".count")).toHaveText(String(shown));
    const perStatus = (await bar.locator("li:not(:first-child) .count").allInnerTexts()).map(Number);
    expect(perStatus.reduce((a, b) => a + b, 0)).toBe(shown);
  });

  test("a tag and a status combine in the address, and the table shows id, status, title, phase and date", async ({ page }) => {
    await page.goto("/?status=verified-checkpoint&tag=sparse-attention&view=table");
    const expected = seed.records.filter((r) => r.status === "verified checkpoint" && r.tags.includes("sparse attention")).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(0);
    expect((await tableIds(page)).filter(isSeedId)).toEqual(expected);
    await expect(page.locator("table.records-table thead th")).toHaveText(["ID", "Status", "Title", "Phase", "Updated"]);
    const row = page.locator("table.records-table tbody tr").first();
    await expect(row.locator(".col-status .status")).toHaveText("verified checkpoint");
    await expect(row.locator(".col-updated time")).toHaveText(/^\d{1,2} \w{3} \d{4}$/);
    await expect(page.locator("ol.records")).toHaveCount(0);
  });

  test("sorts by a column heading, and the other way on a second click", async ({ page }) => {
    await page.goto("/?view=table");
    expect((await tableIds(page)).filter(isSeedId)).toEqual(SEED_IDS);
    await page.getByRole("link", { name: /^Title: sort/ }).click();
    await expect(page).toHaveURL(/[?&]sort=title/);
    const titles = await page.locator("table.records-table tbody td.col-title").allInnerTexts();
    expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })));
    await expect(page.locator("th.col-title")).toHaveAttribute("aria-sort", "ascending");
    await page.getByRole("link", { name: /^Title: sort/ }).click();
    await expect(page).toHaveURL(/[?&]dir=desc/);
    await expect(page.locator("th.col-title")).toHaveAttribute("aria-sort", "descending");
    const down = await page.locator("table.records-table tbody td.col-title").allInnerTexts();
    expect(down).toEqual([...titles].reverse());
  });

  test("groups by phase, phases in number order, keeping the view", async ({ page }) => {
    await page.goto("/?view=table");
    await page.getByRole("link", { name: "Group by phase" }).click();
    await expect(page).toHaveURL(/[?&]group=phase/);
    await expect(page).toHaveURL(/[?&]view=table/);
    const groups = (await page.locator(".phase-group__heading").allInnerTexts()).map((h) => h.replace(/\s*\d+$/, "").replace(/^Phase /, ""));
    const seedPhases = [...new Set(seed.records.map((r) => r.phase.replace(/^Phase /, "")))];
    expect(groups).toEqual(expect.arrayContaining(seedPhases));
    expect(groups).toEqual(inPhaseOrder(groups));
  });

  test("the status links keep the other filters and the view", async ({ page }) => {
    await page.goto("/?phase=6-architecture&view=table");
    await page
      .getByRole("navigation", { name: "Filter by status" })
      .getByRole("link", { name: /verified checkpoint/ })
      .click();
    await expect(page).toHaveURL(/\?status=verified-checkpoint&phase=6-architecture&view=table#records$/);
    const expected = seed.records.filter((r) => r.status === "verified checkpoint" && r.phase === "Phase 6 architecture").map((r) => r.id);
    expect(expected.length).toBeGreaterThan(0);
    expect((await tableIds(page)).filter(isSeedId)).toEqual(expected);
  });
});

test("on a phone the cards fold their tags to a count", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto("/");
  const card = page.locator("ol.records article").filter({ has: page.locator(".id", { hasText: "AFN-016" }) });
  await expect(card.locator(".tags")).toBeHidden();
  const count = seed.records.find((r) => r.id === "AFN-016")?.tags.length;
  await expect(card.locator(".tags-more")).toHaveText(`${count} tags`);
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(card.locator(".tags")).toBeVisible();
  await expect(card.locator(".tags-more")).toBeHidden();
});

test.describe("search", () => {
  test("marks a phrase as one highlight, not word by word", async ({ page }) => {
    await page.goto("/search?q=sparse+attention");
    const marks = await page.locator("ol.results mark").allInnerTexts();
    expect(marks.map((m) => m.toLowerCase())).toContain("sparse attention");
    await expect(page.getByRole("search")).toHaveCount(1);
  });

  test("a match in a tag shows the tag, linked", async ({ page }) => {
    await page.goto("/search?q=left+padding");
    const withTag = page
      .locator("ol.results > li")
      .filter({ has: page.locator(".result__tags") })
      .first();
    const tag = withTag.locator(".result__tags").getByRole("link", { name: "left padding" });
    await expect(tag).toHaveAttribute("href", "/tags/left-padding");
    await expect(tag.locator("mark")).toHaveText("left padding");
  });
});

test("a phase page lists the other phases by number, then the named ones", async ({ page }) => {
  await page.goto("/phases/5");
  const names = (await page.getByRole("navigation", { name: "Other phases" }).getByRole("link").allInnerTexts()).map((n) => n.replace(/^Phase /, ""));
  expect(names.length).toBeGreaterThan(3);
  expect(names).not.toContain("5");
  expect(names).toEqual(inPhaseOrder(names));
  expect(names.indexOf("4")).toBeLessThan(names.indexOf("6 architecture"));
});

/** Numbered phases by their leading number, then named phases alphabetically: what a reader expects. */
function inPhaseOrder(names: string[]): string[] {
  const lead = (s: string) => /^\d+/.exec(s)?.[0];
  return [...names].sort((a, b) => {
    const [na, nb] = [lead(a), lead(b)];
    if (na && nb) return Number(na) - Number(nb) || a.localeCompare(b);
    if (na || nb) return na ? -1 : 1;
    return a.localeCompare(b, "en", { sensitivity: "base" });
  });
}

test.describe("a public page's links are plain links", () => {
  // Public pages load as documents from the page cache, without Next's router, so nothing fetches
  // for a link: a prefetch per link in view was a request (and main-thread work) on every page a reader
  // opened, which Lighthouse counted against it (docs/decisions/public-links-are-plain-links.md).
  for (const path of ["/", "/notes/AFN-016", "/search?q=sparse+attention"]) {
    test(`${path} asks the server for nothing once it has loaded, and a link loads its page`, async ({ page }) => {
      const routerFetches: string[] = [];
      page.on("request", (r) => {
        if (new URL(r.url()).searchParams.has("_rsc") || r.headers()["rsc"]) routerFetches.push(r.url());
      });
      await page.goto(path);
      // Loaded (no script runs on a public page: docs/decisions/public-pages-without-the-client-runtime.md),
      // then every link scrolled into view.
      await page.waitForLoadState("load");
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.waitForLoadState("networkidle");
      expect(routerFetches).toEqual([]);
      const href = await page
        .locator("main a")
        .evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? "").find((h) => /^\/notes\/AFN-\d+$/.test(h)));
      expect(href).toBeTruthy();
      const link = page.locator(`main a[href='${href}']`).first();
      await link.click();
      await expect(page).toHaveURL(new RegExp(`${href}$`));
      await expect(page.locator(".note__ids .id")).toHaveText(href?.slice("/notes/".length) ?? "");
      expect(routerFetches).toEqual([]);
    });
  }
});
