import type { DiagramResult } from "./diagram-svg";

/** Messages between the request thread (./diagram-worker-client.ts) and the diagram worker (./diagram-worker.ts). */

/** Lay out one source (already within the size limits) and answer its checked drawing. */
export type ToDiagramWorker = { id: number; source: string };

/** `ready` once the renderer is loaded and warm (a task's time limit starts when it is sent to a ready worker). */
export type FromDiagramWorker = { t: "ready" } | { t: "drawn"; id: number; result: DiagramResult };
