import type { Element, Root } from "hast";
import { parseAssetPath } from "@/lib/rules/images";

/**
 * A note's images in HTML, after sanitizing: `assets/<id>/<hash>.<ext>` (the path the Markdown
 * keeps, relative to the repository) becomes the site's `/assets/…` URL, with the image's width and
 * height when the caller knows them, so the page reserves the space before the image arrives (no
 * layout shift); CSS (.prose img: max-width 100%, height auto) scales a large image down to the
 * column. Every image loads lazily and decodes off the main thread. Browser-safe: no I/O here; the
 * sizes come from the caller (lib/assets/sizes.ts on the server).
 */

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
  }
  img.properties.loading = "lazy";
  img.properties.decoding = "async";
}
