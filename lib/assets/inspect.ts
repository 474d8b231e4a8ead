import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";
import type { AssetFacts, ImageExt } from "@/lib/rules/images";
import { isSvg, sanitizeSvg } from "./svg";

/**
 * What an asset's bytes are, as the image rules (lib/rules/images.ts) judge them: the type by the
 * bytes (file-type; SVG by its root element), size, pixels, metadata blocks and SVG problems.
 * A file's name and declared type never count. Results are kept per blob id (bytes never change).
 */

const RASTER: Record<string, ImageExt> = { png: "png", jpg: "jpg", webp: "webp", gif: "gif" };
const memo = new Map<string, AssetFacts>();
const MEMO_ENTRIES = 500;

export async function inspectAsset(bytes: Uint8Array, blob?: string): Promise<AssetFacts> {
  const hit = blob ? memo.get(blob) : undefined;
  if (hit) return hit;
  const facts = await inspect(bytes);
  if (blob) {
    memo.set(blob, facts);
    if (memo.size > MEMO_ENTRIES) memo.delete(memo.keys().next().value as string);
  }
  return facts;
}

async function inspect(bytes: Uint8Array): Promise<AssetFacts> {
  const size = bytes.length;
  const none: AssetFacts = { type: null, size, width: 0, height: 0, metadata: [], svgProblems: [] };
  const detected = await fileTypeFromBuffer(bytes);
  const type = detected ? (RASTER[detected.ext] ?? null) : isSvg(bytes) ? "svg" : null;
  if (type === null) return none;
  if (type === "svg") {
    const { removed } = await sanitizeSvg(Buffer.from(bytes).toString("utf8"));
    const size2d = await dimensions(bytes);
    return { type, size, ...size2d, metadata: [], svgProblems: removed };
  }
  try {
    // Header only: no pixels are decoded, so a huge image costs nothing here.
    const m = await sharp(bytes, { limitInputPixels: false, animated: true }).metadata();
    const metadata = [...(m.exif ? ["EXIF"] : []), ...(m.xmp ? ["XMP"] : []), ...(m.iptc ? ["IPTC"] : []), ...(m.comments?.length ? ["text comments"] : [])];
    return { type, size, width: m.width ?? 0, height: m.pageHeight ?? m.height ?? 0, metadata, svgProblems: [] };
  } catch {
    // Bytes that start like an image but do not decode are no image we take.
    return none;
  }
}

async function dimensions(bytes: Uint8Array): Promise<{ width: number; height: number }> {
  try {
    const m = await sharp(bytes, { limitInputPixels: false }).metadata();
    return { width: m.width ?? 0, height: m.height ?? 0 };
  } catch {
    return { width: 0, height: 0 };
  }
}
