import { execFileSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test } from "@playwright/test";
import { commitWithGit, contentRepoPath, readWithGit } from "./support/content-repo";
import { AUTHOR, ensureAccounts, newToken } from "./support/studio";

/**
 * Drafts committed with plain git, as an outside agent would: one with status draft on main, one
 * on its drafts/ branch. Neither may reach any agent format, search result or MCP answer, while
 * the commit that carried the first one is what the agent surface now names.
 */

const ON_MAIN = "AFN-952";
const ON_BRANCH = "AFN-962";
const WORDS = "Quokka lattice draft";
const LEAK = new RegExp(`${ON_MAIN}|${ON_BRANCH}|Quokka`);

function draftNote(id: string): string {
  const published = readWithGit("notes/AFN-016.md");
  return published
    .replace(/^id: AFN-016$/m, `id: ${id}`)
    .replace(/^title: .*$/m, `title: ${WORDS} ${id}`)
    .replace(/^status: .*$/m, "status: draft")
    .replace(/^ {2}rank: 1\n {2}label: .*\n/m, "")
    .replace(/^core:\n/m, "")
    .replace("Call attention sparse", `${WORDS}: call attention sparse`);
}

test("drafts committed with plain git appear in no format, no search result and no MCP answer", async ({ request }) => {
  test.setTimeout(180_000);
  const mainCommit = commitWithGit({ [`notes/${ON_MAIN}.md`]: draftNote(ON_MAIN) }, { message: "A draft on main, from plain git" });
  commitWithGit({ [`notes/${ON_BRANCH}.md`]: draftNote(ON_BRANCH) }, { branch: `drafts/${ON_BRANCH}`, message: "A draft on its branch" });

  // The agent surface serves the commit that carried the draft (or a later one, if another test committed since).
  const index = await request.get("/agents/index.json");
  const served = index.headers()["x-content-commit"] ?? "";
  expect(served).toMatch(/^[0-9a-f]{40}$/);
  expect(() => execFileSync("git", ["merge-base", "--is-ancestor", mainCommit, served], { cwd: contentRepoPath() })).not.toThrow();
  expect(await index.text()).not.toMatch(LEAK);

  for (const url of ["/agents/index.md", "/llms.txt", "/llms-full.txt", "/agents/capsules/AFN-016.md", "/notes/AFN-016.json"]) {
    const res = await request.get(url);
    expect(res.status(), url).toBe(200);
    expect(await res.text(), url).not.toMatch(LEAK);
  }
  for (const q of [WORDS, ON_MAIN, ON_BRANCH, "quokka"]) {
    const doc = await (await request.get(`/agents/search.json?q=${encodeURIComponent(q)}`)).json();
    expect(JSON.stringify(doc.results), q).not.toMatch(LEAK);
  }
  for (const id of [ON_MAIN, ON_BRANCH]) {
    for (const url of [`/notes/${id}.md`, `/notes/${id}.txt`, `/notes/${id}.json`, `/agents/capsules/${id}.md`, `/agents/capsules/${id}.json`]) {
      expect((await request.get(url)).status(), url).toBe(404);
    }
    const negotiated = await request.get(`/notes/${id}`, { headers: { Accept: "text/markdown" } });
    expect(negotiated.status()).toBe(404);
  }

  const client = new Client({ name: "e2e-drafts", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${process.env.E2E_BASE_URL}/agents/mcp`)));
  try {
    const search = await client.callTool({ name: "search_notes", arguments: { query: WORDS } });
    // The answer echoes the query; what it found must not hold the draft.
    expect(JSON.stringify((search.structuredContent as { results: unknown[] }).results)).not.toMatch(LEAK);
    const list = await client.callTool({ name: "list_notes", arguments: {} });
    expect(JSON.stringify(list)).not.toMatch(LEAK);
    for (const id of [ON_MAIN, ON_BRANCH]) {
      expect((await client.callTool({ name: "get_capsule", arguments: { id } })).isError).toBe(true);
      expect((await client.callTool({ name: "get_note", arguments: { id, format: "json" } })).isError).toBe(true);
    }
    const resources = await client.listResources();
    expect(JSON.stringify(resources)).not.toMatch(LEAK);
  } finally {
    await client.close();
  }
});

test("a draft an agent writes through MCP with a token appears on no public surface until a person publishes it", async ({ request }) => {
  test.setTimeout(180_000);
  ensureAccounts();
  const before = (await request.get("/agents/index.json")).headers()["x-content-commit"] ?? "";
  const mcp = new URL(`${process.env.E2E_BASE_URL}/agents/mcp`);
  const writer = new Client({ name: "e2e-agent-writer", version: "1.0.0" });
  await writer.connect(new StreamableHTTPClientTransport(mcp, { requestInit: { headers: { Authorization: `Bearer ${newToken(AUTHOR.name)}` } } }));
  const words = "Wombat ledger agent draft";
  let id: string;
  try {
    const created = await writer.callTool({ name: "create_draft", arguments: {} });
    expect(created.isError ?? false, JSON.stringify(created.content)).toBe(false);
    const draft = created.structuredContent as { id: string; revision: string };
    id = draft.id;
    const note = {
      title: `${words} ${id}`,
      summary: `${words}: a summary no published note has.`,
      phase: "6 architecture",
      tags: ["wombat ledger"],
      related: [],
      boundaries: [],
      core: null,
      sections: {
        decision: `${words}: keep the ledger append-only.`,
        invariant: "No entry is rewritten.",
        rejectedShortcut: "",
        evidence: "",
        claimBoundary: "Says nothing about speed.",
        notes: "",
      },
    };
    const saved = await writer.callTool({ name: "save_draft", arguments: { id, revision: draft.revision, note } });
    expect(saved.isError ?? false, JSON.stringify(saved.content)).toBe(false);
    const proposed = await writer.callTool({
      name: "propose_hypothesis",
      arguments: { id, revision: (saved.structuredContent as { revision: string }).revision },
    });
    expect(proposed.structuredContent).toMatchObject({ status: "hypothesis", published: false });
  } finally {
    await writer.close();
  }

  const leak = new RegExp(`${id}\\b|Wombat|wombat`);
  for (const url of ["/", "/agents/index.json", "/agents/index.md", "/llms.txt", "/llms-full.txt", "/feed.xml", "/sitemap.xml", "/agents/pages.txt"]) {
    const res = await request.get(url);
    expect(await res.text(), url).not.toMatch(leak);
  }
  for (const q of [words, id, "wombat"]) {
    const doc = await (await request.get(`/agents/search.json?q=${encodeURIComponent(q)}`)).json();
    expect(JSON.stringify(doc.results), q).not.toMatch(leak);
    // The page repeats the query, so it is asked with the note's words only.
    if (q !== id) expect(await (await request.get(`/search.md?q=${encodeURIComponent(q)}`)).text(), q).not.toMatch(new RegExp(`${id}\\b`));
  }
  for (const url of [`/notes/${id}`, `/notes/${id}.md`, `/notes/${id}.txt`, `/notes/${id}.json`, `/notes/${id}/history`, `/agents/capsules/${id}.json`]) {
    expect((await request.get(url)).status(), url).toBe(404);
  }
  // What changed since the agent's last read holds no draft (another spec may have published meanwhile).
  const changes = await (await request.get(`/agents/changes.json?since=${before}`)).json();
  expect(JSON.stringify(changes.changes)).not.toMatch(leak);

  const reader = new Client({ name: "e2e-agent-reader", version: "1.0.0" });
  await reader.connect(new StreamableHTTPClientTransport(mcp));
  try {
    const { tools } = await reader.listTools();
    expect(tools.map((t) => t.name)).not.toContain("create_draft");
    await expect(reader.callTool({ name: "create_draft", arguments: {} })).rejects.toThrow(/create_draft is not offered to an anonymous client/);
    expect(JSON.stringify((await reader.callTool({ name: "search_notes", arguments: { query: words } })).structuredContent)).not.toMatch(
      new RegExp(`${id}\\b`),
    );
    expect((await reader.callTool({ name: "get_note", arguments: { id } })).isError).toBe(true);
    expect(JSON.stringify(await reader.listResources())).not.toMatch(leak);
  } finally {
    await reader.close();
  }
});
