import { describe, expect, it } from "vitest";
import { diagramsPending, loadPreviewDiagrams } from "./preview";

/**
 * The editor's preview marks itself busy (aria-busy) while it shows a Mermaid block the renderer,
 * loaded on demand, has not drawn yet, and only then: a field without a diagram never waits for
 * (or loads) the renderer. This file's module state is fresh: the renderer has not loaded.
 */

describe("diagramsPending", () => {
  it("is true for a Mermaid fence the pipeline would draw, until the renderer is here", async () => {
    expect(diagramsPending("Flow:\n\n```mermaid\nflowchart LR\n  a --> b\n```\n")).toBe(true);
    expect(diagramsPending("~~~~ mermaid\nflowchart LR\n~~~~")).toBe(true);
    expect(diagramsPending("   ```mermaid title\nx\n```")).toBe(true);

    expect(diagramsPending("No diagram here.\n\n```ts\nconst a = 1;\n```\n")).toBe(false);
    expect(diagramsPending("Inline `mermaid` and ```mermaid``` are not blocks.")).toBe(false);
    expect(diagramsPending("```mermaidish\nx\n```")).toBe(false);
    expect(diagramsPending("```Mermaid\nx\n```")).toBe(false);
    expect(diagramsPending("    ```mermaid\nindented: code, not a fence\n```")).toBe(false);

    await loadPreviewDiagrams();
    expect(diagramsPending("```mermaid\nflowchart LR\n  a --> b\n```")).toBe(false);
  });
});
