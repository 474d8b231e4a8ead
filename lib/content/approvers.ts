import { approvalTrailersOf, type Approver } from "@/lib/rules/approval-trailers";
import { readReviewLog } from "@/lib/review/review-log";
import { getContentStore, type ContentStore } from "@/lib/working-copy/content-store";
import { readSide } from "@/lib/read-model/read-side";

/**
 * Who approved a published revision, by name, for the public pages: each `Approved-by: <account>
 * <record>` trailer of its commit (docs/decisions/approval-trailers.md) names a verdict record on
 * refs/reviews/<note id>, and that record's `by.name` is the reviewer's display name. Reviews are
 * editorial data: nothing else of the record leaves this module. A record that cannot be read, is
 * not an approval, or is by another account than the trailer says leaves the trailer's account id.
 *
 * Records are immutable, so a name once found is kept (per repository, note, account and record, in
 * the read side's state, lib/read-model/read-side.ts); a miss reads the review again, which the
 * review log caches by its head.
 */

const names = () => (readSide().approvers ??= new Map());
const MAX_NAMES = 50_000;

/** The approvers a commit message names, each as its reviewer's display name (or account id); none without trailers. */
export async function approversOf(noteId: string, message: string, given?: ContentStore): Promise<string[]> {
  const { approvers } = approvalTrailersOf(message);
  if (approvers.length === 0) return [];
  const store = given ?? (await getContentStore());
  const key = (a: Approver) => `${store.gitdir}\0${noteId}\0${a.reviewer}\0${a.record}`;
  const known = names();
  if (approvers.some((a) => !known.has(key(a)))) {
    // An unreadable review is only a fallback to account ids, never a failed page.
    const log = await readReviewLog(store, noteId).catch(() => null);
    for (const record of log?.records ?? []) {
      if (record.kind !== "verdict" || record.verdict !== "approve") continue;
      const named = approvers.find((a) => a.record === record.id && a.reviewer === record.by.id);
      if (!named) continue;
      if (known.size >= MAX_NAMES) known.delete(known.keys().next().value as string);
      known.set(key(named), record.by.name);
    }
  }
  return approvers.map((a) => known.get(key(a)) ?? a.reviewer);
}
