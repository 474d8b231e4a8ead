import { describe, expect, it } from "vitest";
import { loadPreviewDiagrams, onPreviewChunk, previewChunkCount, previewDiagramsReady } from "./preview";
import { loadPreviewGrammar } from "./preview-code";

/**
 * The editor's one "a preview chunk arrived" signal: the Mermaid renderer and each code grammar,
 * loaded late, each tell a subscribed field once, so a preview shown before they came is drawn
 * again. This file's module state is fresh: nothing has loaded yet.
 */

describe("onPreviewChunk", () => {
  it("fires once when the diagram renderer arrives and once for each new grammar, and stops after unsubscribing", async () => {
    const heard: number[] = [];
    const stop = onPreviewChunk(() => heard.push(previewChunkCount()));
    expect(previewDiagramsReady()).toBe(false);
    expect(previewChunkCount()).toBe(0);

    await loadPreviewDiagrams();
    expect(previewDiagramsReady()).toBe(true);
    expect(heard).toEqual([1]);
    // Asked again (another field opening), the renderer is already here: nothing new to draw.
    await loadPreviewDiagrams();
    expect(heard).toEqual([1]);

    expect(await loadPreviewGrammar("ts")).toBe(true);
    expect(heard).toEqual([1, 2]);
    // "typescript" is the same grammar: no second arrival.
    await loadPreviewGrammar("typescript");
    expect(heard).toEqual([1, 2]);

    stop();
    await loadPreviewGrammar("rust");
    expect(heard).toEqual([1, 2]);
    expect(previewChunkCount()).toBe(3);
  });
});
