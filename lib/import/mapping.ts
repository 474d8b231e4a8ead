import { emptySections } from "@/lib/notes/markdown";
import { demoteQuietHeadings } from "@/lib/notes/section-headings";
import { affectsEntrySchema, SECTIONS, type Note, type SectionKey, type Sections } from "@/lib/notes/schema";
import { affectsProblems } from "@/lib/rules/affects";
import { tagHasPage } from "@/lib/web/urls";
import type { SourceRecord } from "./formats";

/**
 * A record's text as a note's fields (docs/decisions/adr-import-mapping.md). Sections whose
 * heading the table knows go to that field; every other piece of text (context, drivers, the
 * status section, metadata lines, unknown front matter) goes verbatim into Notes under a heading
 * of its own, so no text of the record is lost. Pure.
 */

/** Lower-cased source headings → the note's field. Anything else goes to Notes. */
export const SECTION_MAP: Record<string, SectionKey> = {
  decision: "decision",
  "decision outcome": "decision",
  invariant: "invariant",
  invariants: "invariant",
  "considered options": "rejectedShortcut",
  "pros and cons of the options": "rejectedShortcut",
  "rejected shortcut": "rejectedShortcut",
  "rejected options": "rejectedShortcut",
  alternatives: "rejectedShortcut",
  evidence: "evidence",
  validation: "evidence",
  consequences: "claimBoundary",
  "claim boundary": "claimBoundary",
};

/** `["Decision Drivers=invariant", …]` as a table over SECTION_MAP; a field this note does not have is an error naming it. */
export function sectionTable(overrides: readonly string[]): Record<string, SectionKey> {
  const keys = new Map<string, SectionKey>(SECTIONS.flatMap((s) => [[s.key.toLowerCase(), s.key] as const, [s.heading.toLowerCase(), s.key] as const]));
  const table: Record<string, SectionKey> = {};
  for (const o of overrides) {
    const m = /^([^=]+)=(.+)$/.exec(o);
    const key = keys.get((m?.[2] ?? "").trim().toLowerCase());
    if (!m || !key) throw new Error(`--section ${o}: expected Heading=field, where field is one of ${SECTIONS.map((s) => s.heading).join(", ")}`);
    table[(m[1] ?? "").trim().toLowerCase()] = key;
  }
  return table;
}

/** Headings whose first paragraph is the note's summary, first found first. */
const SUMMARY_FROM = ["context and problem statement", "context", "decision", "decision outcome"];

export type FieldFill = { field: string; from: string[] };

export type Mapped = {
  note: Omit<Note, "status">;
  filled: FieldFill[];
  empty: string[];
  /** Headings whose `# …` or underlined headings were written as `### …` (the note reserves levels 1–2). */
  demoted: string[];
  droppedTags: string[];
};

export type MapOptions = {
  id: string;
  order: number;
  phase: string;
  /** A link target of the source (`0003-x.md`, `ADR-3`) → the note id it now is, or null. */
  resolve: (target: string) => string | null;
  /**
   * An image's relative path in the source record → the asset it was imported as
   * (`assets/<id>/<blob>.<ext>`) and the alt text it is shown with, or null: not imported, named in words.
   */
  image?: (target: string, alt: string) => { src: string; alt: string } | null;
  /** `--section "Decision Drivers=invariant"`: lower-cased headings over SECTION_MAP. */
  sections?: Readonly<Record<string, SectionKey>>;
  provenance: string;
};

