import type { ContentStore } from "@/lib/working-copy/content-store";
import type { Oid } from "@/lib/store/types";
import { assetPathsOf, parseAssetPath, type AssetContext, type AssetFacts } from "@/lib/rules/images";
import type { Note } from "@/lib/notes/schema";
import { inspectAsset } from "./inspect";
import { assetLimits } from "./limits";

/**
 * Images as a commit holds them, for content:check (a commit made with plain git): the facts of the
 * files a note references, read from that commit's tree (not from staged uploads), and what is wrong
 * with the assets/ folder itself — a name that is not `<id>/<blob id>.<ext>`, a name whose hash is
 * not its content's, a file no note references.
 */

export async function committedAssets(store: ContentStore, commit: Oid, note: Pick<Note, "id" | "sections">): Promise<AssetContext> {
  const facts = new Map<string, AssetFacts | null>();
  for (const path of assetPathsOf(note)) {
    const [blob, bytes] = await Promise.all([store.fileId(commit, path), store.readBytes(commit, path)]);
    facts.set(path, bytes && blob ? await inspectAsset(bytes, blob) : null);
  }
  return { facts, limits: assetLimits() };
}

export type AssetFileFinding = { file: string; message: string };

export async function assetFolderFindings(
  store: ContentStore,
  commit: Oid,
  notes: ReadonlyMap<string, Pick<Note, "id" | "sections">>,
  /** Only these notes' folders, and files directly in assets/ only when `topLevel` (main's gate: what a landing changed). */
  only?: { folders: ReadonlySet<string>; topLevel: boolean },
): Promise<AssetFileFinding[]> {
  const findings: AssetFileFinding[] = [];
  for (const file of !only || only.topLevel ? await store.listFiles(commit, "assets") : [])
    findings.push({ file: `assets/${file}`, message: "an image lives in its note's folder, assets/<note id>/<content hash>.<ext>" });
  for (const id of await store.listFolders(commit, "assets")) {
    if (only && !only.folders.has(id)) continue;
    const folder = `assets/${id}`;
    const note = notes.get(id);
    const referenced = new Set(note ? assetPathsOf(note) : []);
    for (const sub of await store.listFolders(commit, folder)) findings.push({ file: `${folder}/${sub}/`, message: "a note's image folder holds files only" });
    for (const name of await store.listFiles(commit, folder)) {
      const file = `${folder}/${name}`;
      const parsed = parseAssetPath(file);
      if (!parsed) {
        findings.push({ file, message: `not an image name the archive serves: images are named assets/${id}/<git blob id>.<png|jpg|webp|gif|svg>` });
        continue;
      }
      const blob = await store.fileId(commit, file);
      // The name is what caches key on for a year (immutable): it must be the content's own hash.
      if (blob !== parsed.blob)
        findings.push({
          file,
          message: `its name says blob ${parsed.blob.slice(0, 12)}…, its content is blob ${blob?.slice(0, 12)}…: rename it to assets/${id}/${blob}.${parsed.ext}`,
        });
      if (!note) findings.push({ file, message: `unreferenced image: there is no note ${id} (remove the folder, or add the note)` });
      else if (!referenced.has(file))
        findings.push({ file, message: `unreferenced image: notes/${id}.md does not show it (remove the file, or reference it as ![alt text](${file}))` });
    }
  }
  return findings;
}
