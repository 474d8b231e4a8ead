import YAML from "yaml";
import type { PublishedView } from "@/lib/content/published";
import { serializeNote } from "@/lib/notes/markdown";
import { BOUNDARY_MEANING, SECTIONS, STATUS_MEANING, type Note, type SectionKey } from "@/lib/notes/schema";
import { phaseTitleField, phaseWords, type PhaseTitles } from "@/lib/phases/schema";
import { SECTION_ANCHORS } from "@/lib/web/urls";
import { withoutLineSeparators } from "@/lib/notes/section-shape";
import { imagesOf, parseAssetPath } from "@/lib/rules/images";
import { flagsLine, limitFlags, limitsOf } from "./limits";
import { markdownToText } from "@/lib/render/plain-text";
import type { NoteDocument } from "./schemas";
import type { AgentUrls } from "./urls";

/**
 * A published note in the formats an agent reads: Markdown (the note file itself, with the commit
 * and the meaning of its limits added to the front matter), plain LLM text, and JSON. Each keeps the
 * name notes carry as `phase` and, for a renamed phase, says its title beside it (`titles`: the
 * commit's renamed phases, lib/content/phases.ts `phaseTitlesAt`).
 */

type NoteView = Pick<PublishedView, "commit" | "backlinks">;

/** Front matter keys this module adds to the note file; an agent removes them to commit the file back. */
export const READ_ONLY_KEYS = ["commit", "status_meaning", "flags", "limits", "cite", "phase_title"] as const;

/**
 * Where to cite the note: live (always the current version) and pinned to the commit this answer
 * was built from (`?rev=`, its text never changes), with each section's stable anchor.
 */
export function citeOf(id: string, commit: string, urls: AgentUrls) {
  const pinned = urls.pinned(id, commit);
  return {
    live: urls.note(id),
    pinned,
    sections: Object.fromEntries(SECTIONS.map((s) => [s.key, `${pinned}#${SECTION_ANCHORS[s.key]}`])) as Record<SectionKey, string>,
  };
}

/**
 * The note file with the read-only keys. With `urls` its images are at their absolute URLs (an
 * agent outside the site can fetch them; a comment says the repository keeps them relative). Served
 * over HTTP, its front matter also opens with a comment naming /llms.txt: the pointer every Markdown
 * answer starts with, placed where it leaves the file a valid note. MCP leaves the pointer out
 * (`pointer: false`): a client that reached the MCP server already has the protocol in its
 * instructions, and its note starts at `id:` like the file (docs/decisions/agent-image-urls.md).
 */
export function noteMarkdown(
  stored: Note,
  view: NoteView,
  urls: AgentUrls | undefined,
  titles: PhaseTitles,
  { pointer = true }: { pointer?: boolean } = {},
): string {
  const note = withoutSeparators(stored);
  const file = serializeNote(urls ? withAbsoluteImages(note, urls) : note);
  const cite = urls ? { cite: { live: urls.note(note.id), pinned: urls.pinned(note.id, view.commit) } } : {};
  const title = phaseTitleField(titles, note.phase);
  const added = YAML.stringify(
    { commit: view.commit, status_meaning: STATUS_MEANING[note.status], flags: limitFlags(note), limits: limitsOf(note), ...cite, ...title },
    { lineWidth: 0, flowCollectionPadding: false },
  );
  // The note file's front matter ends at its second "---" line; the read-only keys go just before it.
  const close = file.indexOf("\n---\n", 3);
  const images =
    urls && imagesOf(note).some((i) => parseAssetPath(i.src))
      ? `# Image URLs are absolute here; the file in the repository references them as assets/${note.id}/<hash>.<ext>.\n`
      : "";
  const anchors = `# Each section's stable anchor, here and on the page: ${SECTIONS.map((s) => `#${SECTION_ANCHORS[s.key]}`).join(", ")}.\n`;
  const listed = READ_ONLY_KEYS.filter((k) => k !== "phase_title" || title.phase_title);
  const comment = `# Read-only, added for agents (remove ${listed.join(", ")} before committing this file back):\n${images}${urls ? anchors : ""}`;
  const index = urls && pointer ? `# For agents: the index of this archive is ${urls.llms}\n` : "";
  return `---\n${index}${file.slice(4, close + 1)}${comment}${added}${file.slice(close + 1)}`;
}

