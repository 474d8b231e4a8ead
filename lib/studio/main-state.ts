import "server-only";
import { acceptedMain, mainRewind, type MainRefusal } from "@/lib/content/accepted-main";
import type { ContentStore } from "@/lib/working-copy/content-store";
import type { Oid } from "@/lib/store/types";
import { ApiError } from "@/lib/rules/api-errors";
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

/**
 * A write on main (a publish, a phase's create, rename, close or reopen) builds on main's tip. When
 * that tip holds a commit the rules refuse, the write would land on top of the refused change and
 * be refused with it: answered 200, never served. So it is refused first (409), saying which commit
 * blocks it and what readers are served meanwhile; nothing is written. `what` names the write,
 * `file` the file it writes.
 */
export async function refuseWhileMainRefused(store: ContentStore, tip: Oid, what: string, file: string): Promise<void> {
  const { refusal } = await acceptedMain(store, tip);
  // A write of the refused file itself may be what undoes it (the author merging main's change into
  // an approved revision): it goes on and is judged like any landing.
  if (!refusal || refusal.file === file) return;
  const short = (oid: string) => oid.slice(0, 12);
  throw new ApiError(
    409,
    "main-refused",
    `${what} would not be served: main's commit ${short(refusal.commit)} is refused by the rules (${refusal.file}:${refusal.line}: ${refusal.rule}: ${refusal.message}), so readers are served ${short(refusal.served)} until that change is undone with git; \`npm run content:check\` names it. Nothing was written.`,
    {},
    { refused: refusal },
  );
}
