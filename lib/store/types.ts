import { StoreError } from "./errors";

/**
 * The contract of the content store: the only module that touches the git repository.
 * Implemented in lib/store/index.ts on isomorphic-git; everything else imports these types.
 */

export type Oid = string; // a 40-hex commit, tree or blob id

export type Person = { name: string; email: string };

export type Revision = {
  commit: Oid;
  parents: Oid[];
  author: Person;
  /** ISO 8601, from the commit's author timestamp and timezone. */
  date: string;
  /**
   * ISO 8601, from the committer timestamp: when the commit was made (an amend or a rebase keeps
   * the author's date, not this). Absent from revisions a run before it persisted (lib/read-model).
   */
  committed?: string;
  message: string;
};

/** Where a note file is wrong, as the parser says it: the line (1-based), the field, what is wrong. */
export type FileProblem = { line: number; field: string; message: string };

/** What the note parser makes of one file's text: the note, or every problem that stops it. */
export type Parsed<N> = { ok: true; note: N } | { ok: false; errors: FileProblem[] };

/**
 * Reads a note file's text. The store does not know what a note is: the layer above hands it the
 * parser when it opens the store (lib/working-copy/content-store.ts), and the store calls it once
 * per blob id, so the same blob always answers the same parsed object.
 */
export type NoteParser<N> = (text: string) => Parsed<N>;

/** One note file read from a tree: either a valid note or the errors that make it invalid. */
export type StoredNote<N = unknown> =
  | { path: string; id: string; blob: Oid; ok: true; note: N }
  | { path: string; id: string; blob: Oid; ok: false; errors: FileProblem[] };

export type Snapshot<N = unknown> = {
  commit: Oid;
  /** Every `notes/*.md` file at that commit, sorted by path. */
  notes: StoredNote<N>[];
  /**
   * How it differs from the snapshot it was built from (its parent's, usually): the files that are
   * new or hold another blob, and the files gone. A reader that derived something from `from` can
   * patch it with these instead of reading every note again. Absent when built from nothing.
   */
  delta?: { from: Oid; changed: StoredNote<N>[]; removed: StoredNote<N>[] };
};

/**
 * A file change in one commit: new content (text, or bytes for binary files such as a note's
 * images), or null to delete the path.
 */
export type FileChanges = Record<string, string | Uint8Array | null>;

export type CommitRequest = {
  ref: string; // e.g. "refs/heads/main", "refs/heads/drafts/AFN-022", "refs/reviews/AFN-022"
  /** The commit the caller based its change on; null when the ref must not exist yet. */
  expected: Oid | null;
  author: Person;
  message: string;
  changes: FileChanges;
  /**
   * The commit to build on, when it is not `expected`: e.g. a new draft branch (expected null) that
   * starts from main's head. Defaults to `expected`.
   */
  parent?: Oid | null;
  /**
   * When the change was authored, when it is not now: an import keeps the source commit's date
   * (seconds since the epoch, timezone as git writes it, "+0200"). The committer is always now.
   */
  authorDate?: { seconds: number; tz: string };
  /**
   * With a remote whose branch moved without touching this commit's files, the store rebuilds the
   * same change on the new tip (default). False: it throws RefConflictError instead, so a caller
   * whose change depends on the rest of the tree (a publish's editorial order) builds it again itself.
   */
  rebase?: boolean;
};

/** The ref moved since the caller read it: nothing was written to the ref. */
export class RefConflictError extends StoreError {
  static override readonly brand: string = "RefConflictError";
  constructor(
    readonly ref: string,
    readonly expected: Oid | null,
    readonly actual: Oid | null,
  ) {
    super(`${ref} is at ${actual ?? "nothing"}, not at ${expected ?? "nothing"} as expected`);
    this.name = "RefConflictError";
  }
}

/** A revision of one file: a commit in which it was added, changed or deleted. */
export type FileRevision = Revision & {
  path: string;
  /** The file's blob at that commit; null when the commit deleted it. */
  blob: Oid | null;
};

export type HistoryOptions = {
  /** Stop after this many revisions (newest first). Default: all. */
  limit?: number;
};

export type RefEntry = { ref: string; oid: Oid };

/** What the store has done since it was created: lets tests and benchmarks see work avoided. */
export type StoreStats = {
  /** Note files parsed with the store's parser (each blob once; a cached blob is never parsed again). */
  notesParsed: number;
  /** Snapshots built (a cache hit builds none). */
  snapshotsBuilt: number;
  treesParsed: number;
  objectsRead: number;
  objectsWritten: number;
};

/** What the last sync found: the remote's refs in the mirrored namespaces. */
export type SyncResult = { at: number; refs: Map<string, Oid> };

/** The remote's default branch seen moved to a commit that does not descend from the local one. */
export type RewindSeen = { ref: string; local: Oid; remote: Oid; followed: boolean; at: string };

