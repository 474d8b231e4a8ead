import type { Note } from "@/lib/notes/schema";
import type { NoteError } from "@/lib/notes/markdown";

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
  message: string;
};

/** One note file read from a tree: either a valid note or the errors that make it invalid. */
export type StoredNote =
  | { path: string; id: string; blob: Oid; ok: true; note: Note }
  | { path: string; id: string; blob: Oid; ok: false; errors: NoteError[] };

export type Snapshot = {
  commit: Oid;
  /** Every `notes/*.md` file at that commit, sorted by path. */
  notes: StoredNote[];
};

/** A file change in one commit: new content, or null to delete the path. */
export type FileChanges = Record<string, string | null>;

export type CommitRequest = {
  ref: string; // e.g. "refs/heads/main", "refs/heads/drafts/AFN-022", "refs/reviews/AFN-022"
  /** The commit the caller based its change on; null when the ref must not exist yet. */
  expected: Oid | null;
  author: Person;
  message: string;
  changes: FileChanges;
};

/** The ref moved since the caller read it: nothing was written to the ref. */
export class RefConflictError extends Error {
  constructor(
    readonly ref: string,
    readonly expected: Oid | null,
    readonly actual: Oid | null,
  ) {
    super(`${ref} is at ${actual ?? "nothing"}, not at ${expected ?? "nothing"} as expected`);
    this.name = "RefConflictError";
  }
}
