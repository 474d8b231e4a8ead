import YAML, { isCollection, isNode, isScalar, visit, type Document, type YAMLError } from "yaml";
import type { z } from "zod";
import { readCanonicalFrontMatter } from "./canonical-front-matter";
import { demoteQuietHeadings, reservedHeadingMessage } from "./section-headings";
import { fenceStep } from "./fences";
import { normalizeSection, noteSchema, SECTIONS, type Note, type NoteInput, type SectionKey, type Sections } from "./schema";

/**
 * The note file: YAML front matter between `---` lines, then the fixed level-2 sections.
 * `parseNote(serializeNote(n))` gives back `n` for every valid note; malformed files come back as
 * errors with a line and a field, never as a throw.
 */

export type NoteError = { line: number; field: string; message: string };
/**
 * `demoted`: headings the file wrote inside a section as `# …` or underlined with ---/===, which
 * the note carries as `### …` (see parseSections); the studio refuses them, content:check reports them.
 */
export type ParseResult = { ok: true; note: Note; demoted?: NoteError[] } | { ok: false; errors: NoteError[] };

const FRONT_MATTER_KEYS = [
  "id",
  "title",
  "summary",
  "status",
  "boundaries",
  "phase",
  "tags",
  "order",
  "core",
  "related",
  "affects",
  "superseded_by",
  "retraction_reason",
  "provenance",
] as const;

const HEADING_TO_KEY = new Map<string, SectionKey>(SECTIONS.map((s) => [s.heading.toLowerCase(), s.key]));

export function emptySections(): Sections {
  return { decision: "", invariant: "", rejectedShortcut: "", evidence: "", claimBoundary: "", notes: "" };
}

export function serializeNote(input: NoteInput | Note): string {
  const note = noteSchema.parse(input);
  const front: Record<string, unknown> = {};
  for (const key of FRONT_MATTER_KEYS) {
    const value = note[key];
    // An empty `affects` is not written: files from before the field stay byte for byte the same.
    if (key === "affects" && note.affects.length === 0) continue;
    if (value !== undefined) front[key] = value;
  }
  const yaml = YAML.stringify(front, { lineWidth: 0, flowCollectionPadding: false });
  const body = SECTIONS.map(({ key, heading }) => {
    const content = normalizeSection(note.sections[key]);
    return content ? `## ${heading}\n\n${content}\n` : `## ${heading}\n`;
  }).join("\n");
  return `---\n${yaml}---\n\n${body}`;
}

export function parseNote(source: string): ParseResult {
  try {
    return parseUnsafe(source);
  } catch (e) {
    // A parser bug must not take a request down: report it against the file instead.
    return { ok: false, errors: [{ line: 1, field: "file", message: `unreadable note: ${(e as Error).message}` }] };
  }
}

function parseUnsafe(source: string): ParseResult {
  const text = source.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const lines = text.split("\n");
  if (lines[0]?.trimEnd() !== "---") {
    return fail(1, "front matter", "the file must start with a '---' line that opens the front matter");
  }
  const close = lines.findIndex((l, i) => i > 0 && l.trimEnd() === "---");
  if (close < 0) return fail(1, "front matter", "the front matter is never closed with a '---' line");

  const yamlText = lines.slice(1, close).join("\n");
  // Most files are in the canonical shape: read those without a YAML document, and fall back to
  // the library for everything else and for every error report (it knows the lines).
  const fast = readCanonicalFrontMatter(yamlText);
  if (fast) {
    const body = parseSections(lines, close + 1);
    if (body.ok) {
      const result = noteSchema.safeParse({ ...fast, sections: body.sections });
      if (result.success) return parsed(result.data, body.demoted);
    }
  }
  const lineOfOffset = offsetToLine(yamlText, 2); // YAML starts on file line 2
  const doc = YAML.parseDocument(yamlText, { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      errors: doc.errors.map((e) => ({ line: lineOfOffset(openedAt(doc, e)), field: "front matter", message: e.message.split("\n")[0] ?? e.message })),
    };
  }
  const front = doc.toJS() as unknown;
  if (front === null || typeof front !== "object" || Array.isArray(front)) {
    return fail(2, "front matter", "the front matter must be a mapping of fields (key: value)");
  }

  const body = parseSections(lines, close + 1);
  if (!body.ok) return body;

  const result = noteSchema.safeParse({ ...(front as object), sections: body.sections });
  if (result.success) return parsed(result.data, body.demoted);
  return { ok: false, errors: result.error.issues.map((issue) => locate(issue, doc, lineOfOffset, body.headingLine)) };
}

function parsed(note: Note, demoted: NoteError[]): ParseResult {
  return demoted.length ? { ok: true, note, demoted } : { ok: true, note };
}

