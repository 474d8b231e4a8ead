import { clearStaleRefLocks } from "./ref-lock";
import { listRefNames, readRef } from "./refs";
import { setLocal } from "./ref-update";
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
 * - An empty remote is one that lists no refs, whatever its HEAD names: it is empty, not
 *   unreachable. An instance with something to give pushes it (compare-and-swap from nothing: of
 *   two starting together, one wins and the other takes its refs); one with nothing waits, and its
 *   next poll takes what another wrote.
 * - A later start serves what it last fetched even when the remote is down, and catches up when
 *   the remote returns. A first start with the remote down fails (and is retried by the next
 *   request): there is nothing true to serve yet. Either way polling goes on, and the first poll
 *   that reaches the remote catches up and logs that it is back (once; going down is logged once too).
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
  const reach = reachability(options.label, link);
  try {
    await catchUp(store, link, options);
    reach.up();
  } catch (e) {
    if (!(e instanceof RemoteUnavailableError)) throw e;
    reach.down(e, existed ? "serving the last fetched commit until it is back" : "nothing fetched yet to serve; polling until it is back");
    // Polling goes on either way: the first poll that reaches the remote catches up and says so.
    startPolling(store, link, options, false);
    if (!existed) throw e;
    return store;
  }
  startPolling(store, link, options, true);
  return store;
}

/**
 * List the remote; an empty one (no refs at all, whatever its HEAD says) is given this instance's
 * refs, each pushed as a compare-and-swap from nothing, so of two instances starting together one
 * seeds it and the other's push is refused; then sync, which takes the remote's refs either way.
 */
async function catchUp<N>(store: ContentStore<N>, link: RemoteLink, options: MirrorOptions<N>): Promise<void> {
  const listed = await link.list();
  if (listed.size === 0) await giveContent(store, link, options);
  await link.sync();
}

async function giveContent<N>(store: ContentStore<N>, link: RemoteLink, options: MirrorOptions<N>): Promise<void> {
  const mirrored = async () => (await Promise.all(options.remote.namespaces.map((p) => listRefNames(store.gitdir, p)))).flat();
  const seeded = (await mirrored()).length === 0 && options.seedDir !== null;
  if (seeded) await ensureContentRepo(store.gitdir, options.seedDir!);
  for (const ref of await mirrored()) {
    const oid = await readRef(store.gitdir, ref);
    if (!oid) continue;
    const pushed = await link.push(ref, null, oid, async () => undefined);
    // A refused push (another instance seeded it first) is no error: the sync that follows takes
    // theirs. A ref this call seeded was never on the remote, so it goes: otherwise the sync would
    // see the remote's main as a rewind of our seed and, refusing rewinds, keep serving our own.
    if (!pushed.ok && seeded) await setLocal(store.gitdir, ref, null);
  }
}

const STATES = Symbol.for("field-notes.remote-reachability");
const states = ((globalThis as Record<symbol, unknown>)[STATES] ??= new Map<string, { down: boolean }>()) as Map<string, { down: boolean }>;

/**
 * Whether a remote was last found reachable, per label and remote for the whole process (a failed
 * open, the open that retries it and the poller share it): each change is logged once, never each try.
 */
function reachability(label: string, link: RemoteLink) {
  const key = `${label}\0${link.displayUrl}`;
  let state = states.get(key);
  if (!state) states.set(key, (state = { down: false }));
  const s = state;
  return {
    key,
    down(e: Error, meanwhile: string) {
      if (!s.down) console.warn(`${label}: ${e.message.replace("nothing was saved: try again when it is back", meanwhile)}`);
      s.down = true;
    },
    up() {
      if (s.down) console.warn(`${label}: ${link.displayUrl} is reachable again; caught up`);
      s.down = false;
    },
  };
}

const POLLERS = Symbol.for("field-notes.remote-pollers");
const pollers = ((globalThis as Record<symbol, unknown>)[POLLERS] ??= new Map<string, NodeJS.Timeout>()) as Map<string, NodeJS.Timeout>;

/**
 * Fetch every `pollSeconds`. Until a first catch-up succeeded (`opened` false: the remote was down
 * at the open), a poll does what the open does, so an empty remote it finds is given this instance's content.
 */
function startPolling<N>(store: ContentStore<N>, link: RemoteLink, options: MirrorOptions<N>, opened: boolean): void {
  const reach = reachability(options.label, link);
  const old = pollers.get(reach.key);
  if (old) clearInterval(old);
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      if (opened) await link.sync();
      else await catchUp(store, link, options);
      opened = true;
      reach.up();
    } catch (e) {
      reach.down(e as Error, "reads serve the last fetched commit; writes answer 503 until it is back");
    } finally {
      busy = false;
    }
  }, options.pollSeconds * 1000);
  timer.unref();
  pollers.set(reach.key, timer);
}
