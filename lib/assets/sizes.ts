import { getContentStore } from "@/lib/working-copy/content-store";
import { imagesIn, parseAssetPath } from "@/lib/rules/images";
import type { ImageSize, ImageSizes } from "@/lib/render/images";
import { inspectAsset } from "./inspect";

/**
 * The intrinsic sizes of the images a section shows, for width and height on <img>. An image's name
 * is its blob id, so its size is found from the name alone, whichever commit holds it (remembered
 * per blob by inspectAsset).
 */

const NONE: ImageSizes = new Map();

export async function imageSizesIn(markdown: string): Promise<ImageSizes> {
  if (!markdown.includes("assets/")) return NONE;
  const paths = [...new Set(imagesIn("", markdown).map((u) => u.src))].filter((src) => parseAssetPath(src));
  if (!paths.length) return NONE;
  const store = await getContentStore();
  const sizes = new Map<string, ImageSize>();
  await Promise.all(
    paths.map(async (path) => {
      const { blob } = parseAssetPath(path)!;
      const bytes = await store.readBlob(blob);
      if (!bytes) return;
      const facts = await inspectAsset(bytes, blob);
      if (facts.width && facts.height) sizes.set(path, { width: facts.width, height: facts.height });
    }),
  );
  return sizes;
}
