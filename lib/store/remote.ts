import * as git from "isomorphic-git";
import httpNode from "isomorphic-git/http/node";
import type { GitHttpResponse, HttpClient } from "isomorphic-git";
import { randomBytes } from "node:crypto";
import { isUploadPackAdvertisement, nameHeadIfMissing } from "./advertisement";
import { StoreError } from "./errors";
import { gitFs } from "./git-fs";
import { setLocal, swapRef } from "./ref-update";
import { listRefNames, readRef } from "./refs";
import type { Repo } from "./repo";
import { DEFAULT_BRANCH } from "./default-branch";
import { RefConflictError, type Oid, type PushOutcome, type RemoteLink, type RewindSeen, type SyncResult } from "./types";

/**
 * A remote as the shared truth. The local bare repository is a mirror of the remote's refs in the
 * mirrored namespaces (refs/heads/, refs/reviews/, refs/approved/ for content; refs/heads/ for
 * accounts): a local ref is only ever moved to a value the remote holds. So a write is
 *
 *   1. the commit object written locally (nothing points at it yet),
 *   2. pushed with the ref's expected old value (the remote refuses if it moved),
 *   3. only then the local ref moved to it;
 *
 * and a remote that cannot be reached leaves the local refs exactly where they were (503).
 * A sync (start, poll, webhook, a rejected push) fetches what is new and sets every mirrored local
 * ref to the remote's value, deleting the ones the remote no longer has.
 *
 * Within one process, pushes run concurrently (each one a compare-and-swap on its own ref) but never
 * while a sync applies what it listed: a sync lists the remote's refs and then sets the local ones,
 * and a push finishing in between would be undone by the older listing.
 */

/** The remote could not be reached or refused us: nothing was written; try again when it is back. */
export class RemoteUnavailableError extends StoreError {
  static override readonly brand: string = "RemoteUnavailableError";
  constructor(
    readonly remote: string,
    reason: string,
  ) {
    super(`the git remote ${remote} cannot be reached (${reason}); nothing was saved: try again when it is back`);
    this.name = "RemoteUnavailableError";
  }
}

/**
 * The remote's default branch moved to a commit that does not descend from ours (a force-push, a
 * rewind) and this instance refuses to follow it: nothing can be written to that branch until the
 * remote's branch descends from ours again, or the move is allowed (ALLOW_MAIN_REWIND).
 */
export class RemoteRewoundError extends StoreError {
  static override readonly brand: string = "RemoteRewoundError";
  constructor(
    readonly ref: string,
    readonly rewind: RewindSeen,
  ) {
    super(
      `${ref} on the git remote was moved to ${rewind.remote}, which does not descend from ${rewind.local} (a force-push or rewind); this instance refuses to follow it, so nothing is written to ${ref} until the remote's branch is restored or ALLOW_MAIN_REWIND=1 lets it follow`,
    );
    this.name = "RemoteRewoundError";
  }
}

export type RemoteOptions = {
  url: string;
  user?: string;
  token?: string;
  /** Ref prefixes the local repository mirrors ("refs/heads/", "refs/reviews/"). */
  namespaces: string[];
  /** Give up on one request to the remote after this long (default 20 s). */
  timeoutMs?: number;
  /**
   * What a sync does when the remote's default branch moved to a commit that does not descend from
   * the local one: "refuse" keeps the local branch where it is (logged, `rewind` says so), "follow"
   * moves it back (logged loudly, `rewind` says so too). Unset: followed silently (the accounts repository).
   */
  mainRewind?: "refuse" | "follow";
};

const TRACKING = "field-notes";
const PUSH_PREFIX = "refs/field-notes/push/";
const ZERO = "0000000000000000000000000000000000000000";

/** `https://user:secret@host/x.git` → `https://host/x.git`: what errors and logs may name. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    return u.toString();
  } catch {
    return "(the configured remote)";
  }
}

/**
 * Pushes share the gate; a sync's apply step holds it alone. A sync waiting for the gate keeps new
 * pushes out, so a busy writer cannot starve the poll.
 */
