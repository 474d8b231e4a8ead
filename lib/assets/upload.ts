import { getContentStore } from "@/lib/working-copy/content-store";
import { ApiError } from "@/lib/rules/api-errors";
import { assetPath } from "@/lib/rules/images";
import { draftRef, MAIN_REF } from "@/lib/working-copy/layout";
import { workingCopyAt } from "@/lib/working-copy/working-copy";
import { assetLimits } from "./limits";
import { prepareAsset, tooLarge } from "./prepare";
import { readCapped } from "@/lib/web/body";

/**
 * An image upload (POST /api/studio/notes/<id>/assets). The cleaned bytes are written as a blob
 * that no commit references yet: the note's next save commits it together with the note change
 * that references it (lib/assets/note-assets.ts), so every commit is a note with its images. Why
 * not a commit of its own: docs/decisions/images-staged-until-save.md.
 */

export type UploadAnswer = { path: string; url: string; type: string; width: number; height: number; bytes: number; cleaned: string[] };

/** Multipart overhead allowed beyond the file itself (boundaries, part headers). */
const ENVELOPE = 64 * 1024;

export async function uploadAsset(request: Request, id: string): Promise<UploadAnswer> {
  const limits = assetLimits();
  const store = await getContentStore();
  const [draftHead, mainHead] = await Promise.all([store.resolve(draftRef(id)), store.resolve(MAIN_REF)]);
  await workingCopyAt(store, id, { draftHead, mainHead }); // 404 for a note that does not exist

  const file = await fileOf(request, limits.maxBytes + ENVELOPE);
  const name = JSON.stringify(file.name || "the file");
  const input = new Uint8Array(await file.arrayBuffer());
  if (input.length > limits.maxBytes) throw tooLarge(input.length, limits, name);
  const prepared = await prepareAsset(input, name, limits);
  const blob = await store.writeBlob(prepared.bytes);
  const path = assetPath(id, blob, prepared.ext);
  return {
    path,
    url: `/${path}`,
    type: prepared.ext === "svg" ? "image/svg+xml" : `image/${prepared.ext === "jpg" ? "jpeg" : prepared.ext}`,
    width: prepared.width,
    height: prepared.height,
    bytes: prepared.bytes.length,
    cleaned: prepared.removed,
  };
}

/** The `file` part of a multipart/form-data body, read no further than `cap` bytes. */
async function fileOf(request: Request, cap: number): Promise<File> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type)) {
    throw new ApiError(
      415,
      "unsupported-media-type",
      `an image is uploaded as multipart/form-data with the field "file"; the request has ${type ? `Content-Type ${JSON.stringify(type.slice(0, 100))}` : "no Content-Type"}`,
      {
        where: [{ field: "content-type", message: "must be multipart/form-data" }],
      },
    );
  }
  const limits = assetLimits();
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > cap) throw tooLarge(null, limits);
  const body = await readCapped(request, cap);
  if (body === null) throw tooLarge(null, limits);
  let form: FormData;
  try {
    form = await new Response(new Blob([new Uint8Array(body)]), { headers: { "content-type": type } }).formData();
  } catch {
    throw new ApiError(400, "bad-multipart", "the request body is not a well-formed multipart/form-data body", {
      where: [{ field: "body", message: "not multipart/form-data" }],
    });
  }
  const file = form.get("file");
  if (!(file instanceof File)) {
    throw new ApiError(400, "missing-file", `the form has no file in the field "file"${form.has("file") ? " (it holds text, not a file)" : ""}`, {
      where: [{ field: "file", message: "required" }],
    });
  }
  return file;
}
