import path from "node:path";
import { describe, expect, it } from "vitest";
import { folderView } from "./folder-view";
import { noteJson, noteMarkdown, noteText } from "./note-formats";
import { agentUrls } from "./urls";

/**
 * Agents get a note's diagrams as their Mermaid source (they read it better than pixels) and its code
 * as text: the SVG and the highlighting classes the pages draw (lib/render) never reach a twin.
 */

const view = folderView(path.resolve(__dirname, "../../content"), "c0ffee".padEnd(40, "0"));
const urls = agentUrls("https://notes.example.org");
const base = view.notes[0]!;
const diagram = "flowchart LR\n  draft[Draft] -->|submit| review{Review}";
const note = {
  ...base,
  sections: {
    ...base.sections,
    evidence: `The flow:\n\n\`\`\`mermaid\n${diagram}\n\`\`\`\n\n\`\`\`ts\nconst limit = 32;\n\`\`\``,
  },
};

describe("a note's diagrams and code in the agent formats", () => {
  it("Markdown keeps the fenced Mermaid source and the code as written", () => {
    const md = noteMarkdown(note, view, urls, {});
    expect(md).toContain(`\`\`\`mermaid\n${diagram}\n\`\`\``);
    expect(md).toContain("```ts\nconst limit = 32;\n```");
    expect(md).not.toMatch(/<svg|hl-[0-9a-f]{6}/);
  });

  it("LLM text and JSON keep the Mermaid source", () => {
    // .txt shows code as an indented block (lib/render/plain-text.ts), every line of the source kept.
    const text = noteText(note, view, urls, {});
    expect(text).toContain(
      diagram
        .split("\n")
        .map((line) => `    ${line}`)
        .join("\n"),
    );
    expect(text).not.toContain("<svg");
    const json = noteJson(note, view, urls, {});
    expect(JSON.stringify(json)).toContain(JSON.stringify(diagram).slice(1, -1));
    expect(JSON.stringify(json)).not.toContain("<svg");
  });
});
