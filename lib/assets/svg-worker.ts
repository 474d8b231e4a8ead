import { parentPort } from "node:worker_threads";
import { sanitizeSvg } from "./svg";
import type { FromSvgWorker, ToSvgWorker } from "./svg-thread";

/**
 * The SVG worker thread: it sanitises one SVG at a time (./svg.ts, DOMPurify over jsdom), so a
 * file's parse never runs on the thread that answers requests. The server (./svg-thread.ts) bounds
 * its time and memory and starts a new one when it had to stop it.
 */

parentPort?.on("message", async ({ id, text }: ToSvgWorker) => {
  let answer: FromSvgWorker;
  try {
    answer = { id, ok: true, value: await sanitizeSvg(text) };
  } catch (e) {
    answer = { id, ok: false, error: (e as Error).message };
  }
  parentPort!.postMessage(answer);
});
