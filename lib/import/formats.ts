import YAML from "yaml";
import { fenceStep } from "@/lib/notes/fences";

/**
 * Reading one architecture decision record as its format wrote it: Nygard / adr-tools, MADR 2–4,
 * log4brains, or Markdown with YAML front matter. Pure: text in, a record (or the reason it is
 * not one) out. Nothing is interpreted here beyond where each piece of text sits; the mapping to
 * a note is ./mapping.ts.
 */

export const FORMATS = ["nygard", "madr", "log4brains", "front-matter"] as const;
export type Format = (typeof FORMATS)[number];

/** A level-2 section of the record, verbatim. `line` is the heading's line in the file (1-based). */
export type SourceSection = { heading: string; text: string; line: number; textLine: number };

/** A metadata line or front-matter key the record gave (Date, Deciders, Tags, …), verbatim. */
export type SourceField = { key: string; value: string; line: number };

export type SourceRecord = {
  file: string;
  format: Format;
  /** The record's own number (`# 12. Title`, `0012-title.md`), or null when it has none. */
  number: number | null;
  title: string;
  /** The status words as written (`✅ Accepted`), or null. */
  status: string | null;
  statusLine: number | null;
  date: string | null;
  tags: string[];
  /** Targets (file names or numbers as written) the record says it supersedes / is superseded by. */
  supersedes: string[];
  supersededBy: string[];
  /** Front matter `affects:` (adrkit's field): what the record governs, judged by the note's rules when mapped. */
  affects: string[];
  /** Metadata the note has no field for (deciders, date, unknown front-matter keys): kept in Notes. */
  fields: SourceField[];
  /** Text between the title and the first section that is not metadata. */
  preamble: string;
  sections: SourceSection[];
};

export type NotARecord = { file: string; reason: string; line: number };

const META_KEYS = new Set([
  "status",
  "date",
  "deciders",
  "authors",
  "tags",
  "consulted",
  "informed",
  "technical story",
  "supersedes",
  "superseded by",
  "superseded-by",
]);

/** One file's text as a record, or why it is not one. */
export function readRecord(file: string, text: string): { ok: true; record: SourceRecord } | { ok: false; problem: NotARecord } {
  const source = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const lines = source.split("\n");
  const front = readFrontMatter(lines);
  if (!front.ok) return { ok: false, problem: { file, line: front.line, reason: front.reason } };
  const bodyStart = front.end;
  const body = splitBody(lines, bodyStart);
  const titleLine = body.title;
  const headings = new Set(body.sections.map((s) => s.heading.toLowerCase()));
  const metaLines = readMetaLines(body.preambleLines);

  const format = detect(front.data !== null, headings, metaLines, titleLine?.text ?? "");
  if (!format) {
    return {
      ok: false,
      problem: {
        file,
        line: 1,
        reason: "not a decision record: no front matter with a status or date, no `## Status` or `## Decision` section, no `* Status:` line",
      },
    };
  }

  const fm = front.data ?? {};
  const fields: SourceField[] = [];
  const tags: string[] = [];
  let status: string | null = null;
  let statusLine: number | null = null;
  let date: string | null = null;
  const supersedes: string[] = [];
  const supersededBy: string[] = [];
  const affects: string[] = [];
  let title = stripNumber(titleLine?.text ?? "").title;
  let number = numberOf(file, titleLine?.text ?? "");

  for (const [key, value] of Object.entries(fm)) {
    const line = front.keyLines.get(key) ?? 2;
    const k = key.toLowerCase();
    if (k === "status") [status, statusLine] = [scalar(value), line];
    else if (k === "title" && !titleLine) title = scalar(value);
    else if (k === "tags") tags.push(...list(value));
    else if (k === "supersedes") supersedes.push(...list(value));
    else if (k === "superseded_by" || k === "superseded-by" || k === "supersededby") supersededBy.push(...list(value));
    else if (k === "affects") affects.push(...list(value));
    else if ((k === "number" || k === "id") && /^\d+$/.test(scalar(value))) number ??= Number(scalar(value));
    else {
      if (k === "date") date = scalar(value);
      fields.push({ key, value: typeof value === "string" ? value : YAML.stringify(value).trim(), line });
    }
  }
  for (const m of metaLines) {
    const k = m.key.toLowerCase();
    if (k === "status") {
      [status, statusLine] = [m.value, m.line];
      if (/superseded[ -]by/i.test(m.value)) supersededBy.push(...linkTargets(m.value.replace(/^.*?superseded[ -]by:?/i, "")));
    } else if (k === "tags")
      tags.push(
        ...m.value
          .split(",")
          .map((t) => t.trim())
          .filter(Boolean),
      );
    else {
      if (k === "date") date ??= m.value;
      if (k === "supersedes") supersedes.push(...linkTargets(m.value));
      if (k === "superseded by" || k === "superseded-by") supersededBy.push(...linkTargets(m.value));
      fields.push({ key: m.key, value: m.value, line: m.line });
    }
  }
  const sections: SourceSection[] = [];
  for (const s of body.sections) {
    if (s.heading.toLowerCase() === "status" && status === null) {
      const first = s.text.split("\n").find((l) => l.trim() !== "");
      status = first ? first.trim() : null;
      statusLine = s.line;
    }
    sections.push(s);
  }
  // "Superseded by [3. Title](0003-title.md)" and "Supersedes [...]" lines, wherever they are.
  for (const s of [body.preamble, ...sections.map((x) => x.text)]) {
    for (const m of s.matchAll(/^\s*[*-]?\s*(Superseded[ -]by|Supersedes)\b:?\s*(.*)$/gim)) {
      const targets = linkTargets(m[2] ?? "");
      ((m[1] ?? "").toLowerCase().startsWith("supersedes") ? supersedes : supersededBy).push(...targets);
    }
  }

  const preamble = body.preambleLines
    .filter((l) => !metaLines.some((m) => m.line === l.line))
    .map((l) => l.text)
    .join("\n")
    .trim();
  if (!title) return { ok: false, problem: { file, line: 1, reason: "the record has no title (`# Title` or `title:`)" } };
  return {
    ok: true,
    record: { file, format, number, title, status, statusLine, date, tags, supersedes, supersededBy, affects, fields, preamble, sections },
  };
}

