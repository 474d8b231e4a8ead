import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseNote, serializeNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";
import { commitWithGit } from "@/lib/testing/plain-git";
import { runGoverning } from "./governing-cli";
import { schemaValidator } from "./schema-validator";
import { jsonSchemaOf, type GoverningDocument } from "./schemas";
import { changedPaths } from "./unified-diff";

/**
 * "Which decisions govern this change?" over a real content repository (seeded from content/,
 * changed with plain git): the route's GET and POST, the MCP tool and the CLI, in-process.
 */

const SITE = "http://notes.test:3000";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-governing-"));
process.env.DATA_DIR = dataDir;
process.env.SITE_URL = SITE;
const gitdir = path.join(dataDir, "content.git");

let GET: (r: Request) => Promise<Response>;
let POST: (r: Request) => Promise<Response>;
let mcpPost: (r: Request) => Promise<Response>;
let governedAt = "";

const seed = (id: string): Note => {
  const parsed = parseNote(fs.readFileSync(path.resolve(__dirname, "../../content/notes", `${id}.md`), "utf8"));
  if (!parsed.ok) throw new Error(id);
  return parsed.note;
};

beforeAll(async () => {
  await (await import("@/lib/working-copy/content-store")).getContentStore(); // seeds the repository
  // AFN-016 governs the cache; AFN-017 did too, and is superseded by AFN-016; AFN-002 (verified
  // structural) governs the Metal kernels, AFN-003 is verified structural with a pinned boundary.
  // Committed before the app first reads main, so it is the archive as deployed (a new data folder
  // starts from the tip it first reads): what a verified note governs is substance, and changing it
  // on main later needs a reviewer's approval (lib/rules/verified-change.ts).
  commitWithGit(gitdir, {
    "notes/AFN-016.md": serializeNote({ ...seed("AFN-016"), affects: ["src/cache/**"] }),
    "notes/AFN-017.md": serializeNote({ ...seed("AFN-017"), status: "superseded", superseded_by: "AFN-016", affects: ["src/cache/**"] }),
    "notes/AFN-002.md": serializeNote({ ...seed("AFN-002"), affects: ["engine/metal/*.metal", "src/cache/lru.ts"] }),
  });
  ({ GET, POST } = await import("@/app/agents/governing.json/route"));
  mcpPost = (await import("@/app/agents/mcp/route")).POST;
  const schemaRoute = (await import("@/app/agents/schema/[file]/route")).GET;
  const served = await schemaRoute(new Request(`${SITE}/agents/schema/governing.json`, { headers: { host: "notes.test:3000" } }), {
    params: Promise.resolve({ file: "governing.json" }),
  });
  const schema = await served.json();
  expect(schema).toEqual(jsonSchemaOf("governing", `${SITE}/agents/schema/governing.json`));
  validate = schemaValidator(schema);
  governedAt = execFileSync("git", ["--git-dir", gitdir, "rev-parse", "main"]).toString().trim();
});

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const get = async (query: string) => GET(new Request(`${SITE}/agents/governing.json?${query}`, { headers: { host: "notes.test:3000" } }));
const post = async (diff: string, type = "text/x-diff") =>
  POST(new Request(`${SITE}/agents/governing.json`, { method: "POST", body: diff, headers: { host: "notes.test:3000", "content-type": type } }));
/** The published JSON Schema of governing.json, as /agents/schema/governing.json serves it, checked by ajv (not zod). */
let validate: (doc: unknown) => string[] = () => ["the schema route was not asked yet"];

const cacheDiff = [
  "diff --git a/src/cache/lru.ts b/src/cache/lru.ts",
  "index 3b18e51..a9c2f0d 100644",
  "--- a/src/cache/lru.ts",
  "+++ b/src/cache/lru.ts",
  "@@ -1,3 +1,3 @@",
  " export class Lru {",
  "--- a removed line that looks like a header",
  "+++ an added line that looks like a header",
  " }",
  "",
].join("\n");

