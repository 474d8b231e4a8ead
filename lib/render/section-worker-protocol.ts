import type { DiagramResult } from "./diagram-svg";
import type { RenderOptions } from "./markdown";

/** One section to render (./section-worker.ts), with its diagrams already drawn (source → drawing), and its HTML. */
export type ToSectionWorker = { id: number; markdown: string; options: RenderOptions; drawings?: [string, DiagramResult][] };
export type FromSectionWorker = { id: number; html: string };
