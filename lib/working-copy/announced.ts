import { RefConflictError } from "@/lib/store";
import type { Oid } from "@/lib/store/types";
import type { ContentStore } from "./content-store";
import { ANNOUNCED_MAIN_REF } from "./layout";

/**
 * The announced marker (`ANNOUNCED_MAIN_REF`): the last commit of main whose events went out. A
 * range of main is announced by whoever moves the marker over it by compare-and-swap, so of two
 * instances on one remote (the push is the compare-and-swap there), or of the studio and the
 * catch-up of lib/events/announce-main.ts in one process, exactly one announces it.
 */

export const announcedMain = (store: ContentStore): Promise<Oid | null> => store.resolve(ANNOUNCED_MAIN_REF);

/** Moves the marker from `from` to `to`; false when it was not at `from` (someone else announced, or is behind). */
export async function moveMarker(store: ContentStore, from: Oid | null, to: Oid): Promise<boolean> {
  try {
    await store.updateRef(ANNOUNCED_MAIN_REF, from, to);
    return true;
  } catch (e) {
    if (e instanceof RefConflictError) return false;
    throw e;
  }
}

/**
 * The studio's own commit `commit` on main, about to be announced by the studio itself: claimed
 * when the marker is at its parent (every commit before it announced), or not set yet (a first
 * write on an archive never announced). Otherwise (the marker is behind: a plain-git commit below
 * it is not announced yet; or the catch-up took it first) the studio announces nothing and the
 * catch-up announces the range, this commit included, from its diff. Never throws: the commit has
 * landed, and a remote that went away only leaves the range to the catch-up.
 */
export async function claimOwnWrite(store: ContentStore, commit: Oid): Promise<boolean> {
  try {
    const [revision] = await store.log(commit, { limit: 1 });
    const parent = revision?.parents[0] ?? null;
    const marker = await announcedMain(store);
    if (marker !== null && marker !== parent) return false;
    return await moveMarker(store, marker, commit);
  } catch (e) {
    console.error(`events: could not claim main's commit ${commit.slice(0, 12)} for announcing: ${(e as Error).message}; the catch-up will announce it`);
    return false;
  }
}
