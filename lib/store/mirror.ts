import { clearStaleRefLocks } from "./ref-lock";
import { listRefNames, readRef } from "./refs";
import { RemoteUnavailableError, type RemoteOptions } from "./remote";
import { createBareRepository, ensureContentRepo, isRepository } from "./seed";
import { createContentStore } from "./store";
import type { ContentStore, NoteParser, RemoteLink } from "./types";

/**
 * Opening a local repository that mirrors a remote (./remote), and keeping it in step by polling.
 *
 * - First start (no local repository): an empty bare repository, then a sync. An empty remote is
 *   given this instance's content: the seed (content/) for the content repository, nothing for
 *   accounts (the first account written creates its main).
 * - A later start serves what it last fetched even when the remote is down, and catches up when
 *   the remote returns. A first start with the remote down fails (and is retried by the next
 *   request): there is nothing true to serve yet.
 * - A local repository that already has refs and meets an empty remote pushes them all, so turning
 *   a remote on for an existing site moves its content there instead of deleting it.
 */

export type MirrorOptions<N> = { remote: RemoteOptions; seedDir: string | null; label: string; pollSeconds: number; parse?: NoteParser<N> };

export async function openMirror<N = never>(gitdir: string, options: MirrorOptions<N>): Promise<ContentStore<N>> {
  const existed = await isRepository(gitdir);
  if (existed) await clearStaleRefLocks(gitdir);
  else await createBareRepository(gitdir);
  const store = createContentStore<N>(gitdir, { remote: options.remote, parse: options.parse });
  const link = store.remote!;
  try {
    const listed = await link.list();
    if (listed.size === 0) await giveContent(store, link, options);
    await link.sync();
  } catch (e) {
    if (!(e instanceof RemoteUnavailableError) || !existed) throw e;
    console.warn(`${options.label}: ${e.message.replace("nothing was saved: try again when it is back", "serving the last fetched commit until it is back")}`);
  }
  startPolling(link, options);
  return store;
}

async function giveContent<N>(store: ContentStore<N>, link: RemoteLink, options: MirrorOptions<N>): Promise<void> {
  const mirrored = async () => (await Promise.all(options.remote.namespaces.map((p) => listRefNames(store.gitdir, p)))).flat();
  if ((await mirrored()).length === 0 && options.seedDir) await ensureContentRepo(store.gitdir, options.seedDir);
  for (const ref of await mirrored()) {
    const oid = await readRef(store.gitdir, ref);
    if (oid) await link.push(ref, null, oid, async () => undefined);
  }
}

const POLLERS = Symbol.for("field-notes.remote-pollers");
const pollers = ((globalThis as Record<symbol, unknown>)[POLLERS] ??= new Map<string, NodeJS.Timeout>()) as Map<string, NodeJS.Timeout>;

/** Fetch every `pollSeconds`; report only changes between reachable and not, never each poll. */
function startPolling<N>(link: RemoteLink, options: MirrorOptions<N>): void {
  const key = `${options.label}\0${link.displayUrl}`;
  const old = pollers.get(key);
  if (old) clearInterval(old);
  let down = false;
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      await link.sync();
      if (down) console.warn(`${options.label}: ${link.displayUrl} is reachable again; caught up`);
      down = false;
    } catch (e) {
      if (!down)
        console.warn(
          `${options.label}: ${(e as Error).message.replace("nothing was saved: try again when it is back", "reads serve the last fetched commit; writes answer 503 until it is back")}`,
        );
      down = true;
    } finally {
      busy = false;
    }
  }, options.pollSeconds * 1000);
  timer.unref();
  pollers.set(key, timer);
}
