import sharp from "sharp";
import { ApiError } from "@/lib/api/errors";
import { IMAGE_TYPES, type AssetLimits, type ImageExt } from "@/lib/rules/images";
import { inspectAsset } from "./inspect";
import { MAX_STORED_WIDTH } from "./limits";
import { sanitizeSvg } from "./svg";

/**
 * An uploaded file made fit for the archive: its type read from its bytes, held to the size and
 * pixel limits, and written anew without metadata (EXIF can hold GPS positions, device serials and
 * names; the archive policy forbids personal data). Raster images are decoded and re-encoded by
 * sharp, which keeps no metadata unless asked to; SVG is sanitised (./svg.ts). Every refusal says
 * what and where (the `file` field) and happens before anything is written.
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
  const facts = await inspectAsset(input);
  if (facts.type === null) {
    throw new ApiError(
      415,
      "unsupported-image",
      `${name} is not a ${KINDS} image by its contents (its name and declared type do not count)`,
      field(`not a ${KINDS} image`),
    );
  }
  if (facts.width * facts.height > limits.maxPixels) {
    throw new ApiError(
      422,
      "too-many-pixels",
      `${name} is ${facts.width}×${facts.height} pixels, more than the ${(limits.maxPixels / 1e6).toFixed(0)} megapixels an image may have`,
      field("too many pixels"),
    );
  }
  const prepared = facts.type === "svg" ? await cleanSvg(input, name) : await reencode(input, facts.type, name, limits);
  if (prepared.bytes.length > limits.maxBytes) throw tooLarge(prepared.bytes.length, limits, name);
  // Belt and braces: what is stored is inspected as content:check will inspect it.
  const stored = await inspectAsset(prepared.bytes);
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

async function cleanSvg(input: Uint8Array, name: string): Promise<Omit<PreparedAsset, "name">> {
  const { svg, removed } = await sanitizeSvg(Buffer.from(input).toString("utf8"));
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
  return { bytes, ext: "svg", width: m.width, height: m.height, removed };
}
