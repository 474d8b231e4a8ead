import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { buildCapsule, capsuleMarkdown } from "./capsule";
import { folderView, viewOf } from "./folder-view";
import { createAgentMcpServer } from "./mcp";
import { noteJson, noteMarkdown, noteText } from "./note-formats";
import { schemaValidator } from "./schema-validator";
import { jsonSchemaOf } from "./schemas";
import { agentUrls } from "./urls";

/** Agents get a note's figures as words and addresses: alt text and absolute URLs; capsules stay text only. */

const view = folderView(path.resolve(__dirname, "../../content"), "c0ffee".padEnd(40, "0"));
const urls = agentUrls("https://notes.example.org");
const base = view.notes[0]!;
const asset = `assets/${base.id}/${"ab".repeat(20)}.png`;
const note = {
  ...base,
  sections: {
    ...base.sections,
    evidence: `Measured twice.\n\n![Throughput by batch size: flat above 32](${asset})\n\nThe plot shows it.`,
    decision: `${base.sections.decision}\n\n![Block mask][mask]\n\n[mask]: ${asset}`,
  },
};
const absolute = `https://notes.example.org/${asset}`;

describe("a note's images in the agent formats", () => {
  it("Markdown keeps each image with its alt text at its absolute URL", () => {
    const md = noteMarkdown(note, view, urls, {});
    expect(md).toContain(`![Throughput by batch size: flat above 32](${absolute})`);
    expect(md).toContain(`[mask]: ${absolute}`);
    expect(md).not.toMatch(/\]\(assets\//);
  });

  it("LLM text names each image by its alt text and URL", () => {
    expect(noteText(note, view, urls, {})).toContain(`[Image: Throughput by batch size: flat above 32] (${absolute})`);
  });

  it("JSON lists the images with section, alt text and URL, and still matches its published schema", () => {
    const json = noteJson(note, view, urls, {});
    expect(json.images).toEqual([
      { section: "decision", alt: "Block mask", url: absolute },
      { section: "evidence", alt: "Throughput by batch size: flat above 32", url: absolute },
    ]);
    const validate = schemaValidator(jsonSchemaOf("note", urls.schema("note")));
    expect(validate(json)).toEqual([]);
  });

  it("a capsule carries no image, neither its address nor its alt text", () => {
    const capsule = capsuleMarkdown(buildCapsule(note, view, urls));
    expect(capsule).not.toMatch(/assets\/|Throughput by batch size|Block mask|\[Image/);
    expect(capsule).toContain("Measured twice.");
  });
});

describe("a note's images over MCP", () => {
  // A real MCP client talking to the server over a linked in-memory pair; the view holds the note with images.
  const withImages = viewOf(
    view.notes.map((n) => (n.id === note.id ? note : n)),
    view.site,
    view.commit,
  );
  const connect = async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createAgentMcpServer(withImages, urls, {}).connect(serverSide);
    const client = new Client({ name: "note-images-test", version: "1.0.0" });
    await client.connect(clientSide);
    return client;
  };

  it("get_note and the note resource give each image its alt text and absolute URL, and start at the note's id like the file", async () => {
    const client = await connect();
    try {
      const tool = await client.callTool({ name: "get_note", arguments: { id: note.id } });
      const resource = await client.readResource({ uri: urls.noteAs(note.id, "md") });
      for (const text of [(tool.structuredContent as { content: string }).content, (resource.contents[0] as { text: string }).text]) {
        expect(text).toContain(`![Throughput by batch size: flat above 32](${absolute})`);
        expect(text).toContain(`[mask]: ${absolute}`);
        expect(text).not.toMatch(/\]\(assets\//);
        // No /llms.txt pointer over MCP: the note opens at its id, as the file in the repository does.
        expect(text.startsWith(`---\nid: ${note.id}\n`)).toBe(true);
        expect(text).toContain(`# Image URLs are absolute here; the file in the repository references them as assets/${note.id}/<hash>.<ext>.`);
      }
      const json = await client.callTool({ name: "get_note", arguments: { id: note.id, format: "json" } });
      expect(JSON.parse((json.structuredContent as { content: string }).content).images).toContainEqual({
        section: "evidence",
        alt: "Throughput by batch size: flat above 32",
        url: absolute,
      });
    } finally {
      await client.close();
    }
  });

  it("the Markdown twin served over HTTP keeps its /llms.txt pointer", () => {
    expect(noteMarkdown(note, view, urls, {}).startsWith(`---\n# For agents: the index of this archive is ${urls.llms}\nid: ${note.id}\n`)).toBe(true);
  });
});
