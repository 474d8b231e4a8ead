import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";
import type { AssetFacts, ImageExt } from "@/lib/rules/images";
import { isSvg } from "./svg";
import { svgOverLimit } from "./svg-scan";
import { sanitizeSvgOffThread, SvgTooComplex } from "./svg-thread";

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

/**
 * The image type of these bytes, or null. file-type names raster formats by their signature; an
 * SVG is text it calls XML (`<?xml …?>` first, as Inkscape and Illustrator write it) or nothing.
 */
export async function imageTypeOf(bytes: Uint8Array): Promise<ImageExt | null> {
  const detected = await fileTypeFromBuffer(bytes);
  const raster = detected ? RASTER[detected.ext] : undefined;
  if (raster) return raster;
  return (!detected || detected.ext === "xml") && isSvg(bytes) ? "svg" : null;
}

async function inspect(bytes: Uint8Array): Promise<AssetFacts> {
  const size = bytes.length;
  const none: AssetFacts = { type: null, size, width: 0, height: 0, metadata: [], svgProblems: [] };
  const type = await imageTypeOf(bytes);
  if (type === null) return none;
  if (type === "svg") {
    // Counted before anything parses it: a file past the SVG limits is judged by that alone.
    const over = svgOverLimit(bytes);
    if (over) return { ...none, type, svgTooComplex: over.message };
    try {
      const { removed } = await sanitizeSvgOffThread(Buffer.from(bytes).toString("utf8"));
      return { type, size, ...(await dimensions(bytes)), metadata: [], svgProblems: removed };
    } catch (e) {
      if (e instanceof SvgTooComplex) return { ...none, type, svgTooComplex: e.reason };
      return { ...none, type, svgProblems: [`it could not be read as SVG (${(e as Error).message})`] };
    }
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
