import { parentPort } from "node:worker_threads";
import { withDrawings } from "./diagrams";
import { renderSectionNow } from "./markdown";
import type { FromSectionWorker, ToSectionWorker } from "./section-worker-protocol";

/**
 * The section worker thread: renders one note section at a time (Markdown, highlighting, diagrams,
 * sanitizing; ./markdown.ts) and answers its HTML, so a long or hostile section never holds the
 * server's request thread. The server keeps the results (./sections.ts); the worker keeps nothing
 * but the pipeline's own small caches (grammars, drawings).
 */
parentPort?.on("message", ({ id, markdown, options, drawings }: ToSectionWorker) => {
  // The diagrams were drawn by the diagram worker, under its time limit; this thread only places them.
  const html = drawings ? withDrawings(new Map(drawings), () => renderSectionNow(markdown, options)) : renderSectionNow(markdown, options);
  parentPort?.postMessage({ id, html } satisfies FromSectionWorker);
});
