import "server-only";
import { acceptedMain, mainRewind, type MainRefusal } from "@/lib/content/accepted-main";
import type { ContentStore } from "@/lib/working-copy/content-store";
import { MAIN_REF, noMain } from "./refs";

/**
 * What the studio must tell its authors about main itself, beside the list of notes: a commit on
 * main the rules refuse (pushed from outside the app), which the public is not served, and a move
 * of main to a commit that does not descend from the one before (a force-push), refused by this
 * instance or followed because the site allows it (ALLOW_MAIN_REWIND=1).
 */

export type MainState = {
  /** main's tip holds a change the rules refuse: the public is served `refused.served` instead. */
  refused: MainRefusal | null;
  /** main was moved back: `followed` false when this instance refused to follow the git remote. */
  rewind: { from: string; to: string; at: string; followed: boolean } | null;
};

export async function mainState(store: ContentStore): Promise<MainState> {
  const tip = await store.resolve(MAIN_REF);
  if (!tip) throw noMain();
  const { refusal } = await acceptedMain(store, tip);
  const remote = store.remote?.rewind ?? null;
  const local = mainRewind(store);
  const rewind = remote ? { from: remote.local, to: remote.remote, at: remote.at, followed: remote.followed } : local ? { ...local, followed: true } : null;
  return { refused: refusal, rewind };
}