function detect(hasFront: boolean, headings: Set<string>, meta: MetaLine[], title: string): Format | null {
  const keys = new Set(meta.map((m) => m.key.toLowerCase()));
  const madrHeadings = headings.has("context and problem statement") || headings.has("decision outcome") || headings.has("considered options");
  if (keys.has("deciders") && (keys.has("date") || keys.has("tags")) && /^-/.test(meta.find((m) => m.key.toLowerCase() === "deciders")?.raw ?? "")) {
    return "log4brains";
  }
  if (madrHeadings || keys.has("status")) return "madr";
  if (hasFront) return "front-matter";
  if (headings.has("status") && (headings.has("decision") || headings.has("context")) && /^\s*\d+\.\s/.test(title)) return "nygard";
  if (headings.has("status") && headings.has("decision")) return "nygard";
  return null;
}

type Line = { text: string; line: number };

function splitBody(lines: string[], start: number): { title: Line | null; preambleLines: Line[]; preamble: string; sections: SourceSection[] } {
  let title: Line | null = null;
  const preambleLines: Line[] = [];
  const sections: SourceSection[] = [];
  let current: { heading: string; line: number; buffer: string[] } | null = null;
  let fence: string | null = null;
  const flush = () => {
    if (current) {
      const blank = current.buffer.findIndex((l) => l.trim() !== "");
      sections.push({
        heading: current.heading,
        line: current.line,
        textLine: current.line + 1 + Math.max(0, blank),
        text: trimBlank(current.buffer.join("\n")),
      });
    }
  };
  for (let i = start; i < lines.length; i++) {
    const l = lines[i] ?? "";
    const step = fenceStep(fence, l);
    const outside = fence === null && !step.isFence;
    fence = step.fence;
    const h1: RegExpExecArray | null = outside && title === null && current === null ? /^# +(.+?)\s*#*\s*$/.exec(l) : null;
    if (h1) {
      title = { text: (h1[1] ?? "").trim(), line: i + 1 };
      continue;
    }
    const h2 = outside ? /^## +(.+?)\s*#*\s*$/.exec(l) : null;
    if (h2) {
      flush();
      current = { heading: (h2[1] ?? "").trim(), line: i + 1, buffer: [] };
      continue;
    }
    if (current) current.buffer.push(l);
    else preambleLines.push({ text: l, line: i + 1 });
  }
  flush();
  return { title, preambleLines, preamble: trimBlank(preambleLines.map((l) => l.text).join("\n")), sections };
}

type MetaLine = SourceField & { raw: string };

