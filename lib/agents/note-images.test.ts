import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildCapsule, capsuleMarkdown } from "./capsule";
import { folderView } from "./folder-view";
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
    const md = noteMarkdown(note, view, urls);
    expect(md).toContain(`![Throughput by batch size: flat above 32](${absolute})`);
    expect(md).toContain(`[mask]: ${absolute}`);
    expect(md).not.toMatch(/\]\(assets\//);
  });

  it("LLM text names each image by its alt text and URL", () => {
    expect(noteText(note, view, urls)).toContain(`[Image: Throughput by batch size: flat above 32] (${absolute})`);
  });

  it("JSON lists the images with section, alt text and URL, and still matches its published schema", () => {
    const json = noteJson(note, view, urls);
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