export type PushOutcome = { ok: true } | { ok: false; remoteValue: Oid | null; why: string };

export type RemoteLink = {
  /** The remote's address with any credentials removed: the only form that is logged or shown. */
  readonly displayUrl: string;
  /** The remote's refs in the mirrored namespaces, as it lists them now (nothing is fetched). */
  list(): Promise<Map<string, Oid>>;
  /** Fetch and mirror. Concurrent calls share one run that starts after the call. */
  sync(): Promise<SyncResult>;
  /**
   * Push `next` (null: delete) to `ref` on the remote if it still holds `expected` there, and then
   * run `moveLocal` before any sync can apply an older listing. A remote holding something else
   * answers { ok: false }; a remote out of reach throws RemoteUnavailableError.
   */
  push(ref: string, expected: Oid | null, next: Oid | null, moveLocal: () => Promise<void>): Promise<PushOutcome>;
  /** The last sync that succeeded, or null. */
  readonly lastSync: SyncResult | null;
  /** The last failure to reach the remote (cleared by a successful sync). */
  readonly lastError: string | null;
  /** The last rewind of the default branch a sync met, refused (until the branch moves forward again) or followed; null: none. */
  readonly rewind: RewindSeen | null;
};

/** `N` is what the parser the store was opened with makes of a note file (lib/notes' Note for the app). */
export interface ContentStore<N = unknown> {
  readonly gitdir: string;
  /** The git remote this repository mirrors (CONTENT_REMOTE, ACCOUNTS_REMOTE), or null: the local repository is the truth. */
  readonly remote: RemoteLink | null;
  /** The commit a ref ("refs/heads/main", "main", "drafts/AFN-022", "HEAD") or full commit id names; null if none. Always read fresh. */
  resolve(ref: string): Promise<Oid | null>;
  /** Every notes/*.md at that revision, parsed. Throws UnknownRevisionError for an unknown revision. */
  snapshot(refOrOid: string): Promise<Snapshot<N>>;
  /** A file's text at that revision; null when the revision or the file does not exist. */
  readFile(refOrOid: string, path: string): Promise<string | null>;
  /** A file's bytes at that revision (images and other binary files); null when the revision or the file does not exist. */
  readBytes(refOrOid: string, path: string): Promise<Uint8Array | null>;
  /** The blob id of a file at that revision; null when the revision or the file does not exist. */
  fileId(refOrOid: string, path: string): Promise<Oid | null>;
  /** The tree id of a folder at that revision (equal ids: equal contents, to the last byte); null when there is none. */
  folderId(refOrOid: string, folder: string): Promise<Oid | null>;
  /**
   * Writes bytes as a blob object that no commit references yet (an uploaded image waiting for the
   * save that references it) and answers its id. Git's gc prunes it if no commit ever does.
   */
  writeBlob(bytes: Uint8Array): Promise<Oid>;
  /** A blob's bytes by its id; null when the object database has no blob with that id. */
  readBlob(oid: Oid): Promise<Uint8Array | null>;
  /** notes/<id>.md at that revision, parsed; null when the revision or the note does not exist. */
  readNote(id: string, refOrOid: string): Promise<StoredNote<N> | null>;
  /**
   * Commits (newest first, first parents) that added, changed or deleted `path`; [] for a path no
   * commit can hold ("../x"). Throws UnknownRevisionError for an unknown ref.
   */
  history(path: string, ref: string, opts?: HistoryOptions): Promise<FileRevision[]>;
  /** Commits along first parents from `ref`, newest first, up to (not including) `until`. */
  log(ref: string, opts?: { until?: string; limit?: number }): Promise<Revision[]>;
  /** File names directly inside `folder` ("" for the root) at that revision, sorted; [] when absent. */
  listFiles(refOrOid: string, folder: string): Promise<string[]>;
  /** Folder names directly inside `folder` ("" for the root) at that revision, sorted; [] when absent. */
  listFolders(refOrOid: string, folder: string): Promise<string[]>;
  /** Refs whose names start with `prefix`, e.g. "refs/heads/drafts/", sorted by name. */
  listRefs(prefix: string): Promise<RefEntry[]>;
  /** One commit built from trees, then a compare-and-swap of `req.ref` from `req.expected`. */
  commit(req: CommitRequest): Promise<Revision>;
  /** Compare-and-swap a ref to an existing commit (fast-forward, reset), or delete it (`next` null). */
  updateRef(ref: string, expected: Oid | null, next: Oid | null): Promise<void>;
  stats(): StoreStats;
  /**
   * Parsed notes known from a previous run (the persisted read model, lib/read-model), by blob id:
   * a snapshot then takes these instead of reading and parsing those blobs. A blob id names its
   * text, so the caller vouches only that they came from this parser (the same app build).
   */
  seedParsed(entries: Iterable<readonly [Oid, Parsed<N>]>): void;
}
