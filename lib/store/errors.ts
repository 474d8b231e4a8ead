/**
 * Errors a caller can act on. Each says what was wrong and where; none of them means the repository
 * is damaged. (RefConflictError, the stale-save case, lives in ./types beside the contract.)
 */

/** The request itself is wrong (bad path, empty change set, bad ref name): a 4xx, not a retry. */
export class StoreRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreRequestError";
  }
}

/** A ref, branch name or commit id that the repository does not have. */
export class UnknownRevisionError extends Error {
  constructor(readonly revision: string) {
    super(`the content repository has no revision "${revision}"`);
    this.name = "UnknownRevisionError";
  }
}

/** Another writer held the ref's lock for longer than we were willing to wait. */
export class RefLockedError extends Error {
  constructor(
    readonly ref: string,
    readonly lockFile: string,
    waitedMs: number,
  ) {
    super(
      `${ref} is locked by another writer (${lockFile} still exists after ${waitedMs} ms); ` +
        `if no git process or app instance is writing, the lock is stale and can be removed`,
    );
    this.name = "RefLockedError";
  }
}

/** An object the repository should have is missing or unreadable: the repository needs a look. */
export class CorruptRepositoryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CorruptRepositoryError";
  }
}