describe("GET and POST /agents/governing.json", () => {
  it("answers the note in force, names the successor of the superseded one, and pins the citation", async () => {
    const res = await post(cacheDiff);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as GoverningDocument;
    expect(validate(doc)).toEqual([]);
    expect(doc.paths).toEqual(["src/cache/lru.ts"]);
    // Verified structural first (AFN-002, by its exact file), then the checkpoint (AFN-016).
    expect(doc.notes.map((n) => n.id)).toEqual(["AFN-002", "AFN-016"]);
    const afn016 = doc.notes[1]!;
    expect(afn016.matched).toEqual([{ path: "src/cache/lru.ts", entry: "src/cache/**" }]);
    expect(afn016.invariant).toBe(seed("AFN-016").sections.invariant);
    expect(afn016.claim_boundary).toBe(seed("AFN-016").sections.claimBoundary);
    expect(afn016.revision).toBe(governedAt);
    expect(afn016.urls.invariant).toBe(`${SITE}/notes/AFN-016?rev=${governedAt}#invariant`);
    expect(afn016.urls.live).toBe(`${SITE}/notes/AFN-016`);
    expect(doc.replaced).toEqual([
      {
        id: "AFN-017",
        title: seed("AFN-017").title,
        status: "superseded",
        matched: [{ path: "src/cache/lru.ts", entry: "src/cache/**" }],
        superseded_by: "AFN-016",
        successor_listed: true,
      },
    ]);
    expect(doc.needs_human_review).toBe(true);
    // The GET for the same path is the same answer.
    const byPath = (await (await get("path=./src/cache/lru.ts")).json()) as GoverningDocument;
    expect(byPath.notes).toEqual(doc.notes);
    expect(validate(byPath)).toEqual([]);
  });

  it("orders by status strength, then by the most specific match", async () => {
    const doc = (await (await get("path=src/cache/other.ts")).json()) as GoverningDocument;
    expect(doc.notes.map((n) => n.id)).toEqual(["AFN-016"]);
    expect(doc.needs_human_review).toBe(false);
  });

  it("answers an empty list for a diff touching nothing governed", async () => {
    const res = await post("--- a/docs/readme.md\n+++ b/docs/readme.md\n@@ -1 +1 @@\n-a\n+b\n");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as GoverningDocument;
    expect(validate(doc)).toEqual([]);
    expect(doc).toMatchObject({ paths: ["docs/readme.md"], count: 0, notes: [], replaced: [], needs_human_review: false });
  });

  it("refuses what it cannot read, saying what and where", async () => {
    expect((await get("")).status).toBe(400);
    expect((await (await get("")).json()).error).toMatch(/path=/);
    const notDiff = await post("hello");
    expect(notDiff.status).toBe(400);
    expect((await notDiff.json()).error).toMatch(/no file in this diff/);
    const wrongType = await post(cacheDiff, "application/json");
    expect(wrongType.status).toBe(415);
    expect((await wrongType.json()).error).toMatch(/text\/x-diff/);
    const huge = await post(`--- a/x\n+++ b/x\n${"+".repeat(5_000_001)}`);
    expect(huge.status).toBe(413);
  });
});

describe("the MCP tool governing_notes", () => {
  it("answers a diff with the same document, valid against its output schema", async () => {
    const client = new Client({ name: "governing-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${SITE}/agents/mcp`), {
      fetch: (url, init) => mcpPost(new Request(url, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), host: "notes.test:3000" } })),
    });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "governing_notes")?.outputSchema).toBeTruthy();
    const result = await client.callTool({ name: "governing_notes", arguments: { diff: cacheDiff } });
    const doc = result.structuredContent as GoverningDocument;
    expect(validate(doc)).toEqual([]);
    expect(doc.notes.map((n) => n.id)).toEqual(["AFN-002", "AFN-016"]);
    expect(doc.replaced[0]?.superseded_by).toBe("AFN-016");
    const refused = await client.callTool({ name: "governing_notes", arguments: {} });
    expect(refused.isError).toBe(true);
    await client.close();
  });
});

