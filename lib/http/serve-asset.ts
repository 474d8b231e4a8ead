import { getContentStore } from "@/lib/working-copy/content-store";
import { requireActor } from "@/lib/auth/actor";
import { IMAGE_POLICY } from "@/lib/http/csp";
import { decodeParam } from "@/lib/web/params";
import { IMAGE_TYPES, parseAssetPath, type ImageExt } from "@/lib/rules/images";
import { draftRef } from "@/lib/working-copy/layout";
import { servedCommit } from "@/lib/content/published";
import { derivedImage, parseDerivedName } from "@/lib/assets/derived";
import { inspectAsset } from "@/lib/assets/inspect";

/**
 * GET /assets/<id>/<hash>.<ext>: a note's image. Published (on main) it is public and cached for a
 * year, immutable, since its name is its content's hash. A draft's image — committed on the draft
 * branch, or uploaded and not yet saved — is shown to signed-in people only, like the draft; anyone
 * else gets the same 404 as for a file that does not exist, so a draft's images do not leak.
 * `<hash>-<width>w.<ext>` is a narrower copy of `<hash>.<ext>` for the page's srcset (./derived.ts),
 * served to whoever may see the stored image, with its cache rule.
 */

const IMMUTABLE = "public, max-age=31536000, immutable";

export async function serveAsset(request: Request, rawId: string, rawFile: string): Promise<Response> {
  const file = decodeParam(rawFile) ?? "";
  const copy = parseDerivedName(file);
  const path = `assets/${decodeParam(rawId) ?? ""}/${copy ? `${copy.blob}.${copy.ext}` : file}`;
  const asset = parseAssetPath(path);
  if (!asset) return missing();
  const found = await storedImage(request, path, asset);
  if (!found) return missing();
  if (!copy) return image(found.bytes, asset.ext, `"${asset.blob}"`, found.cacheControl);
  const narrower = await derivedImage(found.bytes, copy);
  return narrower ? image(narrower, asset.ext, `"${asset.blob}-${copy.width}w"`, found.cacheControl) : missing();
}

/** The stored image's bytes and cache rule, or null when this request may not see it (or it does not exist). */
async function storedImage(
  request: Request,
  path: string,
  asset: { id: string; blob: string; ext: ImageExt },
): Promise<{ bytes: Uint8Array; cacheControl: string } | null> {
  const store = await getContentStore();
  // Of the commit readers are served: an image of a commit the rules refuse is not published.
  const mainHead = await servedCommit();
  const published = mainHead ? await store.readBytes(mainHead, path) : null;
  if (published) return { bytes: published, cacheControl: IMMUTABLE };

  try {
    await requireActor(request, undefined, { hideFromAnonymous: true });
  } catch {
    return null;
  }
  const draftHead = await store.resolve(draftRef(asset.id));
  const drafted = draftHead ? await store.readBytes(draftHead, path) : null;
  if (drafted) return { bytes: drafted, cacheControl: "private, no-cache" };
  // Uploaded, not yet saved: the editor's preview shows it. Only bytes that are the named type.
  const staged = await store.readBlob(asset.blob);
  if (staged && (await inspectAsset(staged, asset.blob)).type === asset.ext) return { bytes: staged, cacheControl: "private, no-cache" };
  return null;
}

function image(bytes: Uint8Array, ext: ImageExt, etag: string, cacheControl: string): Response {
  const headers: Record<string, string> = {
    "content-type": IMAGE_TYPES[ext],
    "content-length": String(bytes.length),
    "cache-control": cacheControl,
    etag,
  };
  // Opened on its own, an SVG is a document: even a sanitised one runs nothing and loads nothing (the proxy sends the same policy).
  if (ext === "svg") headers["content-security-policy"] = IMAGE_POLICY;
  return new Response(new Blob([new Uint8Array(bytes)]), { status: 200, headers });
}

const missing = () => new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