export function noteJson(stored: Note, view: NoteView, urls: AgentUrls, titles: PhaseTitles): NoteDocument {
  const note = withoutSeparators(stored);
  return {
    ...note,
    ...phaseTitleField(titles, note.phase),
    status: note.status as NoteDocument["status"],
    commit: view.commit,
    status_meaning: STATUS_MEANING[note.status],
    boundary_meanings: note.boundaries.map((b) => ({ boundary: b, meaning: BOUNDARY_MEANING[b] })),
    flags: limitFlags(note),
    limits: limitsOf(note),
    backlinks: view.backlinks.get(note.id) ?? [],
    images: imagesOf(note).map((i) => ({ section: i.field.replace(/^sections\./, ""), alt: i.alt, url: imageUrl(i.src, urls) })),
    cite: citeOf(note.id, view.commit, urls),
    urls: {
      html: urls.note(note.id),
      md: urls.noteAs(note.id, "md"),
      txt: urls.noteAs(note.id, "txt"),
      json: urls.noteAs(note.id, "json"),
      capsule_md: urls.capsule(note.id, "md"),
      capsule_json: urls.capsule(note.id, "json"),
    },
  };
}

/** Plain prose: labelled lines for what the front matter says, then each written section under its name. */
export function noteText(note: Note, view: NoteView, urls: AgentUrls, titles: PhaseTitles): string {
  const head = [
    `${note.id}: ${note.title}`,
    "",
    `Status: ${note.status}. ${STATUS_MEANING[note.status]}`,
    ...note.boundaries.map((b) => `Boundary: ${b}. ${BOUNDARY_MEANING[b]}`),
    flagsLine(limitFlags(note)),
    ...(note.superseded_by ? [`Superseded by: ${note.superseded_by}`] : []),
    ...(note.retraction_reason ? [`Retraction reason: ${note.retraction_reason}`] : []),
    `Phase: ${phaseWords(titles, note.phase)}`,
    ...(note.tags.length ? [`Tags: ${note.tags.join(", ")}`] : []),
    ...(note.core ? [`Core decision ${note.core.rank}: ${note.core.label}`] : []),
    ...(note.related.length ? [`Related: ${note.related.join(", ")}`] : []),
    ...(note.affects.length ? [`Governs: ${note.affects.join(", ")}`] : []),
    `Source: ${urls.note(note.id)} (commit ${view.commit})`,
    `Pinned: ${urls.pinned(note.id, view.commit)} (this text, whatever changes later)`,
    "",
    "Summary",
    note.summary,
  ];
  const body = SECTIONS.flatMap(({ key, heading }) => {
    const text = markdownToText(note.sections[key], (src) => imageUrl(src, urls));
    return text ? ["", heading, text] : [];
  });
  return `${[...head, ...body].join("\n")}\n`;
}

/**
 * The note with each Unicode line or paragraph separator in its sections as a space: a note already
 * in git may hold one (a save refuses them, lib/notes/section-shape.ts), and an agent that splits
 * lines the Unicode way would read a `## Evidence` after it as a section of its own.
 */
function withoutSeparators(note: Note): Note {
  const sections = Object.entries(note.sections);
  if (!sections.some(([, v]) => /[\u0085\u2028\u2029]/.test(v))) return note;
  return { ...note, sections: Object.fromEntries(sections.map(([k, v]) => [k, withoutLineSeparators(v)])) as Note["sections"] };
}

/** Where an agent fetches an image: the note's own assets at this site's /assets/…, anything else as written. */
export function imageUrl(src: string, urls: AgentUrls): string {
  return parseAssetPath(src) ? `${urls.base}/${src}` : src;
}

/** The note with each of its images (`![alt](assets/…)`, `[ref]: assets/…`) at its absolute URL, for readers outside the site. */
function withAbsoluteImages(note: Note, urls: AgentUrls): Note {
  if (!imagesOf(note).length) return note;
  const absolute = (text: string) =>
    text.replace(
      /(\]\(\s*<?|\]:[ \t]*<?)(assets\/[A-Z][A-Z0-9]*-\d{3,}\/[0-9a-f]{40}\.(?:png|jpg|webp|gif|svg))/g,
      (_, lead: string, path: string) => `${lead}${imageUrl(path, urls)}`,
    );
  return { ...note, sections: Object.fromEntries(Object.entries(note.sections).map(([k, v]) => [k, absolute(v)])) as Note["sections"] };
}
