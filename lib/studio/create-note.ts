import "server-only";
import { getContentStore } from "@/lib/working-copy/content-store";
import { RefConflictError } from "@/lib/store";
import { serializeNote } from "@/lib/notes/markdown";
import { parseSite, SITE_FILE } from "@/lib/content/site";
import { commitPerson, type StudioActor } from "@/lib/rules/identity";
import { ApiError } from "@/lib/rules/api-errors";
import { blankFields, composeNote } from "@/lib/validations/note";
import { acceptWrite } from "@/lib/rules/accept-write";
import { noteAssets } from "@/lib/assets/note-assets";
import type { CreateNoteRequest } from "@/lib/validations/studio";
import { describeSave } from "./describe-change";
import { mainFacts, newNoteContext } from "./note-context";
import { viewOf, type NoteView } from "./note-view";
import { editRefused } from "./refusal";
import { validNote } from "./save-draft";
import { DRAFTS_PREFIX, draftRef, idOfDraftRef, MAIN_REF, noMain, notePath } from "./refs";
import { DISCARDED_PREFIX, idOfDiscardedRef, REVIEWS_PREFIX } from "@/lib/working-copy/layout";
import { NOTE_ID } from "@/lib/notes/schema";

/**
 * "New note": the next free id, counted over main and every draft branch, claimed by creating
 * drafts/<id> with a compare-and-swap from nothing. Two authors asking at once both try the same
 * number; one creates the branch, the other's swap fails and it moves on to the next number.
 */

const ATTEMPTS = 50;

export async function createNote(actor: StudioActor, request: CreateNoteRequest): Promise<{ id: string; revision: string; view: NoteView }> {
  const store = await getContentStore();
  // Branches first, then main: publishing writes main before deleting its branch, so a published
  // draft's id is always seen in one of the two.
  // Discarded drafts and review records keep their ids too: an id names one note, ever.
  const [drafts, discarded, reviews] = await Promise.all([store.listRefs(DRAFTS_PREFIX), store.listRefs(DISCARDED_PREFIX), store.listRefs(REVIEWS_PREFIX)]);
  const mainHead = await store.resolve(MAIN_REF);
  if (!mainHead) throw noMain();
  const [main, siteText] = await Promise.all([mainFacts(store, mainHead), store.readFile(mainHead, SITE_FILE)]);
  const prefix = siteText ? parseSite(siteText).id_prefix : "AFN";

  const taken = new Set([
    ...main.snapshot.notes.map((n) => n.id),
    ...drafts.flatMap((d) => idOfDraftRef(d.ref) ?? []),
    ...discarded.flatMap((d) => idOfDiscardedRef(d.ref) ?? []),
    ...reviews.map((r) => r.ref.slice(REVIEWS_PREFIX.length)).filter((id) => NOTE_ID.test(id)),
  ]);
  const numbers = [...taken].flatMap((id) => (id.startsWith(`${prefix}-`) ? [Number(id.slice(prefix.length + 1))] : []));
  const context = { phases: main.phases, publishedIds: main.publishedIds, onMain: null, review: { revision: mainHead, revisionAuthors: [], verdicts: [] } };

  let n = Math.max(0, ...numbers) + 1;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++, n++) {
    const id = `${prefix}-${String(n).padStart(3, "0")}`;
    if (taken.has(id)) continue;
    try {
      if (!request.note) {
        // Claim the id without writing a note: the first save writes it.
        await store.updateRef(draftRef(id), null, mainHead);
        return { id, revision: mainHead, view: await viewOf(await newNoteContext(store, id, main, null)) };
      }
      const after = composeNote({ id, status: "draft", order: main.nextOrder }, { ...blankFields(), ...request.note });
      const assets = await noteAssets(store, { id, sections: after.sections }, null);
      const verdict = await acceptWrite({ kind: "create", before: null, after, actor, context: { ...context, assets: assets.context } });
      if (!verdict.allowed) throw editRefused(id, verdict.findings, true);
      const note = validNote(after);
      const revision = await store.commit({
        ref: draftRef(id),
        expected: null,
        parent: mainHead,
        author: commitPerson(actor),
        message: describeSave(id, null, note),
        changes: { [notePath(id)]: serializeNote(note), ...assets.changes },
      });
      // The answer is built from what this request read and wrote, not from a second read.
      return { id, revision: revision.commit, view: await viewOf(await newNoteContext(store, id, main, revision)) };
    } catch (e) {
      if (e instanceof RefConflictError) continue; // someone else took this number a moment ago
      throw e;
    }
  }
  throw new ApiError(409, "busy", `no free note id found after ${ATTEMPTS} tries (many notes are being created at once); try again`);
}
