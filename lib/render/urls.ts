import { decodeParam } from "@/lib/http/params";
import type { Status } from "@/lib/notes/schema";

/** The public URLs of the archive, in one place so every link and the sitemap agree. */

export const noteUrl = (id: string) => `/notes/${id}`;
export const historyUrl = (id: string) => `/notes/${id}/history`;
export const statusUrl = (status: Status) => `/?status=${status}`;
export const tagUrl = (tag: string) => `/tags/${slug(tag)}`;
export const phaseUrl = (phase: string) => `/phases/${slug(phase)}`;
export const searchUrl = (q: string) => `/search?q=${encodeURIComponent(q)}`;

// Tags and phases repeat across thousands of notes, and every listing, filter and facet slugs them:
// each distinct value is normalised once (bounded: a flood of distinct values only starts it over).
const slugs = new Map<string, string>();
const SLUGS_MAX = 10_000;

/** A readable URL segment: "sparse attention" → "sparse-attention", "0–3" → "0-3", "tokenizer.json" → "tokenizer-json". */
export function slug(value: string): string {
  let s = slugs.get(value);
  if (s === undefined) {
    if (slugs.size >= SLUGS_MAX) slugs.clear();
    slugs.set(value, (s = slugOf(value)));
  }
  return s;
}

function slugOf(value: string): string {
  const s = value
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
  return s || encodeURIComponent(value);
}

/** A URL segment as text; a malformed escape (%E0%A4) is taken literally instead of throwing. */
export function segment(value: string): string {
  return decodeParam(value) ?? value;
}