class Gate {
  private shared = 0;
  private exclusive = false;
  private exclusiveWaiting = 0;
  private waiters: Array<() => void> = [];

  private wake() {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
  private wait() {
    return new Promise<void>((r) => this.waiters.push(r));
  }
  async share<T>(work: () => Promise<T>): Promise<T> {
    while (this.exclusive || this.exclusiveWaiting > 0) await this.wait();
    this.shared++;
    try {
      return await work();
    } finally {
      this.shared--;
      this.wake();
    }
  }
  async alone<T>(work: () => Promise<T>): Promise<T> {
    this.exclusiveWaiting++;
    try {
      while (this.exclusive || this.shared > 0) await this.wait();
    } finally {
      this.exclusiveWaiting--;
    }
    this.exclusive = true;
    try {
      return await work();
    } finally {
      this.exclusive = false;
      this.wake();
    }
  }
}

/**
 * The remote's ref advertisement, read whole (a few hundred bytes per ref) and given a HEAD when it
 * lists none, so isomorphic-git's fetch does not fail on a remote whose HEAD names no branch (./advertisement).
 */
async function readHeadless(response: GitHttpResponse): Promise<GitHttpResponse> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body!) chunks.push(chunk);
  const body = nameHeadIfMissing(Buffer.concat(chunks));
  return {
    ...response,
    body: (async function* () {
      yield body;
    })(),
  };
}

function describe(e: unknown): string {
  const err = e as { code?: string; message?: string; data?: { statusCode?: number; statusMessage?: string }; cause?: { code?: string } };
  if (err?.code === "HttpError" && err.data?.statusCode) {
    const s = err.data.statusCode;
    if (s === 401 || s === 403) return `it refused our credentials (HTTP ${s}); check CONTENT_REMOTE_USER / CONTENT_REMOTE_TOKEN`;
    return `HTTP ${s} ${err.data.statusMessage ?? ""}`.trim();
  }
  const code = err?.code ?? err?.cause?.code;
  if (code && /^E[A-Z]+$/.test(code)) return code === "ECONNREFUSED" ? "connection refused" : code;
  return (err?.message ?? String(e)).replace(/https?:\/\/[^\s]*@/g, "https://");
}