/** `Date: 2020-01-01`, `* Status: accepted`, `- Deciders: Ann, Bo` in the preamble. */
function readMetaLines(lines: Line[]): MetaLine[] {
  const out: MetaLine[] = [];
  for (const l of lines) {
    const m = /^\s*([*-]\s+)?([A-Za-z][A-Za-z -]{1,30}?):\s*(.+?)\s*$/.exec(l.text);
    if (m && META_KEYS.has((m[2] ?? "").toLowerCase())) out.push({ key: (m[2] ?? "").trim(), value: (m[3] ?? "").trim(), line: l.line, raw: l.text.trim() });
  }
  return out;
}

type Front = { ok: true; data: Record<string, unknown> | null; end: number; keyLines: Map<string, number> } | { ok: false; line: number; reason: string };

function readFrontMatter(lines: string[]): Front {
  if (lines[0]?.trimEnd() !== "---") return { ok: true, data: null, end: 0, keyLines: new Map() };
  const close = lines.findIndex((l, i) => i > 0 && l.trimEnd() === "---");
  if (close < 0) return { ok: false, line: 1, reason: "the front matter is never closed with a '---' line" };
  const text = lines.slice(1, close).join("\n");
  const doc = YAML.parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length) {
    const e = doc.errors[0]!;
    const line = 2 + (text.slice(0, e.pos[0]).match(/\n/g)?.length ?? 0);
    return { ok: false, line, reason: `front matter does not parse: ${e.message.split("\n")[0]}` };
  }
  const data = doc.toJS() as unknown;
  if (data === null || data === undefined) return { ok: true, data: {}, end: close + 1, keyLines: new Map() };
  if (typeof data !== "object" || Array.isArray(data)) return { ok: false, line: 2, reason: "front matter must be a mapping of fields (key: value)" };
  const keyLines = new Map<string, number>();
  lines.slice(1, close).forEach((l, i) => {
    const k = /^([^\s:#][^:]*):/.exec(l);
    if (k) keyLines.set((k[1] ?? "").trim(), i + 2);
  });
  return { ok: true, data: data as Record<string, unknown>, end: close + 1, keyLines };
}

/** "12. Use Postgres" → 12, "Use Postgres"; a file named 0012-use-postgres.md also gives 12. */
export function stripNumber(title: string): { number: number | null; title: string } {
  const m = /^(?:ADR[- ]?)?(\d+)[.:]?\s+(.+)$/i.exec(title.trim());
  return m ? { number: Number(m[1]), title: (m[2] ?? "").trim() } : { number: null, title: title.trim() };
}

function numberOf(file: string, title: string): number | null {
  const fromTitle = stripNumber(title).number;
  if (fromTitle !== null) return fromTitle;
  const base = file.split("/").pop() ?? file;
  // adr-tools and MADR: 0012-title.md; log4brains' dated names (20200101-title.md) are not numbers.
  const m = /^(?:adr[-_]?)?(\d{1,5})[-_.]/i.exec(base);
  return m ? Number(m[1]) : null;
}

/** Link targets in a line: `[x](0003-y.md)` targets, else the bare words (`ADR-3`, `0003-y.md`). */
export function linkTargets(text: string): string[] {
  const links = [...text.matchAll(/\[[^\]]*\]\(([^)\s]+)[^)]*\)/g)].map((m) => m[1] ?? "");
  if (links.length) return links;
  return text
    .split(/[,\s]+/)
    .map((t) => t.replace(/^\[|\]$/g, ""))
    .filter((t) => /\d/.test(t));
}

const scalar = (v: unknown): string => (v === null || v === undefined ? "" : v instanceof Date ? v.toISOString().slice(0, 10) : String(v).trim());
const list = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.map(scalar).filter(Boolean)
    : scalar(v)
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);

function trimBlank(s: string): string {
  return s.replace(/^(?:[ \t]*\n)+/, "").replace(/\s+$/, "");
}

/** A link or image the record makes to a relative path (not a URL, not an anchor, not a site path). */
export type RelativeLink = { target: string; line: number; image: boolean; alt: string };

export function relativeLinks(text: string): RelativeLink[] {
  const out: RelativeLink[] = [];
  let fence: string | null = null;
  text.split(/\r\n?|\n/).forEach((l, i) => {
    const step = fenceStep(fence, l);
    const inside = fence !== null || step.isFence;
    fence = step.fence;
    if (inside) return;
    for (const m of l.matchAll(/(!?)\[([^\]]*)\]\(([^)\s]+)[^)]*\)/g)) {
      const target = m[3] ?? "";
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#") || target.startsWith("/")) continue;
      out.push({ target, line: i + 1, image: m[1] === "!", alt: (m[2] ?? "").trim() });
    }
  });
  return out;
}
