import { expect, test, type Page } from "@playwright/test";
import { isSeedId, seed, seedCount, SEED_IDS } from "./support/public-seed";

/**
 * The public archive as a reader meets it, on the seeded repository. Other tests may publish extra
 * notes (AFN-9xx) meanwhile, so lists are checked for the seed's notes in the seed's order, and
 * every count against what the same page lists.
 */

async function recordIds(page: Page, list = page.locator("ol.records")) {
  return list.locator("article .card__meta .id").allInnerTexts();
}

test.describe("home", () => {
  test("is the seed's page, computed from the content", async ({ page }) => {
    const res = await page.goto("/");
    expect(res?.status()).toBe(200);
    await expect(page.locator(".kicker").first()).toHaveText("Agent-native knowledge base");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Inference Architecture Field Notes");
    await expect(page.locator(".lede")).toContainText("Reusable decisions from the open-source Hebrus inference engine");

    // The counts line carries the live number, which is the number of records listed.
    const ids = await recordIds(page);
    await expect(page.locator(".counts")).toHaveText(`${ids.length} notes · public architecture only · evidence-bound`);
    await expect(page.locator("#records .section-count")).toHaveText(`${ids.length} records`);
    // The seed's records in the seed's order, each once, as many as the seed page's own counts line says.
    expect(ids.filter(isSeedId)).toEqual(SEED_IDS);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter(isSeedId)).toHaveLength(seedCount);

    // Each seed record shows ID, status, title, summary, phase and tags as the seed prints them.
    for (const record of seed.records) {
      const card = page.locator("ol.records article").filter({ has: page.locator(".id", { hasText: record.id }) });
      await expect(card.locator(".status")).toHaveText(record.status);
      await expect(card.locator(".card__title")).toHaveText(record.title);
      await expect(card.locator(".card__summary")).toHaveText(record.summary);
      await expect(card.locator(".phase")).toHaveText(record.phase);
      await expect(card.locator(".tags li")).toHaveText(record.tags);
    }
  });

  test("sends plain HTML: every card, and no script or inline React payload beside them", async ({ request }) => {
    const html = await (await request.get("/", { headers: { "accept-encoding": "identity" } })).text();
    expect(html).not.toMatch(/<script\b|__next_f|as="script"/);
    const cards = html.match(/<article class="card"/g) ?? [];
    expect(cards.length).toBeGreaterThanOrEqual(seedCount);
  });

  test("starts with the 4 core decisions in rank order, each with a link to read it", async ({ page }) => {
    await page.goto("/");
    const core = page.getByRole("region", { name: "Start with the architecture" });
    await expect(core.locator(".section-count")).toHaveText("4 core decisions");
    const items = core.locator("li.core-item");
    await expect(items).toHaveCount(4);
    // The page's own order, read from the page, against the seed page's.
    const shown = (await items.locator(".core-item__label").allInnerTexts()).map((label) => label.trim().split(/\s+/).at(-1));
    expect(shown).toEqual(seed.core.map((c) => c.id));
    for (const [i, c] of seed.core.entries()) {
      const item = items.nth(i);
      await expect(item.locator(".core-item__label")).toHaveText(`${c.label} ${c.id}`);
      await expect(item.locator("h3")).toHaveText(c.title);
      await expect(item.locator(".status")).toHaveText(c.status);
      await expect(item.getByRole("link", { name: `Read decision ${c.id}` })).toHaveAttribute("href", `/notes/${c.id}`);
    }
    await items
      .first()
      .getByRole("link", { name: /Read decision/ })
      .click();
    await expect(page).toHaveURL(/\/notes\/AFN-016$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("A sparse mask is not sparse attention");
  });

  test("lays the 4 core decisions out as one row on a wide screen, two by two on a tablet, one column on a phone: never three and one; summaries whole", async ({
    page,
  }) => {
    for (const [width, rows] of [
      [1280, [4]],
      [800, [2, 2]],
      [390, [1, 1, 1, 1]],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/");
      const tops = await page.locator("li.core-item").evaluateAll((items) => items.map((el) => Math.round(el.getBoundingClientRect().top)));
      const perRow = [...new Set(tops)].map((top) => tops.filter((t) => t === top).length);
      expect(perRow, `${width} px`).toEqual(rows);
    }
    // On a phone every card's summary is read whole, never cut off at a line.
    const clipped = await page.locator(".records .card__summary").evaluateAll((els) => els.filter((el) => el.scrollHeight > el.clientHeight + 1).length);
    expect(clipped).toBe(0);
  });

  test("has a For agents block that links the formats and states the archive policy", async ({ page }) => {
    await page.goto("/");
    const agents = page.getByRole("region", { name: /For agents/ });
    await expect(agents).toContainText("Public architecture only. The archive excludes personal information");
    await expect(agents).toContainText("Start from the compact index, load one retrieval capsule");
    for (const [name, href] of [
      ["/agents/", "/agents/"],
      ["HTML", "/agents/"],
      ["Markdown", "/agents/index.md"],
      ["LLM text", "/llms.txt"],
      ["JSON", "/agents/index.json"],
    ] as const) {
      await expect(agents.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }
  });
});

test.describe("filters with shareable URLs", () => {
  test("a status badge leads to only that status's notes", async ({ page }) => {
    await page.goto("/");
    const card = page.locator("ol.records article").filter({ has: page.locator(".id", { hasText: "AFN-021" }) });
    await card.getByRole("link", { name: "hypothesis" }).click();
    await expect(page).toHaveURL(/\/\?status=hypothesis$/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("hypothesis");
    await expect(page.locator(".lede")).toContainText("Proposed, not verified");
    const statuses = await page.locator("ol.records article .card__meta .status").allInnerTexts();
    expect(statuses.length).toBeGreaterThanOrEqual(2);
    expect(new Set(statuses)).toEqual(new Set(["hypothesis"]));
    expect((await recordIds(page)).filter(isSeedId)).toEqual(["AFN-021", "AFN-019"]);
    await expect(page.locator(".counts")).toContainText(`${statuses.length} of`);
  });

  test("the structural filter, opened directly, lists the three structural decisions", async ({ page }) => {
    await page.goto("/?status=verified-structural");
    expect((await recordIds(page)).filter(isSeedId)).toEqual(["AFN-020", "AFN-002", "AFN-003"]);
    const statuses = await page.locator("ol.records .status").allInnerTexts();
    expect(new Set(statuses)).toEqual(new Set(["verified structural decision"]));
  });

  test("an unknown status says so instead of listing everything", async ({ page }) => {
    await page.goto("/?status=bogus");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("No such status");
    await expect(page.locator("ol.records article")).toHaveCount(0);
  });

  test("a tag leads to its notes, and a phase to its notes", async ({ page }) => {
    await page.goto("/notes/AFN-016");
    await page.locator(".facts").getByRole("link", { name: "sparse attention" }).click();
    await expect(page).toHaveURL(/\/tags\/sparse-attention$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tag: sparse attention");
    expect((await recordIds(page)).filter(isSeedId)).toEqual(["AFN-016", "AFN-017", "AFN-018", "AFN-011"]);

    await page
      .locator("ol.records article")
      .filter({ has: page.locator(".id", { hasText: "AFN-016" }) })
      .getByRole("link", { name: "Phase 6 architecture" })
      .click();
    await expect(page).toHaveURL(/\/phases\/6-architecture$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Phase 6 architecture");
    expect((await recordIds(page)).filter(isSeedId)).toEqual(["AFN-016", "AFN-017", "AFN-018"]);
    for (const phase of await page.locator("ol.records .phase").allInnerTexts()) expect(phase).toBe("Phase 6 architecture");
  });

  test("unknown tags and phases are a real 404", async ({ request }) => {
    expect((await request.get("/tags/no-such-tag")).status()).toBe(404);
    expect((await request.get("/phases/no-such-phase")).status()).toBe(404);
  });
});

test.describe("search", () => {
  test("from the header, 'sparse attention' puts AFN-016 first and shows the matching passage", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("search").first().getByRole("searchbox").fill("sparse attention");
    await page.getByRole("search").first().getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/search\?q=sparse\+attention$/);
    const results = page.locator("ol.results > li");
    await expect(results.first().locator(".id")).toHaveText("AFN-016");
    await expect(page.locator(".results-count")).toContainText("match “sparse attention”");
    const ids = await results.locator(".id").allInnerTexts();
    expect(ids).toEqual(expect.arrayContaining(["AFN-017", "AFN-018", "AFN-011"]));
    await expect(results.first().locator("mark").first()).toHaveText(/sparse/i);
  });

  test("searches the sections and shows where the passage comes from", async ({ page }) => {
    await page.goto("/search?q=masked-out+entries");
    const first = page.locator("ol.results > li").first();
    await expect(first.locator(".id")).toHaveText("AFN-016");
    await expect(first.locator(".result__field")).toHaveText("Matched in Rejected shortcut:");
    await expect(first.locator(".result__passage")).toContainText("masked-out entries still cost memory and time");
  });

  test("'transactional state' shows the notes about it and folds the ones that only share a stock word", async ({ page }) => {
    await page.goto("/search?q=transactional+state");
    const strong = page.getByRole("list", { name: "Notes matching “transactional state”" }).locator("> li");
    await expect(strong.first().locator(".id")).toHaveText("AFN-010");
    const shown = await strong.count();
    expect(shown).toBeLessThanOrEqual(5);
    // The rest are one click away, counted, not dropped.
    const folded = page.locator("details.weak-matches");
    const weak = folded.locator("ol.results > li");
    await expect(weak.first()).toBeHidden();
    const more = await weak.count();
    expect(more).toBeGreaterThan(5);
    await expect(page.locator(".results-count")).toHaveText(`${shown} notes match “transactional state”, ${more} more weakly`);
    await folded.locator("summary").click();
    await expect(weak.first()).toBeVisible();
    await expect(weak.first().locator(".result__field")).toHaveText("Matched in Claim boundary:");
  });

  test("says so when nothing matches", async ({ page }) => {
    await page.goto("/search?q=zyzzogeton");
    await expect(page.locator(".results-count")).toHaveText("No note matches “zyzzogeton”");
    await expect(page.locator("ol.results")).toHaveCount(0);
  });
});

test.describe("a note", () => {
  test("shows its five sections from Markdown, its status and boundaries in words, and its links", async ({ page }) => {
    await page.goto("/notes/AFN-016");
    await expect(page).toHaveTitle("AFN-016: A sparse mask is not sparse attention · Field Notes");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("A sparse mask is not sparse attention");
    const sections = page.locator("section.note-section > h2");
    await expect(sections).toHaveText(["Decision", "Invariant", "Rejected shortcut", "Evidence", "Claim boundary", "Notes"]);
    await expect(page.locator("section.note-section").filter({ hasText: "Rejected shortcut" }).locator(".prose p")).toContainText(
      "masked-out entries still cost memory and time",
    );
    await expect(page.locator(".notice")).toContainText("Verified at a named checkpoint: the evidence holds for the pinned state it names");

    // AFN-NNN mentions in a section link to their notes.
    const notes = page.locator("section.note-section").filter({ has: page.getByRole("heading", { name: "Notes" }) });
    await expect(notes.getByRole("link", { name: "AFN-011" })).toHaveAttribute("href", "/notes/AFN-011");

    const connected = page.getByRole("navigation", { name: "Connected notes" });
    const related = connected.locator("section").filter({ has: page.getByRole("heading", { name: "Related notes" }) });
    await expect(related.locator(".id")).toHaveText(["AFN-011", "AFN-017", "AFN-018"]);
    // A related note that refers back is listed once, marked so; "Referenced by" names only the others.
    for (const id of ["AFN-011", "AFN-017", "AFN-018"]) {
      await expect(related.getByRole("listitem").filter({ hasText: id })).toContainText("refers to this note too");
    }
    const referencedBy = connected.locator("section").filter({ has: page.getByRole("heading", { name: "Referenced by" }) });
    const others = await referencedBy.locator(".id").allInnerTexts();
    for (const id of ["AFN-011", "AFN-017", "AFN-018"]) expect(others).not.toContain(id);

    // Last change from git, and the other formats.
    await expect(page.locator(".facts")).toContainText(/Last change\s*\d{1,2} \w+ \d{4} by .+ · History/);
    for (const [name, href] of [
      ["Markdown", "/notes/AFN-016.md"],
      ["LLM text", "/notes/AFN-016.txt"],
      ["JSON", "/notes/AFN-016.json"],
    ] as const) {
      await expect(page.locator(".formats").getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }
  });

  test("explains a boundary in words", async ({ page }) => {
    await page.goto("/notes/AFN-003");
    await expect(page.locator(".note__ids .boundary")).toHaveText("structural-only");
    await expect(page.locator(".notice")).toContainText("Hard limit: proves structure only");
    await expect(page.locator(".notice")).toContainText("A verified structural decision");
  });

  test("carries title, description, OpenGraph and the alternate formats in its head", async ({ page }) => {
    await page.goto("/notes/AFN-016");
    const meta = (sel: string) => page.locator(sel).first().getAttribute("content");
    expect(await meta('meta[name="description"]')).toContain("Selecting 2,051 keys");
    expect(await meta('meta[property="og:title"]')).toBe("AFN-016: A sparse mask is not sparse attention");
    expect(await meta('meta[property="og:type"]')).toBe("article");
    expect(await meta('meta[property="og:url"]')).toMatch(/^https?:\/\/[^/]+\/notes\/AFN-016$/);
    await expect(page.locator('link[rel="alternate"][type="text/markdown"]')).toHaveAttribute("href", /\/notes\/AFN-016\.md$/);
    await expect(page.locator('link[rel="alternate"][type="application/json"]')).toHaveAttribute("href", /\/notes\/AFN-016\.json$/);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/notes\/AFN-016$/);
  });

  test("an unknown ID is a real 404 page", async ({ page }) => {
    for (const url of ["/notes/AFN-999", "/notes/AFN-999/history", "/notes/not-an-id"]) {
      const res = await page.goto(url);
      expect(res?.status(), url).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("There is no published note here");
    }
  });

  test("its history lists each published revision with what it did, its date and author, and the commit in its details", async ({ page }) => {
    await page.goto("/notes/AFN-016/history");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("History of AFN-016");
    const revisions = page.locator("li.revision");
    expect(await revisions.count()).toBeGreaterThanOrEqual(1);
    const oldest = revisions.last();
    await expect(oldest.locator(".revision__message")).toHaveText("First published as verified checkpoint");
    // The seed commit is the app's own; its work is the archive author's (the seed page's byline).
    await expect(oldest.locator(".revision__meta")).toContainText(/\d{1,2} \w+ \d{4}, \d\d:\d\d UTC · by Andrea Borio/);
    await expect(oldest).toContainText("First published revision");
    // The commit's own words and id, folded.
    await expect(oldest.locator("details.revision__commit pre")).toHaveText("Seed the content repository from content/");
    await expect(oldest.locator("details.revision__commit")).toContainText(/Commit [0-9a-f]{40}/);
  });
});

test.describe("feeds and metadata", () => {
  test("the Atom feed lists every published note", async ({ request }) => {
    const res = await request.get("/feed.xml");
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toContain("application/atom+xml");
    const xml = await res.text();
    expect(xml).toMatch(/^<\?xml[^>]*>\s*<feed xmlns="http:\/\/www.w3.org\/2005\/Atom"/);
    expect(xml).toContain(`<title type="text">Inference Architecture Field Notes</title>`);
    for (const id of SEED_IDS) expect(xml).toMatch(new RegExp(`<id>https?://[^<]+/notes/${id}</id>`));
    expect(xml).toContain("AFN-016: A sparse mask is not sparse attention");
  });

  test("the sitemap lists home, every note, tag and phase; robots.txt points at it", async ({ request }) => {
    const xml = await (await request.get("/sitemap.xml")).text();
    for (const id of SEED_IDS) expect(xml).toMatch(new RegExp(`<loc>https?://[^<]+/notes/${id}</loc>`));
    expect(xml).toMatch(/<loc>https?:\/\/[^<]+\/tags\/sparse-attention<\/loc>/);
    expect(xml).toMatch(/<loc>https?:\/\/[^<]+\/phases\/6-architecture<\/loc>/);
    const robots = await (await request.get("/robots.txt")).text();
    expect(robots).toMatch(/Sitemap: https?:\/\/[^\s]+\/sitemap\.xml/);
    expect(robots).not.toMatch(/^Host:/im);
  });

  test("home and search have their own titles and descriptions", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveTitle("Inference Architecture Field Notes");
    expect(await page.locator('meta[property="og:description"]').getAttribute("content")).toContain("Reusable decisions");
    await page.goto("/search?q=metal");
    await expect(page).toHaveTitle("Search: metal · Field Notes");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("home, a note and a search are readable", async ({ page }) => {
    await page.goto("/");
    expect((await recordIds(page)).filter(isSeedId)).toEqual(SEED_IDS);
    await page.locator("ol.records").getByRole("link", { name: "A sparse mask is not sparse attention" }).click();
    await expect(page.locator("section.note-section > h2").first()).toHaveText("Decision");
    await expect(page.locator("section.note-section .prose").first()).toContainText("Call attention sparse");
    await page.getByRole("search").first().getByRole("searchbox").fill("fail closed");
    await page.getByRole("search").first().getByRole("searchbox").press("Enter");
    await expect(page).toHaveURL(/\/search\?q=fail\+closed$/);
    await expect(page.locator("ol.results > li").first().locator(".id")).toHaveText("AFN-004");
  });
});

test("public pages load no script at all (issue 27: home at most 40 KB of it), and their controls still work", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (req) => {
    if (req.resourceType() === "script") scripts.push(req.url());
  });
  for (const url of ["/", "/notes/AFN-016", "/notes/AFN-016/history", "/search?q=metal", "/tags/metal", "/phases/6-architecture"]) {
    await page.goto(url);
    await page.waitForLoadState("networkidle");
  }
  expect(scripts).toEqual([]);
  // Filters, the table view and search are plain forms and links.
  await page.goto("/");
  await page.getByRole("navigation", { name: "How to show the records" }).getByRole("link", { name: "Table" }).click();
  await expect(page.locator("table.records-table")).toBeVisible();
  const form = page.getByRole("form", { name: "Filter and sort the records" });
  await form.getByLabel("Tag").selectOption({ label: "sparse attention" });
  await form.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Tag: sparse attention" })).toBeVisible();
  expect(scripts).toEqual([]);
});
