/** The store's API without the app's configuration: what tests, scripts and tools import. */
export { createContentStore, APP_IDENTITY, NothingToCommitError, type StoreOptions } from "./store";
export { DEFAULT_BRANCH, DEFAULT_BRANCH_NAME } from "./default-branch";
export { ensureContentRepo, SEED_MESSAGE } from "./seed";
export { StoreError, StoreRequestError, UnknownRevisionError, RefLockedError, CorruptRepositoryError } from "./errors";
export { RefConflictError } from "./types";
export type * from "./types";
export { RemoteRewoundError, RemoteUnavailableError, redactUrl, type RemoteOptions } from "./remote";