export function createRemoteLink(repo: Repo, options: RemoteOptions): RemoteLink {
  const { gitdir } = repo;
  const url = options.url;
  const displayUrl = redactUrl(url);
  const timeoutMs = options.timeoutMs ?? 20_000;
  const onAuth = () => (options.user || options.token ? { username: options.user ?? "git", password: options.token ?? "" } : undefined);
  // A remote that accepts the connection and never answers must not hold a write forever.
  const http: HttpClient = {
    request: (req) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${timeoutMs / 1000} s`), { code: "ETIMEDOUT" })), timeoutMs);
        httpNode
          .request(req)
          .then((r) => (r.statusCode === 200 && r.body && isUploadPackAdvertisement(req.method, req.url) ? readHeadless(r) : r))
          .then(
            (r) => (clearTimeout(timer), resolve(r)),
            (e) => (clearTimeout(timer), reject(e)),
          );
      }),
  };
  const cache = {};
  const gate = new Gate();
  let lastSync: SyncResult | null = null;
  let rewind: RewindSeen | null = null;
  let lastError: string | null = null;
  let configured: Promise<void> | null = null;

  const inNamespaces = (ref: string) => options.namespaces.some((p) => ref.startsWith(p));
  const unavailable = (e: unknown) => {
    if (e instanceof RemoteUnavailableError) return e;
    const reason = describe(e);
    lastError = reason;
    return new RemoteUnavailableError(displayUrl, reason);
  };

  function configure(): Promise<void> {
    // isomorphic-git's fetch records what it fetched through the remote's refspec; ours names a
    // tracking namespace nothing else reads, so it never touches the mirrored refs itself.
    configured ??= git.setConfig({ fs: gitFs, gitdir, path: `remote.${TRACKING}.fetch`, value: `+refs/heads/*:refs/remotes/${TRACKING}/*` }).catch((e) => {
      configured = null;
      throw e;
    });
    return configured;
  }

  async function listRemote(): Promise<Map<string, Oid>> {
    const listed = await git.listServerRefs({ http, url, onAuth, protocolVersion: 1 });
    const refs = new Map<string, Oid>();
    for (const r of listed) if (inNamespaces(r.ref) && !r.ref.endsWith("^{}")) refs.set(r.ref, r.oid);
    return refs;
  }

  const have = async (oid: Oid) => (await repo.db.read(oid)) !== null;

  /** Fetch until every listed ref's commit is here (a ref that moves meanwhile is listed again). */
  async function fetchMissing(): Promise<Map<string, Oid>> {
    await configure();
    for (let round = 0; ; round++) {
      const refs = await listRemote();
      const missing: string[] = [];
      for (const [ref, oid] of refs) if (!(await have(oid))) missing.push(ref);
      if (missing.length === 0 || round >= 4) return refs;
      // One fetch brings every branch; a ref outside refs/heads/ (reviews, approvals) is named alone,
      // since isomorphic-git's fetch only wants branches and the one ref asked for.
      const others = missing.filter((r) => !r.startsWith("refs/heads/"));
      const asks = others.length ? others : [missing[0]!];
      for (const ref of asks) {
        await git.fetch({ fs: gitFs, http, cache, gitdir, url, remote: TRACKING, onAuth, remoteRef: ref, singleBranch: false, tags: false });
      }
    }
  }

  async function syncOnce(): Promise<SyncResult> {
    let refs: Map<string, Oid>;
    try {
      refs = await fetchMissing();
    } catch (e) {
      throw unavailable(e);
    }
    return gate.alone(async () => {
      // Listed again under the gate: our own pushes since the fetch are in this listing.
      let now: Map<string, Oid>;
      try {
        now = await listRemote();
      } catch (e) {
        throw unavailable(e);
      }
      const local = new Set<string>();
      for (const prefix of options.namespaces) for (const ref of await listRefNames(gitdir, prefix)) local.add(ref);
      for (const [ref, oid] of now) {
        // A ref that moved to a commit we have not fetched yet keeps the fetched value; the next sync takes it.
        const value = (await have(oid)) ? oid : refs.get(ref);
        if (!value || !(await have(value))) continue;
        if (ref === DEFAULT_BRANCH && options.mainRewind && !(await forward(ref, value))) continue;
        await setLocal(gitdir, ref, value);
      }
      for (const ref of local) if (!now.has(ref)) await setLocal(gitdir, ref, null);
      lastError = null;
      lastSync = { at: Date.now(), refs: now };
      return lastSync;
    });
  }

  /**
   * Whether the default branch may move to `value`: yes when it descends from the local value (or
   * there is none); otherwise it is a rewind, refused or followed as `mainRewind` says, and logged
   * once per remote value either way. A later sync that finds the branch moving forward again clears a refusal.
   */
  async function forward(ref: string, value: Oid): Promise<boolean> {
    const local = await readRef(gitdir, ref);
    if (!local || local === value || (await descendsFrom(repo, value, local))) {
      if (rewind && !rewind.followed) rewind = null;
      return true;
    }
    const follow = options.mainRewind === "follow";
    if (rewind?.remote !== value) {
      console.error(
        follow
          ? `${displayUrl}: ${ref} was moved from ${local} to ${value}, which does not descend from it (a force-push or rewind); following it because ALLOW_MAIN_REWIND=1: notes published after ${value.slice(0, 12)} are no longer on main`
          : `${displayUrl}: ${ref} was moved from ${local} to ${value}, which does not descend from it (a force-push or rewind); refused: this instance keeps ${ref} at ${local.slice(0, 12)} and serves it, and writes to ${ref} answer 409 until the remote's branch is restored (or ALLOW_MAIN_REWIND=1 lets it follow)`,
      );
    }
    rewind = { ref, local, remote: value, followed: follow, at: new Date().toISOString() };
    return follow;
  }

  let running: Promise<SyncResult> | null = null;
  let queuedRun: Promise<SyncResult> | null = null;
  function sync(): Promise<SyncResult> {
    if (!running) {
      running = syncOnce().finally(() => (running = null));
      return running;
    }
    // A sync is under way but may have listed the remote before the caller's reason to ask: run one more after it.
    queuedRun ??= running
      .catch(() => undefined)
      .then(() => {
        queuedRun = null;
        return sync();
      });
    return queuedRun;
  }

  async function push(ref: string, expected: Oid | null, next: Oid | null, moveLocal: () => Promise<void>): Promise<PushOutcome> {
    return gate.share(async () => {
      await configure();
      let seen: Oid | null = null;
      // isomorphic-git pushes a ref, not a commit: the new commit gets a private name until the remote has it.
      const source = next === null ? ref : `${PUSH_PREFIX}${randomBytes(8).toString("hex")}`;
      if (next !== null) await swapRef(gitdir, source, null, next);
      try {
        await git.push({
          fs: gitFs,
          http,
          cache,
          gitdir,
          url,
          remote: TRACKING,
          onAuth,
          ref: source,
          remoteRef: ref,
          delete: next === null,
          // The remote's own check is ours: the old value sent is the one we expect, and git's
          // receive-pack refuses the update if the ref is not at that value when it takes its lock.
          force: true,
          onPrePush: ({ remoteRef }) => {
            seen = remoteRef.oid === ZERO ? null : remoteRef.oid;
            return seen === expected;
          },
        });
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code === "UserCanceledError") return { ok: false, remoteValue: seen, why: "the remote's ref moved" };
        if (code === "GitPushError") return { ok: false, remoteValue: seen, why: describe(e) };
        throw unavailable(e);
      } finally {
        if (next !== null) await swapRef(gitdir, source, next, null).catch(() => undefined);
      }
      await moveLocal();
      return { ok: true };
    });
  }

  return {
    displayUrl,
    list: () => listRemote().catch((e) => Promise.reject(unavailable(e))),
    sync,
    push,
    get lastSync() {
      return lastSync;
    },
    get lastError() {
      return lastError;
    },
    get rewind() {
      return rewind;
    },
  };
}

