/**
 * The content store: the only module that reads or writes a git repository (see ./types for the
 * contract). It knows git, not notes: the app opens it with the repository's layout and the note
 * parser in lib/working-copy/content-store.ts (`getContentStore()`); tests, scripts and tools use
 * ./api directly.
 */

export * from "./api";
export { openMirror, type MirrorOptions } from "./mirror";
export { remoteConfig, parseRemoteConfig, resetRemoteConfig, type RemoteConfig } from "./remote-config";
