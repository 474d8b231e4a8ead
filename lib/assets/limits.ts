import { z } from "zod";
import { DEFAULT_ASSET_LIMITS, type AssetLimits } from "@/lib/rules/images";

/**
 * How large an image may be: ASSET_MAX_BYTES (default 5 MB) and ASSET_MAX_PIXELS (default 40
 * megapixels: a decoded image that large already takes 160 MB of memory). Read once; a bad value
 * stops the request with a message that names the variable rather than silently using the default.
 */

const positive = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .positive(`${name} must be greater than 0`);

let cached: AssetLimits | null = null;

export function assetLimits(env: Record<string, string | undefined> = process.env): AssetLimits {
  if (env === process.env && cached) return cached;
  const read = (name: string, fallback: number) => (env[name] ? positive(name).parse(env[name]) : fallback);
  const limits = { maxBytes: read("ASSET_MAX_BYTES", DEFAULT_ASSET_LIMITS.maxBytes), maxPixels: read("ASSET_MAX_PIXELS", DEFAULT_ASSET_LIMITS.maxPixels) };
  if (env === process.env) cached = limits;
  return limits;
}

/** Wider images are scaled down to this width when uploaded: no page shows more, and the bytes every reader loads shrink. */
export const MAX_STORED_WIDTH = 2400;
