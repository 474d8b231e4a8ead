import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/env";
import { commitWithGit } from "@/lib/testing/plain-git";
import { seedNotes } from "@/lib/testing/seed";
import { noteChanges } from "./changes";
import { schemaValidator } from "./schema-validator";
import { changesSchema } from "./schemas";
import { agentUrls } from "./urls";

/**
 * `/agents/changes.json?since=<commit>` and MCP `changes_since` over a real content repository
 * seeded from content/: one plain-git commit on main edits one note, supersedes another and
 * retracts a third, and exactly those three come back with their kinds. The commit is one the rules
 * accept (the edit is to a hypothesis: an unapproved edit of a verified note is not served). Every
 * answer validates against the JSON Schema the site publishes for it.
 */

const SITE = "http://notes.test:3000";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-changes-"));
const gitdir = path.join(dataDir, "content.git");
let GET: (request: Request) => Promise<Response>;
let since: string;
let after: string;
let draftCommit: string;
/** The published JSON Schema of changes.json, as /agents/schema/changes.json serves it, checked by ajv (not zod). */
let published: (doc: unknown) => string[];

const git = (...args: string[]) => execFileSync("git", ["--git-dir", gitdir, ...args], { encoding: "utf8" }).trim();
const noteAt = (id: string) => git("show", `main:notes/${id}.md`);
const ask = async (query: string) => {
  const response = await GET(new Request(`${SITE}/agents/changes.json${query}`, { headers: { host: "notes.test:3000" } }));
  return { status: response.status, commit: response.headers.get("x-content-commit"), body: await response.json() };
};

beforeAll(async () => {
  process.env.DATA_DIR = dataDir;
  delete process.env.CONTENT_REPO;
  process.env.SITE_URL = SITE;
  resetConfig();
  GET = (await import("@/app/agents/changes.json/route")).GET;
  const schemaRoute = (await import("@/app/agents/schema/[file]/route")).GET;
  const served = await schemaRoute(new Request(`${SITE}/agents/schema/changes.json`, { headers: { host: "notes.test:3000" } }), {
    params: Promise.resolve({ file: "changes.json" }),
  });
  published = schemaValidator(await served.json());
  // The first request seeds the repository from content/.
  since = (await ask(`?since=${"0".repeat(40)}`)).commit ?? "";
  expect(since).toMatch(/^[0-9a-f]{40}$/);

  commitWithGit(gitdir, {
    "notes/AFN-021.md": noteAt("AFN-021").replace(/^summary: .*$/m, "summary: A hypothesis, restated in fewer words."),
    "notes/AFN-011.md": noteAt("AFN-011").replace(/^status: .*$/m, "status: superseded\nsuperseded_by: AFN-010"),
    "notes/AFN-019.md": noteAt("AFN-019").replace(/^status: .*$/m, "status: retracted\nretraction_reason: The measurement did not reproduce."),
  });
  after = git("rev-parse", "main");
  // A draft's revision on its own branch: a commit this repository holds, never one main was at.
  commitWithGit(
    gitdir,
    {
      "notes/AFN-040.md": noteAt("AFN-021")
        .replace(/^id: .*$/m, "id: AFN-040")
        .replace(/^status: .*$/m, "status: draft"),
    },
    "drafts/AFN-040",
  );
  draftCommit = git("rev-parse", "drafts/AFN-040");
}, 60_000);

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("changes.json", () => {
  it("reports exactly the edited, superseded and retracted notes, with their kinds and main's commit", async () => {
    const { status, commit, body } = await ask(`?since=${since}`);
    expect(status).toBe(200);
    expect(commit).toBe(after);
    expect(() => changesSchema.parse(body)).not.toThrow();
    expect(published(body)).toEqual([]);
    expect(body).toMatchObject({ since, commit: after, count: 3, next: null, next_url: null });
    expect(body.changes.map((c: { id: string; kind: string; fields: string[] }) => [c.id, c.kind, c.fields])).toEqual([
      ["AFN-011", "superseded", ["status", "supersededBy"]],
      ["AFN-019", "retracted", ["status", "retractionReason"]],
      ["AFN-021", "changed", ["summary"]],
    ]);
    expect(body.changes[0]).toMatchObject({
      status: "superseded",
      previous_status: "verified-checkpoint",
      superseded_by: "AFN-010",
      url: `${SITE}/notes/AFN-011.json`,
    });
    expect(body.changes[1]).toMatchObject({ status: "retracted", previous_status: "hypothesis", retraction_reason: "The measurement did not reproduce." });
  });

  it("answers an empty list from main's own commit", async () => {
    const { status, body } = await ask(`?since=${after}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ since: after, commit: after, count: 0, changes: [] });
    expect(published(body)).toEqual([]);
  });

  it("pages by note id: the next page starts after the cursor", async () => {
    const { changesSince } = await import("./changes");
    const { getPublishedView } = await import("@/lib/content/published");
    const { agentUrls } = await import("./urls");
    const view = await getPublishedView();
    const first = await changesSince(view, agentUrls(SITE), since, null, 2);
    if (!first.ok) throw new Error(first.error);
    expect(first.doc.changes.map((c) => c.id)).toEqual(["AFN-011", "AFN-019"]);
    expect(first.doc).toMatchObject({ count: 3, next: "AFN-019", next_url: `${SITE}/agents/changes.json?since=${since}&cursor=AFN-019` });
    expect(published(first.doc)).toEqual([]);
    const second = await changesSince(view, agentUrls(SITE), since, first.doc.next, 2);
    expect(second.ok && second.doc.changes.map((c) => c.id)).toEqual(["AFN-021"]);
    expect(second.ok && second.doc.next).toBeNull();
  });

  it("answers 410 with what to do for a commit it does not know, and for a draft's commit alike", async () => {
    for (const commit of ["1".repeat(40), draftCommit]) {
      const { status, body } = await ask(`?since=${commit}`);
      expect(status, commit).toBe(410);
      expect(body.error).toBe(
        `commit ${commit} is not one main has been at here (unknown to this archive, or not on main's history); read /agents/index.json again and keep its commit`,
      );
    }
  });

  it("answers 400 saying what is wrong for a missing or malformed commit and an unknown cursor", async () => {
    expect(await ask("")).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^since is missing/) } });
    expect(await ask("?since=main")).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^since must be a 40-character commit id/) } });
    expect(await ask(`?since=${since}&cursor=AFN-999`)).toMatchObject({ status: 400, body: { error: expect.stringMatching(/cursor "AFN-999"/) } });
  });
});

