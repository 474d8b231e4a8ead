import { decodeParam } from "@/lib/web/params";
import type { SectionKey, Status } from "@/lib/notes/schema";

/** The public URLs of the archive, in one place so every link and the sitemap agree. */

export const noteUrl = (id: string) => `/notes/${id}`;
export const historyUrl = (id: string) => `/notes/${id}/history`;
/** The note as published at one commit of main: a citation that keeps its text (`?rev=`, see lib/public/pinned-note.ts). */
export const pinnedNoteUrl = (id: string, commit: string) => `/notes/${id}?rev=${commit}`;

/**
 * Each section's stable anchor on the note page and in its Markdown twin (`#decision`,
 * `#rejected-shortcut`, `#claim-boundary`): what a citation points at, so it never changes.
 */
export const SECTION_ANCHORS = {
  decision: "decision",
  invariant: "invariant",
  rejectedShortcut: "rejected-shortcut",
  evidence: "evidence",
  claimBoundary: "claim-boundary",
  notes: "notes",
} as const satisfies Record<SectionKey, string>;
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

/**
 * Whether a tag has a page of its own. Its slug is its URL segment, and a segment of "." or ".."
 * (the slug of a tag of dots alone) is read by every browser, crawler and URL parser as this folder
 * or the one above: /tags/.. is /. Such a tag is refused at save (lib/rules/accept-write.ts); one
 * committed with plain git is shown without a link, and the sitemap and agent formats leave it out.
 */
export function tagHasPage(tag: string): boolean {
  const s = slug(tag);
  return s !== "" && s !== "." && s !== "..";
}

/** A URL segment as text; a malformed escape (%E0%A4) is taken literally instead of throwing. */
export function segment(value: string): string {
  return decodeParam(value) ?? value;
}
