import type { Image, ImageReference, Nodes, Definition } from "mdast";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { SECTIONS, type Note } from "@/lib/notes/schema";
import { markdownIsSafe } from "@/lib/notes/section-shape";

/**
 * The image rules: a note shows only images stored with it in the content repository
 * (`assets/<id>/<content-hash>.<ext>`), each with alt text, each an allowed type within the size
 * and pixel limits, carrying no metadata, and (SVG) no script, handler or external reference.
 *
 * Pure: the bytes are inspected by the caller (lib/assets/inspect.ts) and handed in as facts, so
 * the studio and content:check judge the same facts with the same function.
 */

/** The image types a note may carry: file extension → media type. */
export const IMAGE_TYPES = { png: "image/png", jpg: "image/jpeg", webp: "image/webp", gif: "image/gif", svg: "image/svg+xml" } as const;
/** The narrower widths the server derives from a stored image (a srcset names those below its own width). */
export const RESPONSIVE_WIDTHS = [640, 1280] as const;
/** Types with narrower copies: GIF stays as stored (frames), SVG is drawn at any width. */
export const RESPONSIVE_TYPES = ["png", "jpg", "webp"] as const;
export type ImageExt = keyof typeof IMAGE_TYPES;
export const isImageExt = (ext: string): ext is ImageExt => Object.hasOwn(IMAGE_TYPES, ext);

/**
 * An asset's path in the repository. The content hash is the file's git blob id, so the name alone
 * finds an uploaded blob that no commit holds yet, and `git cat-file` can verify it.
 */
export const ASSET_PATH = /^assets\/([A-Z][A-Z0-9]*-\d{3,})\/([0-9a-f]{40})\.(png|jpg|webp|gif|svg)$/;

export const assetPath = (id: string, blob: string, ext: ImageExt) => `assets/${id}/${blob}.${ext}`;

export function parseAssetPath(path: string): { id: string; blob: string; ext: ImageExt } | null {
  const m = ASSET_PATH.exec(path);
  return m ? { id: m[1]!, blob: m[2]!, ext: m[3] as ImageExt } : null;
}

/** What the caller found in an asset's bytes. */
export type AssetFacts = {
  /** The type its bytes are (not its name); null when they are no image type we take. */
  type: ImageExt | null;
  size: number;
  width: number;
  height: number;
  /** Metadata blocks present (EXIF, XMP, IPTC, ICC, comments…); empty when clean. */
  metadata: string[];
  /** For SVG: what the sanitiser would remove (scripts, handlers, external references). */
  svgProblems: string[];
  /** For SVG too large or complex to sanitise (./svg limits below): the limit it passes; its problems are then unknown. */
  svgTooComplex?: string;
};

export type AssetLimits = { maxBytes: number; maxPixels: number };
export const DEFAULT_ASSET_LIMITS: AssetLimits = { maxBytes: 5 * 1024 * 1024, maxPixels: 40_000_000 };

/**
 * The longest side an image may have, read from its header before any pixel is decoded: a
 * 1 × 39,000,000 PNG is under the pixel limit and still took 48 s of CPU to re-encode (issue 32).
 * 16,384 is WebP's own limit and past what any page shows.
 */
export const MAX_SIDE = 16_384;

/**
 * How much an SVG may hold, counted before it is parsed (lib/assets/svg-scan.ts). Sanitising
 * builds a DOM whose cost grows with these: 10,000 elements take jsdom about 2 s and 150 MB, and an
 * element's attributes are removed one by one (50,000 on one element took 47 s).
 */
export type SvgLimits = { maxBytes: number; maxElements: number; maxDepth: number; maxAttributes: number; maxElementAttributes: number };
export const SVG_LIMITS: SvgLimits = { maxBytes: 2 * 1024 * 1024, maxElements: 10_000, maxDepth: 100, maxAttributes: 50_000, maxElementAttributes: 256 };

/** The assets a write's note references, looked up by the caller: path → facts, or null when the repository has no such file. */
export type AssetContext = { facts: ReadonlyMap<string, AssetFacts | null>; limits: AssetLimits };

/** One image in a note: the section it is in, its line within that section's text, its alt text and source. */
export type ImageUse = { field: string; line: number; alt: string; src: string };

/** Every image a note's sections show (inline `![alt](src)` and reference-style `![alt][ref]`). */
export function imagesOf(note: Pick<Note, "sections">): ImageUse[] {
  const uses: ImageUse[] = [];
  for (const { key } of SECTIONS) {
    const text = note.sections[key];
    if (typeof text === "string" && text.includes("![")) uses.push(...imagesIn(`sections.${key}`, text));
  }
  return uses;
}