export function mapRecord(record: SourceRecord, opts: MapOptions): Mapped {
  const parts: Record<SectionKey, { heading: string; text: string }[]> = {
    decision: [],
    invariant: [],
    rejectedShortcut: [],
    evidence: [],
    claimBoundary: [],
    notes: [],
  };
  if (record.preamble) parts.notes.push({ heading: "Preamble", text: record.preamble });
  const table = { ...SECTION_MAP, ...opts.sections };
  for (const s of record.sections) parts[table[s.heading.toLowerCase()] ?? "notes"].push({ heading: s.heading, text: s.text });

  const tags = cleanTags(record.tags);
  const affects = cleanAffects(record.affects);
  const details = record.fields.map((f) => `- ${f.key}: ${oneLine(f.value)}`);
  if (tags.dropped.length) details.push(`- Tags not kept as tags: ${tags.dropped.join(", ")}`);
  if (affects.dropped.length) details.push(`- Affects entries not kept (the note's rules refuse them): ${affects.dropped.join(", ")}`);
  if (details.length) parts.notes.push({ heading: "Record details", text: details.join("\n") });

  const sections: Sections = emptySections();
  const filled: FieldFill[] = [];
  const demoted: string[] = [];
  for (const { key, heading } of SECTIONS) {
    const list = parts[key];
    if (!list.length) continue;
    filled.push({ field: heading, from: list.map((p) => p.heading) });
    sections[key] = list
      .map((p, i) => {
        const fixed = demoteQuietHeadings(rewriteLinks(p.text, opts.resolve, opts.image));
        if (fixed.demoted.length) demoted.push(p.heading);
        // The first source section of a field is the field; the next ones keep their own heading.
        return key !== "notes" && i === 0 ? fixed.text : `### ${p.heading}\n\n${fixed.text}`;
      })
      .join("\n\n");
  }

  const superseders = record.supersededBy.map(opts.resolve).filter((x): x is string => x !== null && x !== opts.id);
  const supersedes = record.supersedes.map(opts.resolve).filter((x): x is string => x !== null && x !== opts.id);
  const related = [...new Set([...supersedes, ...superseders])];
  const note: Omit<Note, "status"> = {
    id: opts.id,
    title: oneLine(record.title).slice(0, 200),
    summary: summaryOf(record, sections),
    boundaries: [],
    phase: opts.phase,
    tags: tags.kept,
    order: opts.order,
    related,
    affects: affects.kept,
    ...(superseders[0] ? { superseded_by: superseders[0] } : {}),
    provenance: { source: "author", detail: oneLine(opts.provenance).slice(0, 500) },
    sections,
  };
  const empty = SECTIONS.filter((s) => !sections[s.key]).map((s) => s.heading);
  return { note, filled, empty, demoted, droppedTags: tags.dropped };
}

/**
 * `[3. Use X](0003-use-x.md)` → `[3. Use X](/notes/ADR-003)`; other links are left as written. An
 * image by a relative path is not copied (yet): it becomes words naming it, since the images rule
 * refuses a note showing a file that is not one of its assets.
 */
export function rewriteLinks(text: string, resolve: (target: string) => string | null, image?: MapOptions["image"]): string {
  text = text.replace(/!\[([^\]]*)\]\(([^)\s]+)[^)]*\)/g, (all, alt: string, target: string) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/")) return all;
    const asset = image?.(target, alt.trim()) ?? null;
    if (asset) return `![${asset.alt.replace(/[\\[\]]/g, "\\$&")}](${asset.src})`;
    return `(image not imported: ${alt ? `${alt}, ` : ""}${target})`;
  });
  // Not images (`![…](…)`): they are files, not records.
  return text.replace(/(?<!!)(\[[^\]]*\]\()([^)\s]+)(\s[^)]*)?\)/g, (all, open: string, target: string, rest: string | undefined) => {
    if (/^[a-z]+:/i.test(target) || target.startsWith("#")) return all;
    const id = resolve(target);
    return id ? `${open}/notes/${id}${rest ?? ""})` : all;
  });
}

function summaryOf(record: SourceRecord, sections: Sections): string {
  const byHeading = new Map(record.sections.map((s) => [s.heading.toLowerCase(), s.text]));
  const from = SUMMARY_FROM.map((h) => byHeading.get(h)).find((t) => t && t.trim()) ?? sections.decision ?? "";
  const paragraph = (from.split(/\n\s*\n/).find((p) => /\w/.test(p) && !/^\s*(```|~~~|\||#)/.test(p)) ?? "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^[\s>*-]+/gm, "");
  const line = oneLine(paragraph);
  if (!line) return oneLine(record.title).slice(0, 600);
  return line.length <= 600 ? line : `${line.slice(0, 599).replace(/\s+\S*$/, "")}…`;
}

function cleanTags(raw: string[]): { kept: string[]; dropped: string[] } {
  const kept: string[] = [];
  const dropped: string[] = [];
  const seen = new Set<string>();
  for (const t of raw.map(oneLine)) {
    if (seen.has(t.toLowerCase())) continue;
    seen.add(t.toLowerCase());
    if (t && t.length <= 60 && tagHasPage(t) && kept.length < 20) kept.push(t);
    else if (t) dropped.push(t);
  }
  return { kept, dropped };
}

const oneLine = (s: string) =>
  s
    .replace(/[\u0000-\u001f\u007f\u2028\u2029\u0085]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/** `affects:` entries the note's rules accept are kept; the others stay in Notes, in words. */
const MAX_AFFECTS = 50; // the schema's limit

function cleanAffects(entries: readonly string[]): { kept: string[]; dropped: string[] } {
  const shaped = [...new Set(entries.map((e) => e.trim()))].filter((e) => affectsEntrySchema.safeParse(e).success);
  const refused = new Set(affectsProblems(shaped).map((p) => p.index));
  const kept = shaped.filter((_, i) => !refused.has(i)).slice(0, MAX_AFFECTS);
  return { kept, dropped: entries.filter((e) => !kept.includes(e.trim())) };
}
