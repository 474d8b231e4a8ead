import type { Element, Root } from "hast";
import { parseAssetPath, RESPONSIVE_TYPES, RESPONSIVE_WIDTHS } from "@/lib/rules/images";

/**
 * A note's images in HTML, after sanitizing: `assets/<id>/<hash>.<ext>` (the path the Markdown
 * keeps, relative to the repository) becomes the site's `/assets/…` URL, with the image's width and
 * height when the caller knows them, so the page reserves the space before the image arrives (no
 * layout shift); CSS (.prose img: max-width 100%, height auto) scales a large image down to the
 * column. A raster image wider than a responsive width also gets a `srcset` of narrower copies
 * (`<hash>-640w.<ext>`, derived and cached by the server, lib/assets/derived.ts) and `sizes` (the
 * column, --measure: 42rem), so a phone does not load 2400 pixels for a 390-pixel column.
 * Every image loads lazily and decodes off the main thread. Browser-safe: no I/O here; the
 * sizes come from the caller (lib/assets/sizes.ts on the server).
 */

/** How wide the image is drawn: the page's column (--measure, 42rem) or the whole viewport below it. */
export const IMAGE_SIZES = "(max-width: 42rem) 100vw, 42rem";

/** The URL of an image's copy `width` pixels wide: beside the stored file, named by its hash and width. */
export const derivedImageUrl = (path: string, width: number) => `/${path.replace(/\.([a-z]+)$/, `-${width}w.$1`)}`;

export type ImageSize = { width: number; height: number };
/** The repository path of an image → its intrinsic size. */
export type ImageSizes = ReadonlyMap<string, ImageSize>;

export function rehypeNoteImages({ sizes }: { sizes?: ImageSizes } = {}) {
  return (tree: Root) => {
    const visit = (node: Root | Element) => {
      for (const child of node.children) {
        if (child.type !== "element") continue;
        if (child.tagName === "img") placeImage(child, sizes);
        visit(child);
      }
    };
    visit(tree);
  };
}

function placeImage(img: Element, sizes: ImageSizes | undefined) {
  const src = img.properties.src;
  if (typeof src !== "string" || !parseAssetPath(src)) return;
  img.properties.src = `/${src}`;
  const size = sizes?.get(src);
  if (size && size.width > 0 && size.height > 0) {
    img.properties.width = size.width;
    img.properties.height = size.height;
    const narrower = RESPONSIVE_WIDTHS.filter((w) => w < size.width);
    const ext = parseAssetPath(src)!.ext;
    if (narrower.length && (RESPONSIVE_TYPES as readonly string[]).includes(ext)) {
      img.properties.srcSet = [...narrower.map((w) => `${derivedImageUrl(src, w)} ${w}w`), `/${src} ${size.width}w`].join(", ");
      img.properties.sizes = IMAGE_SIZES;
    }
  }
  img.properties.loading = "lazy";
  img.properties.decoding = "async";
}