describe("npm run governing", () => {
  const run = async (argv: string[], diff: string) => {
    let out = "";
    let err = "";
    const code = await runGoverning(argv, {
      env: {},
      readFile: async () => diff,
      fetch: (async (url: string | URL | Request, init?: RequestInit) => POST(new Request(url, init))) as typeof fetch,
      out: (s) => (out += s),
      err: (s) => (err += s),
    });
    return { code, out, err };
  };

  it("exits 1 when a verified structural decision is touched, and its github lines parse as workflow commands", async () => {
    const { code, out } = await run(["--diff", "change.diff", "--base-url", SITE, "--format", "github"], cacheDiff);
    expect(code).toBe(1);
    const lines = out.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    const command = parseWorkflowCommand(lines[0]!);
    expect(command).toMatchObject({ command: "error", properties: { file: "src/cache/lru.ts", title: "Governed by AFN-002, AFN-016 (needs a human look)" } });
    expect(command?.message).toContain(`Cite: ${SITE}/notes/AFN-016?rev=${governedAt}#invariant`);
    expect(command?.message).toContain("AFN-017 is superseded; read AFN-016 instead");
  });

  it("exits 0 for a diff nothing governs, and refuses bad arguments with 2", async () => {
    const clear = await run(["--diff", "x.diff", "--base-url", SITE], "--- a/docs/a.md\n+++ b/docs/a.md\n@@ -1 +1 @@\n-a\n+b\n");
    expect(clear).toMatchObject({ code: 0, out: "No published note governs docs/a.md.\n" });
    const checkpointOnly = await run(["--diff", "x.diff", "--base-url", SITE, "--format", "json"], "--- a/src/cache/b.ts\n+++ b/src/cache/b.ts\n");
    expect(checkpointOnly.code).toBe(0);
    expect(validate(JSON.parse(checkpointOnly.out))).toEqual([]);
    expect((await run(["--base-url", SITE], "")).code).toBe(2);
    expect((await run(["--diff", "x", "--format", "xml"], "")).err).toMatch(/--format xml: one of text, json, github/);
  });
});

describe("changedPaths", () => {
  it("reads git's headers: renames, deletions, quoted names, binary files and plain diff -u", () => {
    const diff = [
      "diff --git a/old/name.ts b/new/name.ts",
      "similarity index 100%",
      "rename from old/name.ts",
      "rename to new/name.ts",
      "diff --git a/gone.ts b/gone.ts",
      "deleted file mode 100644",
      "--- a/gone.ts",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-x",
      'diff --git "a/sp ace/\\303\\251t\\303\\251.ts" "b/sp ace/\\303\\251t\\303\\251.ts"',
      '--- "a/sp ace/\\303\\251t\\303\\251.ts"',
      '+++ "b/sp ace/\\303\\251t\\303\\251.ts"',
      "diff --git a/img/logo.png b/img/logo.png",
      "Binary files a/img/logo.png and b/img/logo.png differ",
      "",
    ].join("\n");
    expect(changedPaths(diff)).toEqual({ ok: true, paths: ["new/name.ts", "old/name.ts", "gone.ts", "sp ace/été.ts", "img/logo.png"] });
    expect(changedPaths("--- lib/a.c\t2026-12-06 04:00:00\n+++ lib/a.c\t2026-12-06 04:01:00\n@@ -1 +1 @@\n-a\n+b\n--- lib/b.c\n+++ lib/b.c\n")).toEqual({
      ok: true,
      paths: ["lib/a.c", "lib/b.c"],
    });
  });
});

/** A workflow command as the Actions runner reads one: `::name k=v,k=v::message`, with its escapes undone. */
function parseWorkflowCommand(line: string): { command: string; properties: Record<string, string>; message: string } | null {
  const m = /^::([a-z-]+)(?: ([^:]*))?::(.*)$/.exec(line);
  if (!m) return null;
  const unescape = (s: string) => s.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%3A/g, ":").replace(/%2C/g, ",").replace(/%25/g, "%");
  const properties: Record<string, string> = {};
  for (const pair of (m[2] ?? "").split(",").filter(Boolean)) {
    const at = pair.indexOf("=");
    properties[pair.slice(0, at)] = unescape(pair.slice(at + 1));
  }
  return { command: m[1]!, properties, message: unescape(m[3] ?? "") };
}
