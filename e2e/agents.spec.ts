import http from "node:http";
import AxeBuilder from "@axe-core/playwright";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { schemaValidator } from "../lib/agents/schema-validator";
import { parseLlmsTxt } from "./support/agents-llms-txt";

/**
 * The agent surface as an agent meets it: over HTTP, against a production server on a fresh
 * content repository seeded with the archive's 21 notes.
 */

const SEED_IDS = Array.from({ length: 21 }, (_, i) => `AFN-${String(i + 1).padStart(3, "0")}`);
const base = () => process.env.E2E_BASE_URL ?? "";
/** "Accept" as a token of a Vary list, not a prefix of Accept-Encoding. */
const VARY_ACCEPT = /(^|,)\s*accept\s*(,|$)/i;

type Entry = { id: string; title: string; status: string; boundaries: string[]; flags: Record<string, boolean>; urls: Record<string, string> };

async function validatorFor(request: APIRequestContext, name: string) {
  const res = await request.get(`/agents/schema/${name}.json`);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toBe("application/schema+json; charset=utf-8");
  return schemaValidator(await res.json());
}

/** Run `check` over items a few at a time: quicker than one by one, gentler than all at once. */
async function inBatches<T>(items: T[], check: (item: T) => Promise<void>, size = 4) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(check));
}

async function indexEntries(request: APIRequestContext): Promise<Entry[]> {
  const res = await request.get("/agents/index.json");
  expect(res.status()).toBe(200);
  return (await res.json()).entries as Entry[];
}

test.describe("the compact index", () => {
  test("lists every seed note in both forms, valid against the published schemas", async ({ request }) => {
    const res = await request.get("/agents/index.json");
    expect(res.headers()["content-type"]).toBe("application/json; charset=utf-8");
    const doc = await res.json();
    expect((await validatorFor(request, "index"))(doc)).toEqual([]);
    const entry = await validatorFor(request, "index-entry");
    for (const e of doc.entries) expect(entry(e), e.id).toEqual([]);
    expect(doc.entries.map((e: Entry) => e.id)).toEqual(expect.arrayContaining(SEED_IDS));
    expect(doc.commit).toBe(res.headers()["x-content-commit"]);

    const md = await request.get("/agents/index.md");
    expect(md.headers()["content-type"]).toBe("text/markdown; charset=utf-8");
    const text = await md.text();
    // The same lines as /llms.txt: ID and title linking the capsule.
    for (const id of SEED_IDS) expect(text).toMatch(new RegExp(`^- \\[${id}: .+\\]\\(${base()}/agents/capsules/${id}\\.md\\): `, "m"));
    expect(text).toContain(`${base()}/agents/capsules/{id}.md`);
  });
});

