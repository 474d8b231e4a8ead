import type { ContentStore } from "@/lib/working-copy/content-store";
import type { Oid } from "@/lib/store/types";
import { assetPathsOf, parseAssetPath, type AssetContext, type AssetFacts } from "@/lib/rules/images";
import type { Note } from "@/lib/notes/schema";
import { inspectAsset } from "./inspect";
import { assetLimits } from "./limits";

/**
 * A note's images travel with it. A save commits, in the same commit as the note, every asset the
 * note references (an upload only staged its blob: lib/assets/upload.ts) and deletes the note's
 * assets it no longer references; a publish carries the same files from the draft to main. The
 * asset's name is its blob id, so the bytes are found by that id whether the blob was staged or
 * committed; the facts handed to the image rules come from exactly those bytes.
 */

export type NoteAssets = { context: AssetContext; changes: Record<string, Uint8Array | null> };

export const assetFolder = (id: string) => `assets/${id}`;

/**
 * The asset files a write of `note` onto a tree based on `base` must carry: each referenced file
 * (its bytes, or null facts when the repository has no blob by that name), and a deletion for each
 * file in the note's folder at `base` that the note no longer references.
 */
export async function noteAssets(store: ContentStore, note: Pick<Note, "id" | "sections">, base: Oid | null): Promise<NoteAssets> {
  const referenced = assetPathsOf(note);
  const facts = new Map<string, AssetFacts | null>();
  const changes: Record<string, Uint8Array | null> = {};
  await Promise.all(
    referenced.map(async (path) => {
      const { blob } = parseAssetPath(path)!;
      const bytes = await store.readBlob(blob);
      facts.set(path, bytes ? await inspectAsset(bytes, blob) : null);
      // Unchanged files are rewritten to the same blob id: the tree does not change for them.
      if (bytes) changes[path] = bytes;
    }),
  );
  if (base) {
    const folder = assetFolder(note.id);
    for (const name of await store.listFiles(base, folder)) {
      const path = `${folder}/${name}`;
      if (!referenced.includes(path)) changes[path] = null;
    }
  }
  return { context: { facts, limits: assetLimits() }, changes };
}