function parseSections(
  lines: string[],
  start: number,
): { ok: true; sections: Sections; headingLine: Map<SectionKey, number>; demoted: NoteError[] } | { ok: false; errors: NoteError[] } {
  const sections = emptySections();
  const headingLine = new Map<SectionKey, number>();
  const errors: NoteError[] = [];
  const demoted: NoteError[] = [];
  let current: SectionKey | null = null;
  let buffer: string[] = [];
  let fence: string | null = null;

  const flush = () => {
    if (current) {
      // A `# …` or underlined heading inside a section is read as the h3 the page shows, never as
      // a new title or section: every format an agent reads is built from this text.
      const { text, demoted: found } = demoteQuietHeadings(normalizeSection(buffer.join("\n")));
      sections[current] = text;
      const first = (headingLine.get(current) ?? 0) + 1 + leadingBlankLines(buffer);
      const name = SECTIONS.find((s) => s.key === current)?.heading ?? current;
      for (const h of found) demoted.push({ line: first + h.line - 1, field: current, message: reservedHeadingMessage(name, h) });
    }
    buffer = [];
  };

  for (let i = start; i < lines.length; i++) {
    const l = lines[i] ?? "";
    const step = fenceStep(fence, l);
    const h = fence === null && !step.isFence ? /^## +(.+?)\s*#*\s*$/.exec(l) : null;
    fence = step.fence;
    if (h) {
      const name = (h[1] ?? "").trim();
      const key = HEADING_TO_KEY.get(name.toLowerCase());
      if (!key) {
        const known = SECTIONS.map((s) => s.heading).join(", ");
        errors.push({ line: i + 1, field: "sections", message: `unknown section "${name}"; the sections are ${known}` });
        continue;
      }
      if (headingLine.has(key)) {
        errors.push({ line: i + 1, field: key, message: `section "${name}" appears twice (first on line ${headingLine.get(key)})` });
        continue;
      }
      flush();
      current = key;
      headingLine.set(key, i + 1);
      continue;
    }
    if (current === null) {
      if (l.trim() !== "") errors.push({ line: i + 1, field: "sections", message: "text before the first section heading" });
      continue;
    }
    buffer.push(l);
  }
  flush();
  return errors.length ? { ok: false, errors } : { ok: true, sections, headingLine, demoted };
}

/** Lines normalizeSection drops from the top of a section, so a line inside it can be named in the file. */
function leadingBlankLines(lines: string[]): number {
  let n = 0;
  while (n < lines.length && /^[ \t]*$/.test(lines[n] ?? "")) n++;
  return n;
}

function locate(issue: z.core.$ZodIssue, doc: Document, lineOfOffset: (o: number) => number, headingLine: Map<SectionKey, number>): NoteError {
  const path = issue.path.map(String);
  const field = path.length ? path.join(".") : "note";
  if (path[0] === "sections") {
    const key = path[1] as SectionKey;
    return { line: headingLine.get(key) ?? 1, field: key, message: issue.message };
  }
  // Walk up the path until a node with a position exists (a missing key reports its parent).
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(issue.path.slice(0, n) as (string | number)[], true);
    if (isNode(node) && node.range) {
      const message = issue.code === "invalid_type" && n < path.length ? `${field} is missing` : issue.message;
      return { line: lineOfOffset(node.range[0]), field, message };
    }
  }
  return { line: 2, field, message: issue.message };
}

/**
 * YAML reports an unclosed quote or bracket where it gave up, often the end of the front matter;
 * the writer needs the line where it was opened: the innermost quoted value or flow list/map that
 * runs up to the error.
 */
function openedAt(doc: Document, e: YAMLError): number {
  const at = e.pos[0];
  if (e.code !== "MISSING_CHAR" && e.code !== "BAD_INDENT") return at;
  let opened = -1;
  visit(doc, (_, node) => {
    if (!isNode(node) || !node.range) return;
    const [from, , to] = node.range;
    const open = isCollection(node) ? node.flow === true : isScalar(node) && (node.type === "QUOTE_DOUBLE" || node.type === "QUOTE_SINGLE");
    if (open && from < at && at <= to && from > opened) opened = from;
  });
  return opened >= 0 ? opened : at;
}

function offsetToLine(text: string, firstLine: number) {
  return (offset: number) => {
    let line = firstLine;
    for (let i = 0; i < offset && i < text.length; i++) if (text[i] === "\n") line++;
    return line;
  };
}

function fail(line: number, field: string, message: string): ParseResult {
  return { ok: false, errors: [{ line, field, message }] };
}

export function formatErrors(file: string, errors: NoteError[]): string {
  return errors.map((e) => `${file}:${e.line}: ${e.field}: ${e.message}`).join("\n");
}