/** Whether `ancestor` is reachable from `commit` through its parents (every parent, not only the first). */
async function descendsFrom(repo: Repo, commit: Oid, ancestor: Oid): Promise<boolean> {
  const seen = new Set<Oid>();
  const queue: Oid[] = [commit];
  while (queue.length) {
    const at = queue.pop()!;
    if (at === ancestor) return true;
    if (seen.has(at)) continue;
    seen.add(at);
    const c = await repo.commit(at);
    for (const p of c?.parents ?? []) if (!seen.has(p)) queue.push(p);
  }
  return false;
}

/**
 * What to do after the remote refused a push because its ref is not where we expected (the rule
 * for "handled like a local stale write"), once a sync has brought its new value `tip`:
 *
 * - the ref is where we expected after all (the remote was busy with another push to it, or our
 *   listing was older): push the same commit again;
 * - the remote changed none of the files this commit changes, and the commit was a plain step on
 *   the branch (its parent is the expected value): rebuild the same change on the new tip;
 * - otherwise the author must see both versions: a conflict (409), as a local stale write.
 *
 * Retries are bounded; running out is a conflict too.
 */
export type AfterRejection = { kind: "retry" } | { kind: "rebase"; onto: Oid } | { kind: "conflict" };

export function afterRejection(input: {
  expected: Oid | null;
  parent: Oid | null;
  tip: Oid | null;
  /** Files this commit changes that also differ between `expected` and `tip`. */
  touchedByRemote: string[];
  attempt: number;
  limit: number;
}): AfterRejection {
  const { expected, parent, tip, touchedByRemote, attempt, limit } = input;
  if (attempt >= limit) return { kind: "conflict" };
  if (tip === expected) return { kind: "retry" };
  if (tip === null || expected === null || parent !== expected) return { kind: "conflict" };
  return touchedByRemote.length === 0 ? { kind: "rebase", onto: tip } : { kind: "conflict" };
}