describe("noteChanges", () => {
  it("names an added, a re-statused and a removed note, and passes over one only reformatted", () => {
    const seed = new Map(seedNotes().map((n) => [n.id, n]));
    const before = new Map(seed);
    before.delete("AFN-021");
    const after = new Map(seed);
    after.delete("AFN-020");
    after.set("AFN-019", { ...seed.get("AFN-019")!, status: "verified-checkpoint" });
    after.set("AFN-018", { ...seed.get("AFN-018")! }); // another object, the same fields
    const changes = noteChanges(before, after, agentUrls(SITE));
    const kinds = changes.map((c) => [c.id, c.kind, c.previous_status, c.status, c.fields]);
    // Every kind of change, as a page of changes.json, is what the published schema says.
    expect(published({ since, commit: "f".repeat(40), count: changes.length, changes, next: null, next_url: null })).toEqual([]);
    expect(kinds).toEqual([
      ["AFN-019", "re-statused", "hypothesis", "verified-checkpoint", ["status"]],
      ["AFN-020", "removed", "verified-structural", null, []],
      ["AFN-021", "added", null, "hypothesis", []],
    ]);
  });
});

describe("MCP changes_since", () => {
  it("answers what changes.json answers, as structured content, and a tool error for an unknown commit", async () => {
    const POST = (await import("@/app/agents/mcp/route")).POST;
    const client = new Client({ name: "changes-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${SITE}/agents/mcp`), {
        fetch: (url, init) => POST(new Request(url, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), host: "notes.test:3000" } })),
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === "changes_since")?.outputSchema?.type).toBe("object");
      const result = await client.callTool({ name: "changes_since", arguments: { since } });
      expect(result.structuredContent).toEqual((await ask(`?since=${since}`)).body);
      expect(published(result.structuredContent)).toEqual([]);
      const unknown = await client.callTool({ name: "changes_since", arguments: { since: draftCommit } });
      expect(unknown.isError).toBe(true);
      expect(JSON.stringify(unknown.content)).toMatch(/not one main has been at/);
    } finally {
      await client.close();
    }
  });
});
