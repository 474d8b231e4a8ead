import type { PublishedView } from "@/lib/content/published";
import { mainCommitOf } from "@/lib/content/pinned-note";
import { publishedNotes } from "@/lib/content/published-notes";
import type { Note } from "@/lib/notes/schema";
import { changedFields } from "@/lib/public/revision-words";
import { getContentStore } from "@/lib/working-copy/content-store";
import { perView } from "./per-view";
import type { ChangesDocument, NoteChange } from "./schemas";
import type { AgentUrls } from "./urls";

/**
 * What changed in the published notes between a commit an agent last read and main
 * (`/agents/changes.json?since=<commit>`, MCP `changes_since`): each note added, changed (which
 * fields), re-statused, superseded, retracted or removed, compared as the published view of each
 * commit shows it, so a draft never appears. `since` must be a commit main has been at (on main's
 * first-parent history): any other commit, a draft revision among them, is answered as unknown,
 * so the answer never tells whether a draft commit exists.
 */

/** Entries a page: a change is about 500 characters of JSON, so a page stays well under 50 KB. */
export const CHANGES_PAGE_SIZE = 50;

export type ChangesAnswer = { ok: true; doc: ChangesDocument } | { ok: false; status: 400 | 410; error: string };

const COMMIT = /^[0-9a-f]{40}$/;

/** The changes since `since` to the view's commit, one page after `cursor` (the last id of the previous page). */
export async function changesSince(
  view: PublishedView,
  urls: AgentUrls,
  since: string,
  cursor: string | null,
  size = CHANGES_PAGE_SIZE,
): Promise<ChangesAnswer> {
  const asked = since.trim().toLowerCase();
  if (!COMMIT.test(asked))
    return {
      ok: false,
      status: 400,
      error: `since must be a 40-character commit id (the X-Content-Commit of an answer you read); got "${since.slice(0, 60)}"`,
    };
  if (!(await mainHasBeenAt(view, asked))) {
    return {
      ok: false,
      status: 410,
      error: `commit ${asked} is not one main has been at here (unknown to this archive, or not on main's history); read /agents/index.json again and keep its commit`,
    };
  }
  const all = await perView(view, `changes ${asked} ${urls.base}`, async () => {
    const before = asked === view.commit ? view.byId : publishedNotes(await (await getContentStore()).snapshot(asked));
    return noteChanges(before, view.byId, urls);
  });
  let start = 0;
  if (cursor !== null) {
    const at = all.findIndex((c) => c.id === cursor);
    if (at < 0) return { ok: false, status: 400, error: `cursor "${cursor}" names no change in this answer; start again without a cursor` };
    start = at + 1;
  }
  const page = all.slice(start, start + size);
  const next = start + size < all.length ? (page.at(-1)?.id ?? null) : null;
  return {
    ok: true,
    doc: { since: asked, commit: view.commit, count: all.length, changes: page, next, next_url: next ? urls.changes(asked, next) : null },
  };
}

/**
 * The published notes that differ between two views, by id. A note in both with other fields is
 * `changed`; with another status `re-statused`, or `superseded` / `retracted` when it became one.
 */
export function noteChanges(before: ReadonlyMap<string, Note>, after: ReadonlyMap<string, Note>, urls: AgentUrls): NoteChange[] {
  const ids = [...new Set([...before.keys(), ...after.keys()])].sort();
  const out: NoteChange[] = [];
  for (const id of ids) {
    const was = before.get(id) ?? null;
    const now = after.get(id) ?? null;
    // Unchanged blobs are the same parsed object in both snapshots (lib/store/snapshot.ts).
    if (was === now) continue;
    if (!now) {
      out.push({
        id,
        title: was!.title,
        kind: "removed",
        status: null,
        previous_status: was!.status as NoteChange["previous_status"],
        fields: [],
        superseded_by: null,
        retraction_reason: null,
        url: null,
      });
      continue;
    }
    const fields = was ? changedFields(was, now).map((f) => f.field) : [];
    if (was && fields.length === 0) continue; // reformatted: no field a reader sees changed
    const kind: NoteChange["kind"] = !was
      ? "added"
      : was.status === now.status
        ? "changed"
        : now.status === "superseded"
          ? "superseded"
          : now.status === "retracted"
            ? "retracted"
            : "re-statused";
    out.push({
      id,
      title: now.title,
      kind,
      status: now.status as NonNullable<NoteChange["status"]>,
      previous_status: (was?.status ?? null) as NoteChange["previous_status"],
      fields,
      superseded_by: now.superseded_by ?? null,
      retraction_reason: now.retraction_reason ?? null,
      url: urls.noteAs(id, "json"),
    });
  }
  return out;
}

/** Whether main was served at `commit` here: on its first-parent line and not refused by the rules (lib/content/pinned-note.ts). */
async function mainHasBeenAt(view: PublishedView, commit: string): Promise<boolean> {
  return commit === view.commit || (await mainCommitOf(commit)).ok;
}
