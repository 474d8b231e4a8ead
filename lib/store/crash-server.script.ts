import http from "node:http";
import path from "node:path";
import { ensureContentRepo } from "@/lib/store";
import { getContentStore } from "@/lib/working-copy/content-store";
import * as notes from "@/app/api/studio/notes/route";
import * as note from "@/app/api/studio/notes/[id]/route";
import { acquireRefLock } from "./ref-update";

/**
 * The studio's save path as a process the crash test can kill: `tsx crash-server.script.ts` with
 * DATA_DIR set loads the real route handlers, warms up through them (a read, and a save of the
 * note as it is, which writes nothing; the Authorization header is in CRASH_SERVER_AUTH) and
 * prints {"loaded":true}; on "go" (a line on stdin)
 * it runs the app's start on the repository (ensureContentRepo, which clears the stale locks a
 * crash left) and serves POST /api/studio/notes, GET and PUT /api/studio/notes/:id on a loopback
 * port it prints as {"port":N}. Loading and the first read take seconds on a busy machine, so the
 * test keeps the next server loaded and waiting while it kills this one; warming up takes no
 * lock, and its start meets the running server's locks as live ones. (Loading opens the store,
 * which already clears stale locks, so the test pauses servers still loading while it counts the
 * locks a kill left.)
 * One more address exists only here: POST /hold-lock?ref=… takes that ref's lock and never lets
 * go, so the test can kill a writer that is certainly holding one.
 */

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

function route(method: string, pathname: string): { handler: Handler; params: Record<string, string> } | null {
  if (pathname === "/api/studio/notes" && method === "POST") return { handler: notes.POST as Handler, params: {} };
  const m = /^\/api\/studio\/notes\/([^/]+)$/.exec(pathname);
  if (m && (method === "GET" || method === "PUT")) return { handler: note[method] as Handler, params: { id: m[1]! } };
  return null;
}

async function main() {
  const store = await getContentStore();
  // Warming up runs a read and a save that changes nothing (it ends before a commit or a lock).
  const at = "http://127.0.0.1/api/studio/notes/AFN-016";
  const headers = { authorization: process.env.CRASH_SERVER_AUTH ?? "", "content-type": "application/json" };
  const context = { params: Promise.resolve({ id: "AFN-016" }) };
  const read = await note.GET(new Request(at, { headers }), context);
  const { revision, fields } = (await read.json()) as { revision: string; fields: unknown };
  const same = await note.PUT(new Request(at, { method: "PUT", headers, body: JSON.stringify({ revision, note: fields }) }), context);
  if (read.status !== 200 || (same.status !== 200 && same.status !== 409)) throw new Error(`warming up: GET ${read.status}, PUT ${same.status}`);
  process.stdout.write(`${JSON.stringify({ loaded: true })}\n`);
  await new Promise((resolve) => process.stdin.once("data", resolve));
  process.stdin.pause();
  await ensureContentRepo(store.gitdir, path.resolve("content")); // the start: stale locks of the previous run are cleared here
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/hold-lock" && req.method === "POST") {
      await acquireRefLock(store.gitdir, url.searchParams.get("ref") ?? "");
      res.writeHead(200).end("held");
      return;
    }
    const found = route(req.method ?? "GET", url.pathname);
    if (!found) {
      res.writeHead(404).end();
      return;
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const response = await found.handler(new Request(url, { method: req.method, headers, body }), { params: Promise.resolve(found.params) });
    res.writeHead(response.status, { "content-type": response.headers.get("content-type") ?? "application/json" });
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  server.listen(0, "127.0.0.1", () => {
    const address = server.address();
    process.stdout.write(`${JSON.stringify({ port: typeof address === "object" && address ? address.port : 0 })}\n`);
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
