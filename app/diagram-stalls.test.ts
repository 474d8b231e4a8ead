import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * A heavy Mermaid diagram never holds the server (issue 32, finding 1). A fan-out of 352
 * characters (`a0 & … & a29 --> b0 & … & b29`, 900 links) froze the server for 84 s on the review
 * page, and a 22 × 22 one for 12 s on the first /feed.xml after a restart, while every other
 * reader waited. The real route handlers run in-process over a real content repository with such
 * a note committed by plain git; a reader of /llms.txt asks every 100 ms meanwhile, and each of its
 * answers must come within 2 s of when it was asked. The heavy request ends with a bounded answer:
 * the diagram's source and the reason it is not drawn.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-diagram-stalls-"));
process.env.DATA_DIR = dataDir;
delete process.env.CONTENT_REPO;
process.env.SITE_URL = "http://notes.test";

type Handler = (request: Request) => Promise<Response> | Response;
let feed: Handler;
let llms: Handler;
let render: typeof import("@/lib/render/diagrams");
let renderSection: typeof import("@/lib/render/sections").renderSection;

const fan = (k: number) =>
  `flowchart LR\n${Array.from({ length: k }, (_, i) => `a${i}`).join(" & ")} --> ${Array.from({ length: k }, (_, i) => `b${i}`).join(" & ")}`;
const fence = (source: string) => `\`\`\`mermaid\n${source}\n\`\`\``;

// tsx's require hook, registered in the worker's own thread, compiles the entry and what it imports.
const entry = path.resolve(__dirname, "../lib/render/diagram-worker.ts");
const spawn = () => new Worker(`require("tsx/cjs/api").register(); require(${JSON.stringify(entry)});`, { eval: true });

beforeAll(async () => {
  (await import("@/lib/env")).resetConfig();
  feed = (await import("@/app/feed.xml/route")).GET;
  llms = (await import("@/app/llms.txt/route")).GET as Handler;
  render = await import("@/lib/render/diagrams");
  renderSection = (await import("@/lib/render/sections")).renderSection;
  const { getContentStore } = await import("@/lib/working-copy/content-store");
  const { git, noteFile, tempDir } = await import("@/lib/store/testing");
  await getContentStore(); // creates and seeds the repository
  // Committed with plain git, as an agent would: the app meets whatever lands on main.
  const work = tempDir("diagram-stalls");
  git(work, "clone", "--quiet", path.join(dataDir, "content.git"), ".");
  const sections = (evidence: string) => ({
    decision: "Keep it.",
    invariant: "Holds.",
    rejectedShortcut: "",
    evidence,
    claimBoundary: "Says nothing else.",
    notes: "",
  });
  fs.writeFileSync(
    path.join(work, "notes", "AFN-951.md"),
    noteFile("AFN-951", "A fan-out.", { sections: sections(`Every reader to every writer:\n\n${fence(fan(22))}`) }),
  );
  git(work, "add", "-A");
  git(work, "commit", "--quiet", "-m", "A note with a 22 × 22 fan-out");
  git(work, "push", "--quiet", "origin", "HEAD:refs/heads/main");
  fs.rmSync(work, { recursive: true, force: true });
  // The reader's first answer loads the published view; the feed is left cold, as after a restart.
  expect((await get(llms, "/llms.txt")).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await render.stopDiagramWorker();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function get(handler: Handler, pathname: string) {
  const res = await handler(new Request(`http://notes.test${pathname}`, { headers: { host: "notes.test" } }));
  return { status: res.status, body: await res.text() };
}

/**
 * Runs `heavy` while a reader asks for /llms.txt every 100 ms; answers the heavy result and the
 * reader's worst wait, measured from when each request was due (a blocked event loop delays the
 * asking as much as the answering).
 */
async function besideAReader<T>(heavy: () => Promise<T>): Promise<{ result: T; worstWait: number; answers: number }> {
  let done = false;
  let worstWait = 0;
  let answers = 0;
  const reader = (async () => {
    let due = performance.now();
    while (!done) {
      due += 100;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
      const { status } = await get(llms, "/llms.txt");
      expect(status).toBe(200);
      worstWait = Math.max(worstWait, performance.now() - due);
      answers++;
    }
  })();
  const result = await heavy();
  done = true;
  await reader;
  return { result, worstWait, answers };
}

describe("a heavy diagram and the readers beside it", () => {
  it("the first /feed.xml after a restart answers the 22 × 22 fan-out with its source and the reason, and /llms.txt waits under 2 s meanwhile", async () => {
    const { result, worstWait } = await besideAReader(() => get(feed, "/feed.xml"));
    expect(worstWait).toBeLessThan(2_000);
    expect(result.status).toBe(200);
    // The entry's HTML, escaped once more for XML.
    expect(result.body).toContain("This diagram could not be drawn: it draws 484 links, more than the 120 a page draws");
    expect(result.body).toContain(`&lt;code class="language-mermaid"&gt;flowchart LR\na0 &amp;#x26; a1 &amp;#x26; a2`);
    expect(result.body).not.toContain("&lt;svg");
  }, 120_000);

  it("a layout that runs past the time limit is stopped in the worker, the reader waits under 2 s meanwhile, and the next diagram gets a new worker", async () => {
    const worker = render.startDiagramWorker(spawn, 2_000);
    // The 900-link fan-out, handed to the worker as if the limits had let it through: a runaway layout.
    const { result, worstWait, answers } = await besideAReader(() => worker.draw(fan(30)));
    expect(result).toEqual({ ok: false, error: "drawing it took longer than 2 s" });
    expect(worstWait).toBeLessThan(2_000);
    expect(answers).toBeGreaterThan(5);
    const html = await renderSection(`Small.\n\n${fence("flowchart LR\n  draft --> review")}`);
    expect(html).toContain("<svg");
    expect(html).toContain(">review</text>");
    expect(worker.started).toBe(2);
  }, 120_000);

  it("on the page's road, a diagram within the limits whose layout outlives the time limit shows its source and says so", async () => {
    render.startDiagramWorker(spawn, 100);
    // 90 nodes in 10 subgraphs and 120 links between them: within the limits, seconds of layout.
    let seed = 7;
    const next = (k: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % k);
    const lines = ["flowchart TD"];
    for (let g = 0; g < 10; g++) lines.push(`  subgraph g${g}`, ...Array.from({ length: 9 }, (_, j) => `    x${g}_${j}`), "  end");
    for (let e = 0; e < 120; e++) lines.push(`  x${next(10)}_${next(9)} --> x${next(10)}_${next(9)}`);
    const source = lines.join("\n");
    const html = await renderSection(`Measured.\n\n${fence(source)}`, { idPrefix: "evidence" });
    expect(html).toContain("This diagram could not be drawn: drawing it took longer than 0.1 s. Its Mermaid source is shown as written.");
    expect(html).toContain(`<code class="language-mermaid">flowchart TD\n  subgraph g0`);
    expect(html).not.toContain("<svg");
  }, 120_000);
});
