import { expect, test } from "@playwright/test";
import { walkPagesTxt } from "./support/pages-walk";

/**
 * Every public page has a Markdown twin, found the ways an agent looks: the page's URL with .md
 * (index.md for /, agents.md for the guide), the page's own URL asked for with
 * Accept: text/markdown, and the Link header (and <link rel=alternate>) on the HTML. Each twin
 * opens with the pointer to /llms.txt, and each HTML page carries that pointer in its first lines.
 */

const base = () => process.env.E2E_BASE_URL ?? "";
const VARY_ACCEPT = /(^|,)\s*accept\s*(,|$)/i;
const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

const PAGES: { html: string; twin: string; says: RegExp }[] = [
  { html: "/", twin: "/index.md", says: /^## All decision records$/m },
  { html: "/?status=hypothesis", twin: "/index.md?status=hypothesis", says: /^# Status: hypothesis$/m },
  {
    html: "/?status=verified-checkpoint&tag=sparse-attention&phase=6-architecture",
    twin: "/index.md?status=verified-checkpoint&tag=sparse-attention&phase=6-architecture",
    says: /^# Status: verified checkpoint · Phase 6 architecture · Tag: sparse attention$/m,
  },
  { html: "/tags/sparse-attention", twin: "/tags/sparse-attention.md", says: /^# Tag: sparse attention$/im },
  { html: "/phases/6-architecture", twin: "/phases/6-architecture.md", says: /^# Phase 6 architecture$/m },
  { html: "/notes/AFN-016/history", twin: "/notes/AFN-016/history.md", says: /^# History of AFN-016$/m },
  { html: "/search?q=transactional+state", twin: "/search.md?q=transactional+state", says: /AFN-010/ },
  { html: "/agents/", twin: "/agents.md", says: /^# Retrieval for agents and their operators$/m },
  { html: "/notes/AFN-016", twin: "/notes/AFN-016.md", says: /^## Decision$/m },
];

test.describe("Markdown twins", () => {
  for (const { html, twin, says } of PAGES) {
    test(`${html}: the twin at ${twin}, by Accept, and named by the HTML`, async ({ request }) => {
      const md = await request.get(twin);
      expect(md.status(), twin).toBe(200);
      expect(md.headers()["content-type"]).toBe("text/markdown; charset=utf-8");
      const text = await md.text();
      expect(text).toMatch(says);
      // The pointer to the index: the first line (inside the front matter for a note's file).
      const pointer = text.startsWith("---\n") ? text.split("\n")[1] : text.split("\n")[0];
      expect(pointer, twin).toContain(`${base()}/llms.txt`);
      expect(text).not.toMatch(/<html|<nav|Skip to content/i);

      const negotiated = await request.get(html, { headers: { Accept: "text/markdown" } });
      expect(negotiated.status()).toBe(200);
      expect(negotiated.headers()["content-type"]).toBe("text/markdown; charset=utf-8");
      expect(negotiated.headers()["vary"]).toMatch(VARY_ACCEPT);
      expect(await negotiated.text()).toBe(text);

      const page = await request.get(html, { headers: { Accept: BROWSER } });
      expect(page.headers()["content-type"]).toMatch(/^text\/html/);
      expect(page.headers()["link"]).toContain(`<${twin}>; rel="alternate"; type="text/markdown"`);
      const source = await page.text();
      const alternate = /<link[^>]*rel="alternate"[^>]*type="text\/markdown"[^>]*href="([^"]+)"|<link[^>]*href="([^"]+)"[^>]*type="text\/markdown"/.exec(
        source,
      );
      const href = new URL((alternate?.[1] ?? alternate?.[2] ?? "").replace(/&amp;/g, "&"), base());
      // The same page and query (a space may be written + or %20).
      const want = new URL(twin, base());
      expect(href.pathname, html).toBe(want.pathname);
      expect([...href.searchParams], html).toEqual([...want.searchParams]);
    });
  }

  test("every HTML page points at /llms.txt in its head and in the first lines of its body", async ({ request }) => {
    for (const { html } of PAGES) {
      const source = await (await request.get(html, { headers: { Accept: BROWSER } })).text();
      const head = source.slice(0, source.indexOf("</head>"));
      expect(head, html).toMatch(/<link rel="alternate" type="text\/plain" href="[^"]*\/llms\.txt"/);
      // What a checker reads: the body without nav, scripts and styles. The pointer is in its first tenth.
      const body = source
        .slice(source.indexOf("<body"))
        .replace(/<nav\b[\s\S]*?<\/nav>/gi, "")
        .replace(/<script\b[\s\S]*?<\/script>/gi, "")
        .replace(/<style\b[\s\S]*?<\/style>/gi, "");
      const at = body.indexOf("/llms.txt");
      expect(at, html).toBeGreaterThan(0);
      expect(at / body.length, html).toBeLessThan(0.1);
    }
  });

  test("the pointer is for agents only: not seen, not heard, not a Tab stop; the first Tab lands in the content", async ({ page }) => {
    await page.goto("/notes/AFN-016");
    // In the source, where agents look for it.
    const pointer = page.locator("a.agent-pointer");
    await expect(pointer).toHaveAttribute("href", "/llms.txt");
    const box = await pointer.boundingBox();
    expect((box?.width ?? 0) * (box?.height ?? 0)).toBeLessThanOrEqual(1);
    // Not in the accessibility tree: a screen reader does not announce it before the title.
    await expect(page.getByRole("link", { name: /For AI agents/ })).toHaveCount(0);
    const tree = await page.locator("body").ariaSnapshot();
    expect(tree).not.toMatch(/For AI agents/);
    // The keyboard's first stop is inside the page's content, not a skip link or the pointer.
    await page.keyboard.press("Tab");
    await expect(page.locator("main :focus")).toHaveCount(1);
  });

  test("home's twin lists what the HTML lists for status, tag and phase together, in the order asked for", async ({ request }) => {
    const query = "?status=verified-checkpoint&tag=sparse-attention&phase=6-architecture&sort=id&dir=desc";
    // The table view shows each record's id in a cell of its own; the twin lists "- **AFN-…**".
    const html = await (await request.get(`/${query}&view=table`, { headers: { Accept: BROWSER } })).text();
    const shown = [...html.matchAll(/class="id col-id">([A-Z]+-\d{3,})</g)].map((m) => m[1]);
    const twin = await (await request.get(`/index.md${query}`)).text();
    const listed = [...twin.matchAll(/^- \*\*([A-Z]+-\d{3,})\*\*/gm)].map((m) => m[1]);
    expect(shown.length).toBeGreaterThan(1);
    expect(listed).toEqual(shown);
    expect(twin).toMatch(new RegExp(`^${shown.length} of \\d+ notes\\.`, "m"));
    // Every note listed has all three: the filters combine, none is dropped.
    for (const id of listed) {
      const note = await (await request.get(`/notes/${id}.md`)).text();
      expect(note, id).toMatch(/^status: verified-checkpoint$/m);
      expect(note, id).toMatch(/^phase: 6 architecture$/m);
      expect(note, id).toMatch(/^ {2}- sparse attention$/m);
    }
  });

  test("every address /agents/pages.txt lists answers 200 in Markdown, at its .md URL and at its page's URL by Accept", async ({ request }) => {
    // The server runs as `npm start` (playwright.config.ts); a rewrite the route could not read
    // answered most of these 404 there while `next start -H 127.0.0.1` answered them all.
    test.setTimeout(180_000); // about 400 requests
    const { twins, failed, fetched } = await walkPagesTxt(request, base());
    // Home, the guide, search, every note, its history, every tag and every phase.
    expect(twins.length).toBeGreaterThan(100);
    for (const kind of [
      /^\/index\.md$/,
      /^\/agents\.md$/,
      /^\/search\.md$/,
      /^\/tags\/.+\.md$/,
      /^\/phases\/.+\.md$/,
      /^\/notes\/[^/]+\/history\.md$/,
      /^\/notes\/[^/]+\.md$/,
    ])
      expect(
        twins.some((u) => kind.test(u.pathname)),
        String(kind),
      ).toBe(true);
    expect(twins.filter((u) => u.origin !== base()).map(String)).toEqual([]);
    expect(failed, `${failed.length} of ${fetched}`).toEqual([]);
  });

  test("a page with no such content is a 404 in Markdown too, and an unknown index cursor a 400", async ({ request }) => {
    for (const twin of ["/tags/no-such-tag.md", "/phases/no-such-phase.md", "/notes/AFN-999/history.md"]) {
      const res = await request.get(twin);
      expect(res.status(), twin).toBe(404);
      expect(await res.text()).toMatch(/no |not /i);
    }
    const cursor = await request.get("/agents/index.md?cursor=AFN-999");
    expect(cursor.status()).toBe(400);
    expect(await cursor.text()).toMatch(/cursor "AFN-999" names no published note/);
  });
});

test.describe("the guide's canonical path", () => {
  test("/agents/ answers 200 and /agents too, both naming /agents/ as canonical; other paths lose a trailing slash as before", async ({ request }) => {
    for (const path of ["/agents/", "/agents"]) {
      const guide = await request.get(path, { maxRedirects: 0 });
      expect(guide.status(), path).toBe(200);
      expect(await guide.text(), path).toContain(`<link rel="canonical" href="${base()}/agents/"`);
    }
    const slash = await request.get("/notes/AFN-016/?x=1", { maxRedirects: 0 });
    expect(slash.status()).toBe(308);
    const to = new URL(slash.headers()["location"] ?? "", base());
    expect(`${to.pathname}${to.search}`).toBe("/notes/AFN-016?x=1");
  });
});