test.describe("every published note", () => {
  test("answers in Markdown, LLM text and JSON, and as a capsule in Markdown and JSON", async ({ request }) => {
    test.setTimeout(240_000); // 7 requests for each of 21 notes
    const entries = await indexEntries(request);
    const noteSchema = await validatorFor(request, "note");
    const capsuleSchema = await validatorFor(request, "capsule");
    await inBatches(entries, async (e) => {
      const md = await request.get(`/notes/${e.id}.md`);
      expect(md.status(), e.id).toBe(200);
      expect(md.headers()["content-type"]).toBe("text/markdown; charset=utf-8");
      const mdText = await md.text();
      // The note file, whose front matter opens with the pointer to /llms.txt (a YAML comment).
      expect(mdText).toMatch(new RegExp(`^---\\n# For agents: the index of this archive is ${base()}/llms\\.txt\\nid: ${e.id}\\n`));
      expect(mdText).toMatch(/^flags:\n {2}hypothesis: (true|false)\n {2}structural_only: (true|false)\n {2}pinned_not_supported: (true|false)$/m);
      expect(mdText).toContain("\n## Decision\n");

      const txt = await request.get(`/notes/${e.id}.txt`);
      expect(txt.headers()["content-type"]).toBe("text/plain; charset=utf-8");
      const plain = await txt.text();
      expect(plain.startsWith(`${e.id}: ${e.title}\n`)).toBe(true);
      expect(plain).toMatch(/^Flags: hypothesis (yes|no), structural-only (yes|no), pinned-not-supported (yes|no)\.$/m);
      expect(plain).not.toMatch(/^#{1,6} |\*\*|\]\(/m);

      const json = await request.get(`/notes/${e.id}.json`);
      expect(json.headers()["content-type"]).toBe("application/json; charset=utf-8");
      const doc = await json.json();
      expect(noteSchema(doc), e.id).toEqual([]);
      expect(doc.id).toBe(e.id);
      expect(doc.flags).toEqual(e.flags);

      const negotiated = await request.get(`/notes/${e.id}`, { headers: { Accept: "text/markdown" } });
      expect(negotiated.headers()["content-type"]).toBe("text/markdown; charset=utf-8");
      expect(negotiated.headers()["vary"]).toMatch(VARY_ACCEPT);
      expect(await negotiated.text()).toBe(mdText);

      const capsuleMd = await request.get(`/agents/capsules/${e.id}.md`);
      expect(capsuleMd.headers()["content-type"]).toBe("text/markdown; charset=utf-8");
      const capsuleText = await capsuleMd.text();
      // The pointer to /llms.txt first, as in every Markdown answer; then the capsule.
      expect(capsuleText.startsWith(`> For agents: the index of this archive is ${base()}/llms.txt\n\n# ${e.id}: ${e.title}\n`)).toBe(true);
      for (const label of ["Status:", "Flags:", "Decision:", "Invariant:", "Rejected shortcut:", "Claim boundary:", "Evidence:", "Full note:"]) {
        expect(capsuleText, `${e.id} ${label}`).toContain(label);
      }
      const capsule = await (await request.get(`/agents/capsules/${e.id}.json`)).json();
      expect(capsuleSchema(capsule), e.id).toEqual([]);
      expect(capsule.status).toBe(e.status);
      expect(capsule.boundaries.map((b: { boundary: string }) => b.boundary)).toEqual(e.boundaries);
    });
  });

  test("the HTML page stays HTML for a browser, is never cached for a Markdown client, and advertises its Markdown", async ({ page, request }) => {
    const res = await request.get("/notes/AFN-016", { headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
    expect(res.headers()["content-type"]).toMatch(/^text\/html/);
    // Rendered, the HTML is no-store; served from the per-commit page cache it may be kept, but only
    // keyed on Accept (Vary), so no cache can serve it for Markdown.
    const h = res.headers();
    expect(/no-store/.test(h["cache-control"] ?? "") || /\bAccept\b/.test(h["vary"] ?? "")).toBe(true);
    await page.goto("/notes/AFN-016");
    await expect(page.locator('link[rel="alternate"][type="text/markdown"]')).toHaveAttribute("href", /\/notes\/AFN-016\.md$/);
    // The capsule's "where the evidence is" points at this page's Evidence section.
    const capsule = await (await request.get("/agents/capsules/AFN-016.json")).json();
    const anchor = new URL(capsule.evidence.url).hash;
    await expect(page.locator(anchor)).toContainText("Evidence");
  });

  test("a hard limit is a flag with its meaning in every format", async ({ request }) => {
    const capsule = await (await request.get("/agents/capsules/AFN-003.json")).json();
    expect(capsule.flags).toEqual({ hypothesis: false, structural_only: true, pinned_not_supported: false });
    expect(capsule.boundaries[0].meaning).toMatch(/proves structure only/);
    expect(await (await request.get("/agents/capsules/AFN-013.md")).text()).toMatch(/Boundary: pinned-not-supported\. Hard limit/);
    expect(await (await request.get("/notes/AFN-021.txt")).text()).toMatch(/^Status: hypothesis\. Proposed, not verified/m);
    expect(await (await request.get("/notes/AFN-002.md")).text()).toMatch(
      /^limits:\n {2}- flag: structural-only\n {4}meaning: "?Hard limit: proves structure only/m,
    );
  });

  test("an unknown note or format is a clear 404", async ({ request }) => {
    const missing = await request.get("/notes/AFN-999.json");
    expect(missing.status()).toBe(404);
    expect((await missing.json()).error).toMatch(/no published note AFN-999/);
    const capsule = await request.get("/agents/capsules/AFN-016.xml");
    expect(capsule.status()).toBe(404);
    expect(await capsule.text()).toMatch(/\.xml is not one of its formats/);
  });
});

test.describe("llms.txt", () => {
  test("parses under the llmstxt.org grammar and every link in it resolves", async ({ request }) => {
    const res = await request.get("/llms.txt");
    expect(res.headers()["content-type"]).toBe("text/plain; charset=utf-8");
    const parsed = parseLlmsTxt(await res.text());
    expect(parsed.summary).toBeTruthy();
    expect(parsed.info).toMatch(/hypothesis: Proposed, not verified/);
    expect(parsed.sections.at(-1)?.name).toBe("Optional");
    test.setTimeout(180_000);
    const links = parsed.sections.flatMap((s) => s.links);
    const capsules = links.filter((l) => l.url.includes("/agents/capsules/")).map((l) => l.url);
    for (const id of SEED_IDS) expect(capsules).toContain(`${base()}/agents/capsules/${id}.md`);
    await inBatches(links, async (link) => {
      expect(link.url.startsWith(`${base()}/`), link.url).toBe(true);
      const target = await request.get(link.url, { maxRedirects: 0 });
      expect(target.status(), link.url).toBe(200);
    });
  });

  test("llms-full.txt holds every published note in full", async ({ request }) => {
    const res = await request.get("/llms-full.txt");
    expect(res.headers()["content-type"]).toBe("text/plain; charset=utf-8");
    const text = await res.text();
    for (const e of await indexEntries(request)) expect(text).toContain(`\n${e.id}: ${e.title}\n`);
  });
});

test.describe("search for agents", () => {
  test("ranks index entries with the matching passage", async ({ request }) => {
    const res = await request.get("/agents/search.json?q=transactional%20state&limit=3");
    expect(res.status()).toBe(200);
    const doc = await res.json();
    expect((await validatorFor(request, "search"))(doc)).toEqual([]);
    expect(doc.results[0].id).toBe("AFN-010");
    expect(doc.results.length).toBeLessThanOrEqual(3);
    expect((await request.get("/agents/search.json")).status()).toBe(400);
  });
});

test.describe("HTTP contract of every agent URL", () => {
  const URLS = [
    "/agents/index.json",
    "/agents/index.md",
    "/agents/capsules/AFN-016.md",
    "/agents/capsules/AFN-016.json",
    "/notes/AFN-016.md",
    "/notes/AFN-016.txt",
    "/notes/AFN-016.json",
    "/agents/search.json?q=sparse",
    "/agents/schema/note.json",
    "/llms.txt",
    "/llms-full.txt",
  ];

  test("names the commit, revalidates, is open to other origins and answers 304 to its ETag", async ({ request }) => {
    test.setTimeout(120_000);
    for (const url of URLS) {
      // Another test may commit to main between the two requests; then the new commit is asked again.
      for (let attempt = 1; ; attempt++) {
        const first = await request.get(url);
        const h = first.headers();
        expect(first.status(), url).toBe(200);
        expect(h["x-content-commit"], url).toMatch(/^[0-9a-f]{40}$/);
        expect(h["etag"], url).toContain(h["x-content-commit"]);
        expect(h["cache-control"], url).toBe("public, max-age=0, must-revalidate");
        expect(h["access-control-allow-origin"], url).toBe("*");
        expect(h["content-type"], url).toMatch(/; charset=utf-8$/);
        const again = await request.get(url, { headers: { "If-None-Match": h["etag"] ?? "" } });
        if (again.status() === 200 && again.headers()["x-content-commit"] !== h["x-content-commit"] && attempt < 3) continue;
        expect(again.status(), url).toBe(304);
        expect(await again.body()).toHaveLength(0);
        break;
      }
    }
  });

  test("answers a CORS preflight", async ({ request }) => {
    const res = await request.fetch("/agents/index.json", {
      method: "OPTIONS",
      headers: { Origin: "https://agent.example", "Access-Control-Request-Method": "GET" },
    });
    expect(res.status()).toBe(204);
    expect(res.headers()["access-control-allow-origin"]).toBe("*");
    expect(res.headers()["access-control-allow-methods"]).toContain("GET");
  });
});

test.describe("the MCP endpoint", () => {
  async function connect() {
    const client = new Client({ name: "e2e-agent", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base()}/agents/mcp`)));
    return client;
  }

  test("a real client lists the tools, searches, reads a capsule and a note", async () => {
    test.setTimeout(120_000);
    const client = await connect();
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(["changes_since", "get_capsule", "get_note", "governing_notes", "list_notes", "search_notes"]);

      const search = await client.callTool({ name: "search_notes", arguments: { query: "transactional state" } });
      const results = (search.structuredContent as { results: { id: string; status: string; boundaries: string[] }[] }).results;
      expect(results[0]?.id).toBe("AFN-010");
      expect(results[0]?.status).toBe("verified-checkpoint");
      expect(results[0]?.boundaries).toEqual([]);

      const capsule = await client.callTool({ name: "get_capsule", arguments: { id: "AFN-010" } });
      const c = capsule.structuredContent as { id: string; decision: string; flags: Record<string, boolean>; status_meaning: string };
      expect(c.id).toBe("AFN-010");
      expect(c.decision).toMatch(/^Make the whole inference chunk one transaction\./);
      expect(c.flags).toEqual({ hypothesis: false, structural_only: false, pinned_not_supported: false });
      expect((capsule.content as { text: string }[])[0]?.text).toContain("# AFN-010:");

      const hypotheses = await client.callTool({ name: "list_notes", arguments: { status: "hypothesis" } });
      const ids = (hypotheses.structuredContent as { entries: { id: string }[] }).entries.map((e) => e.id);
      expect(ids).toEqual(expect.arrayContaining(["AFN-019", "AFN-021"]));
      expect(ids.every((id) => !["AFN-010", "AFN-016"].includes(id))).toBe(true);
      const byTag = await client.callTool({ name: "list_notes", arguments: { tag: "Sparse Attention", phase: "Phase 6 architecture" } });
      expect((byTag.structuredContent as { entries: { id: string }[] }).entries.map((e) => e.id).sort()).toEqual(["AFN-016", "AFN-017", "AFN-018"]);

      const note = await client.callTool({ name: "get_note", arguments: { id: "AFN-003", format: "text" } });
      const n = note.structuredContent as { boundaries: { boundary: string; meaning: string }[]; content: string; flags: Record<string, boolean> };
      expect(n.boundaries[0]?.boundary).toBe("structural-only");
      expect(n.flags.structural_only).toBe(true);
      expect(n.content.startsWith("AFN-003: ")).toBe(true);

      const resources = await client.listResources();
      expect(resources.resources.map((r) => r.uri)).toEqual(expect.arrayContaining(SEED_IDS.map((id) => `${base()}/notes/${id}.md`)));
      const read = await client.readResource({ uri: `${base()}/notes/AFN-016.md` });
      expect((read.contents[0] as { text: string }).text).toMatch(/^---\nid: AFN-016\n/);
    } finally {
      await client.close();
    }
  });

  test("is stateless: 405 on GET, 202 for a notification", async ({ request }) => {
    expect((await request.get("/agents/mcp")).status()).toBe(405);
    const note = await request.post("/agents/mcp", {
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      data: { jsonrpc: "2.0", method: "notifications/initialized" },
    });
    expect(note.status()).toBe(202);
  });

  test("refuses a foreign Origin and a foreign Host (DNS rebinding)", async ({ request }) => {
    const body = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    const foreign = await request.post("/agents/mcp", { headers: { ...headers, Origin: "https://evil.example" }, data: body });
    expect(foreign.status()).toBe(403);
    expect((await foreign.json()).error.message).toMatch(/Origin "https:\/\/evil.example"/);

    const own = await request.post("/agents/mcp", { headers: { ...headers, Origin: base() }, data: body });
    expect(own.status()).toBe(200);

    const url = new URL(`${base()}/agents/mcp`);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { ...headers, Host: "rebound.evil.example" } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify(body));
    });
    expect(status).toBe(403);
  });
});

test.describe("the guide", () => {
  test("/agents/ explains the protocol, formats, limits, policy and contract, accessibly", async ({ page }) => {
    await page.goto("/agents/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Retrieval for agents and their operators");
    for (const heading of ["The retrieval protocol", "Hard limits", "Formats and URLs", "MCP", "Archive policy", "Operator closeout contract"]) {
      await expect(page.getByRole("heading", { level: 2, name: heading })).toBeVisible();
    }
    await expect(page.getByText("pinned-not-supported", { exact: true }).first()).toBeVisible();
    await expect(page.locator('article a[href$="/llms.txt"]').first()).toBeVisible();
    const results = await new AxeBuilder({ page }).include("article").analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });
});
