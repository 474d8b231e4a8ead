import { parentPort } from "node:worker_threads";
import { layoutWith } from "./diagram-svg";
import type { FromDiagramWorker, ToDiagramWorker } from "./diagram-worker-protocol";

/**
 * The diagram worker thread: it lays out Mermaid sources with beautiful-mermaid and answers each
 * drawing rebuilt from the allowlist (./diagram-svg.ts), so a layout, which runs synchronously and
 * grows with the graph, never holds the server's request thread. The request thread sends only
 * sources within the size limits, one at a time, and terminates this thread when one takes longer
 * than its time limit (./diagram-worker-client.ts).
 */

const post = (message: FromDiagramWorker) => parentPort!.postMessage(message);

// Imported, not required: the package is ESM only, and tests run this entry through tsx's require hook.
const renderer = import("beautiful-mermaid").then((m) => {
  // The first layout starts elkjs (a few hundred milliseconds): before the first task's clock runs.
  layoutWith(m.renderMermaidSVG, "flowchart LR\n  a --> b");
  return m.renderMermaidSVG;
});

void renderer.then(() => post({ t: "ready" }));

parentPort!.on("message", async ({ id, source }: ToDiagramWorker) => {
  post({ t: "drawn", id, result: layoutWith(await renderer, source) });
});
