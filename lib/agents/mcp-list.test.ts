import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { parseNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";
import { seedNotes, viewOf } from "@/lib/testing/seed";
import { benchNote } from "@/scripts/bench-notes";
import { createAgentMcpServer } from "./mcp";
import { INDEX_JSON_PAGE_SIZE, INDEX_PAGE_SIZE } from "@/lib/agents/index-cursor";
import { agentUrls } from "./urls";

/**
 * list_notes over a real MCP client on an archive larger than a page: an agent walks the whole
 * index by following `next`, and no answer holds more than a page (at 10,000 notes one unpaged
 * answer was megabytes).
 */

const generated: Note[] = Array.from({ length: 230 }, (_, i) => {
  const parsed = parseNote(benchNote(21 + i, `Generated note ${21 + i}.`));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.note;
});
const view = viewOf([...seedNotes(), ...generated]);

type ListAnswer = { count: number; entries: { id: string; status: string }[]; next: string | null };

async function connect(): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createAgentMcpServer(view, agentUrls("https://notes.example.org"), {}).connect(serverSide);
  const client = new Client({ name: "list-test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

async function walk(client: Client, filters: Record<string, string>): Promise<{ pages: ListAnswer[]; ids: string[] }> {
  const pages: ListAnswer[] = [];
  let cursor: string | null = null;
  do {
    const result = await client.callTool({ name: "list_notes", arguments: cursor ? { ...filters, cursor } : filters });
    expect(result.isError ?? false).toBe(false);
    const page = result.structuredContent as ListAnswer;
    pages.push(page);
    cursor = page.next;
  } while (cursor && pages.length < 100);
  return { pages, ids: pages.flatMap((p) => p.entries.map((e) => e.id)) };
}

describe("MCP list_notes", () => {
  it("answers a page at a time, and following next reaches every published note once, in the index's order", async () => {
    const client = await connect();
    const { pages, ids } = await walk(client, {});
    expect(pages).toHaveLength(Math.ceil(view.notes.length / INDEX_JSON_PAGE_SIZE));
    for (const p of pages) {
      expect(p.entries.length).toBeLessThanOrEqual(INDEX_JSON_PAGE_SIZE);
      expect(p.count).toBe(view.notes.length);
    }
    expect(ids).toEqual(view.notes.map((n) => n.id));
    expect(pages.at(-1)!.next).toBeNull();
    await client.close();
  });

  it("pages a filtered list by the same filters, and refuses a cursor that names no note with what to do", async () => {
    const client = await connect();
    const status = "verified-checkpoint";
    const { pages, ids } = await walk(client, { status });
    expect(pages.length).toBeGreaterThan(1);
    expect(ids).toEqual(view.notes.filter((n) => n.status === status).map((n) => n.id));
    const bad = await client.callTool({ name: "list_notes", arguments: { cursor: "AFN-999" } });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0]?.text).toMatch(/cursor "AFN-999" names no published note; start again/);
    await client.close();
  });
});

describe("MCP resources/list", () => {
  it("lists each note's Markdown a page at a time; following nextCursor reaches every note once, in the index's order", async () => {
    const client = await connect();
    const pages: { resources: { uri: string; name: string; title?: string; mimeType?: string }[]; nextCursor?: string }[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor ? { cursor } : {});
      pages.push(page);
      cursor = page.nextCursor;
    } while (cursor && pages.length < 100);
    expect(pages).toHaveLength(Math.ceil(view.notes.length / INDEX_PAGE_SIZE));
    for (const p of pages) expect(p.resources.length).toBeLessThanOrEqual(INDEX_PAGE_SIZE);
    const listed = pages.flatMap((p) => p.resources);
    expect(listed.map((r) => r.name)).toEqual(view.notes.map((n) => n.id));
    expect(listed[0]).toMatchObject({ uri: `https://notes.example.org/notes/${view.notes[0]!.id}.md`, title: view.notes[0]!.title, mimeType: "text/markdown" });
    await expect(client.listResources({ cursor: "AFN-999" })).rejects.toThrow(/cursor "AFN-999" names no published note; start again/);
    await client.close();
  });
});