export function imagesIn(field: string, markdown: string): ImageUse[] {
  // Text the parser cannot be trusted with shows no image: every reader gets it as plain text (lib/notes/section-shape.ts).
  if (!markdownIsSafe(markdown)) return [];
  const tree = unified().use(remarkParse).use(remarkGfm).parse(markdown);
  const definitions = new Map<string, string>();
  const found: (Image | ImageReference)[] = [];
  const walk = (node: Nodes) => {
    if (node.type === "definition") definitions.set((node as Definition).identifier, (node as Definition).url);
    if (node.type === "image" || node.type === "imageReference") found.push(node);
    if ("children" in node) for (const child of node.children) walk(child);
  };
  walk(tree);
  return found.map((node) => ({
    field,
    line: node.position?.start.line ?? 1,
    alt: (node.alt ?? "").trim(),
    src: node.type === "image" ? node.url : (definitions.get(node.identifier) ?? ""),
  }));
}

/** The repository paths of a note's own images (what a save or publish carries with the note). */
export function assetPathsOf(note: Pick<Note, "id" | "sections">): string[] {
  return [...new Set(imagesOf(note).flatMap((u) => (parseAssetPath(u.src)?.id === note.id ? [u.src] : [])))];
}

export type ImageFinding = { field: string; line: number; message: string };

/**
 * Findings for a note's images. Without `assets` only what the note's text shows is checked (alt
 * text, where each image lives); with it, each referenced file's existence and bytes too.
 */
export function checkImages(note: Pick<Note, "id" | "sections">, assets?: AssetContext): ImageFinding[] {
  const findings: ImageFinding[] = [];
  const checked = new Set<string>();
  for (const use of imagesOf(note)) {
    const at = { field: use.field, line: use.line };
    const shown = use.src || "(no address)";
    if (!use.alt) {
      findings.push({
        ...at,
        message: `the image ${shown} has no alt text: say what it shows for readers who cannot see it, as ![what the figure shows](${use.src})`,
      });
    }
    const asset = parseAssetPath(use.src);
    if (!asset) {
      findings.push({
        ...at,
        message: use.src.startsWith("assets/")
          ? `${shown} is not an image of the archive: an image is referenced as assets/${note.id}/<content hash>.<png|jpg|webp|gif|svg>, as the upload answered`
          : `${shown} is outside the archive: images are stored with the note (paste, drop or pick the file in the editor); pages load no image from other sites`,
      });
      continue;
    }
    if (asset.id !== note.id) {
      findings.push({ ...at, message: `${use.src} belongs to ${asset.id}: a note shows its own images (upload the image to ${note.id})` });
      continue;
    }
    if (!assets || checked.has(use.src)) continue;
    checked.add(use.src);
    findings.push(...factFindings(use.src, assets.facts.get(use.src) ?? null, assets.limits).map((message) => ({ ...at, message })));
  }
  return findings;
}

/** What is wrong with one stored asset; [] when it may be published. Used for referenced and unreferenced files alike. */
export function factFindings(path: string, facts: AssetFacts | null, limits: AssetLimits): string[] {
  if (!facts) return [`${path} is not in the repository: upload the image again`];
  const ext = parseAssetPath(path)?.ext;
  const problems: string[] = [];
  if (facts.type === null) problems.push(`${path} is not a PNG, JPEG, WebP, GIF or SVG image by its bytes`);
  else if (facts.type !== ext) problems.push(`${path} holds ${facts.type.toUpperCase()} bytes under a .${ext} name`);
  if (facts.size > limits.maxBytes) problems.push(`${path} is ${mb(facts.size)}, more than the ${mb(limits.maxBytes)} an image may be`);
  const shape = shapeProblem(facts.width, facts.height, limits);
  if (shape) problems.push(`${path} is ${shape}`);
  if (facts.metadata.length) {
    problems.push(
      `${path} carries metadata (${facts.metadata.join(", ")}), which can hold places, devices and names: upload it through the studio, which removes it`,
    );
  }
  if (facts.svgTooComplex) problems.push(`${path} is an SVG too complex to check: ${facts.svgTooComplex}`);
  if (facts.svgProblems.length) problems.push(`${path} is an unsafe SVG: ${facts.svgProblems.join("; ")}`);
  return problems;
}

/** What is wrong with an image's width and height ("1×39000000 pixels: …"), or null when it is within the limits. */
export function shapeProblem(width: number, height: number, limits: AssetLimits): string | null {
  if (Math.max(width, height) > MAX_SIDE) return `${width}×${height} pixels: an image is at most ${MAX_SIDE} pixels on a side`;
  if (width * height > limits.maxPixels) return `${width}×${height} pixels, more than the ${(limits.maxPixels / 1e6).toFixed(0)} megapixels an image may have`;
  return null;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
