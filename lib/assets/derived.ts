import { LRUCache } from "lru-cache";
import sharp from "sharp";
import { RESPONSIVE_TYPES, RESPONSIVE_WIDTHS } from "@/lib/rules/images";
import type { ImageExt } from "@/lib/rules/images";
import { assetLimits } from "./limits";

/**
 * Narrower copies of a stored image for the page's srcset (lib/render/images.ts): `<hash>-640w.png`
 * is the image `<hash>.png` scaled to 640 pixels wide, in the same type, without metadata (sharp
 * writes none). They are cache, not content: the repository holds one blob per image, and a copy is
 * made from it on first request and kept in memory by hash and width (bounded by bytes). Its URL is
 * as immutable as the stored image's, since both name the same content hash.
 * docs/decisions/images-staged-until-save.md says why they are not committed.
 */

export type DerivedName = { blob: string; width: number; ext: ImageExt };

const DERIVED_NAME = /^([0-9a-f]{40})-(\d+)w\.(png|jpg|webp)$/;

/** `<hash>-<width>w.<ext>` with a width the pages use and a type that has copies; null for anything else. */
export function parseDerivedName(file: string): DerivedName | null {
  const m = DERIVED_NAME.exec(file);
  if (!m) return null;
  const width = Number(m[2]);
  if (!(RESPONSIVE_WIDTHS as readonly number[]).includes(width) || !(RESPONSIVE_TYPES as readonly string[]).includes(m[3]!)) return null;
  return { blob: m[1]!, width, ext: m[3] as ImageExt };
}

/** Copies kept: ~64 MB of encoded bytes (a 1280-pixel JPEG is ~150 kB), least recently used first. */
const made = new LRUCache<string, Uint8Array>({ maxSize: 64 * 1024, sizeCalculation: (bytes) => Math.max(1, Math.ceil(bytes.length / 1024)) });
const making = new Map<string, Promise<Uint8Array | null>>();

/**
 * The copy of `stored` (blob `blob`) `width` pixels wide, or null when the image is not wider than
 * that (no srcset names such a copy, so none is made: the widths a request can ask for are the few
 * the pages use). Concurrent requests for one copy share one resize.
 */
export async function derivedImage(stored: Uint8Array, name: DerivedName): Promise<Uint8Array | null> {
  const key = `${name.blob}-${name.width}`;
  const hit = made.get(key);
  if (hit) return hit;
  const pending = making.get(key);
  if (pending) return pending;
  const job = resize(stored, name).finally(() => making.delete(key));
  making.set(key, job);
  const bytes = await job;
  if (bytes) made.set(key, bytes);
  return bytes;
}

async function resize(stored: Uint8Array, { width, ext }: DerivedName): Promise<Uint8Array | null> {
  // Stored images passed the checks at upload and save (one committed with plain git may not have:
  // past the pixel limit it gets no copy); animated WebP keeps its frames.
  const image = sharp(stored, { animated: ext === "webp", failOn: "error", limitInputPixels: assetLimits().maxPixels });
  try {
    const meta = await image.metadata();
    if (!meta.width || meta.width <= width) return null;
    const resized = image.resize({ width });
    const encoded = ext === "jpg" ? resized.jpeg({ quality: 82, mozjpeg: true }) : ext === "png" ? resized.png() : resized.webp({ quality: 82 });
    return new Uint8Array(await encoded.toBuffer());
  } catch (e) {
    console.error(`assets: no ${width}px copy of an image could be made`, e);
    return null;
  }
}
