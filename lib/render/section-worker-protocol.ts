import type { RenderOptions } from "./markdown";

/** One section to render (./section-worker.ts), and its HTML. */
export type ToSectionWorker = { id: number; markdown: string; options: RenderOptions };
export type FromSectionWorker = { id: number; html: string };
