import sharp from "sharp";
import { ApiError } from "@/lib/rules/api-errors";
import { IMAGE_TYPES, MAX_SIDE, shapeProblem, type AssetLimits, type ImageExt } from "@/lib/rules/images";
import { imageTypeOf, inspectAsset } from "./inspect";
import { MAX_STORED_WIDTH } from "./limits";
import { svgOverLimit } from "./svg-scan";
import { sanitizeSvgOffThread, SvgTooComplex } from "./svg-thread";

/**
 * An uploaded file made fit for the archive: its type read from its bytes, held to the size and
 * pixel limits, and written anew without metadata (EXIF can hold GPS positions, device serials and
 * names; the archive policy forbids personal data). Raster images are decoded and re-encoded by
 * sharp, which keeps no metadata unless asked to; SVG is sanitised (./svg.ts). What costs the
 * server is bounded before it is spent: a raster image's width and height are read from its header
 * before a pixel is decoded, an SVG's markup is counted before it is parsed (./svg-scan.ts) and
 * parsed off the request thread (./svg-thread.ts). Every refusal says what and where (the `file`
 * field), names the limit, and happens before anything is written.
 */

export type PreparedAsset = { bytes: Buffer; ext: ImageExt; width: number; height: number; name: string; removed: string[] };

const field = (message: string) => ({ where: [{ field: "file", message }] });
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const KINDS = "PNG, JPEG, WebP, GIF or SVG";

export function tooLarge(size: number | null, limits: AssetLimits, name = "the file"): ApiError {
  const what = size === null ? `${name} is larger than` : `${name} is ${mb(size)}, larger than`;
  return new ApiError(
    413,
    "too-large",
    `${what} the ${mb(limits.maxBytes)} an image may be; make it smaller (fewer pixels, or a compressed format) and upload it again`,
    field(`larger than ${mb(limits.maxBytes)}`),
  );
}

export async function prepareAsset(input: Uint8Array, name: string, limits: AssetLimits): Promise<PreparedAsset> {
  if (input.length === 0) throw new ApiError(400, "empty-file", `${name} is empty`, field("empty"));
  if (input.length > limits.maxBytes) throw tooLarge(input.length, limits, name);
  const type = await imageTypeOf(input);
  // A raster image's facts come from its header alone (no pixel decoded); an SVG's size once it is clean.
  const facts = type === null || type === "svg" ? null : await inspectAsset(input);
  if (type === null || (facts && facts.type === null)) {
    throw new ApiError(
      415,
      "unsupported-image",
      `${name} is not a ${KINDS} image by its contents (its name and declared type do not count)`,
      field(`not a ${KINDS} image`),
    );
  }
  if (facts) checkShape(facts.width, facts.height, name, limits);
  const prepared = type === "svg" ? await cleanSvg(input, name, limits) : await reencode(input, type, name, limits);
  if (prepared.bytes.length > limits.maxBytes) throw tooLarge(prepared.bytes.length, limits, name);
  // Belt and braces: what is stored is inspected as content:check will inspect it.
  const stored = await inspectAsset(prepared.bytes);
  if (stored.svgTooComplex) throw tooComplex(name, stored.svgTooComplex, "too complex");
  if (stored.type !== prepared.ext || stored.metadata.length || stored.svgProblems.length) {
    throw new ApiError(
      422,
      "image-refused",
      `${name} could not be made safe to store (${[...stored.metadata, ...stored.svgProblems].join(", ") || "its type changed"})`,
      field("could not be cleaned"),
    );
  }
  return { ...prepared, name };
}

async function reencode(input: Uint8Array, ext: Exclude<ImageExt, "svg">, name: string, limits: AssetLimits): Promise<Omit<PreparedAsset, "name">> {
  try {
    const animated = ext === "gif" || ext === "webp";
    let image = sharp(input, { animated, limitInputPixels: limits.maxPixels, failOn: "error" });
    // Turn the pixels as EXIF says before EXIF goes (a multi-frame image has no orientation to apply).
    const meta = await image.metadata();
    if ((meta.pages ?? 1) === 1) image = image.rotate();
    image = image.resize({ width: MAX_STORED_WIDTH, withoutEnlargement: true });
    // No withMetadata/keepExif/keepIccProfile: sharp writes none of EXIF, XMP, IPTC or ICC, and converts to sRGB.
    if (ext === "jpg") image = image.jpeg({ quality: 85, mozjpeg: true });
    else if (ext === "png") image = image.png();
    else if (ext === "webp") image = image.webp({ quality: 85 });
    else image = image.gif();
    const { data, info } = await image.toBuffer({ resolveWithObject: true });
    return { bytes: data, ext, width: info.width, height: info.pageHeight ?? info.height, removed: [] };
  } catch (e) {
    throw new ApiError(422, "broken-image", `${name} looks like ${IMAGE_TYPES[ext]} but does not decode: ${(e as Error).message}`, field("does not decode"));
  }
}

function checkShape(width: number, height: number, name: string, limits: AssetLimits): void {
  const problem = shapeProblem(width, height, limits);
  const short = Math.max(width, height) > MAX_SIDE ? `more than ${MAX_SIDE} pixels on a side` : "too many pixels";
  if (problem) throw new ApiError(422, "too-many-pixels", `${name} is ${problem}`, field(short));
}

function tooComplex(name: string, reason: string, short: string): ApiError {
  return new ApiError(
    422,
    "image-too-complex",
    `${name} is too complex to check as an SVG: ${reason}; simplify it (fewer elements, flatter groups) or upload it as PNG`,
    field(short),
  );
}

async function cleanSvg(input: Uint8Array, name: string, limits: AssetLimits): Promise<Omit<PreparedAsset, "name">> {
  const over = svgOverLimit(input);
  if (over?.limit === "bytes") {
    throw new ApiError(413, "too-large", `${name} is too large to check as an SVG: ${over.message}; simplify it or upload it as PNG`, field(over.short));
  }
  if (over) throw tooComplex(name, over.message, over.short);
  let clean: Awaited<ReturnType<typeof sanitizeSvgOffThread>>;
  try {
    clean = await sanitizeSvgOffThread(Buffer.from(input).toString("utf8"));
  } catch (e) {
    if (e instanceof SvgTooComplex) throw tooComplex(name, e.reason, "took too long to check");
    console.error("assets: an SVG could not be sanitised", e);
    throw new ApiError(422, "broken-image", `${name} could not be read as an SVG (${(e as Error).message})`, field("not a readable SVG"));
  }
  const { svg, removed } = clean;
  const bytes = Buffer.from(svg, "utf8");
  const m = svg
    ? await sharp(bytes, { limitInputPixels: false })
        .metadata()
        .catch(() => null)
    : null;
  if (!m?.width || !m.height) {
    throw new ApiError(
      422,
      "broken-image",
      `${name} is not an SVG a browser can draw once scripts and external references are removed`,
      field("not a drawable SVG"),
    );
  }
  checkShape(m.width, m.height, name, limits);
  return { bytes, ext: "svg", width: m.width, height: m.height, removed };
}
