import { diffArrays, diffLines, diffWordsWithSpace, type Change } from "diff";
import type { Note } from "@/lib/notes/schema";
import type { PhaseTitles } from "@/lib/phases/schema";
import { comparableFields, type FieldValue } from "./fields";

/**
 * What changed between two revisions of a note, field by field and section by section: words for
 * text, items for lists. Long unchanged stretches are folded into a "gap" that keeps the text, so
 * the page can show it on demand (a <details>, no script) while the changes stay in view.
 */

export type DiffPart = { kind: "same" | "added" | "removed" | "gap"; text: string };
export type FieldDiff = {
  field: string;
  label: string;
  change: "added" | "removed" | "changed";
  list: boolean;
  parts: DiffPart[];
};

const CONTEXT = 120; // characters of unchanged text kept on each side of a change
const FOLD = CONTEXT * 2 + 80; // unchanged text longer than this is folded

/**
 * Changes from `before` to `after` (null before: the note's first revision, every field added);
 * `titles`, the renamed phases of the commit read, name a phase by its title (./fields.ts).
 */
export function diffNotes(before: Note | null, after: Note, titles: PhaseTitles = {}): FieldDiff[] {
  const old = new Map(before ? comparableFields(before, titles).map((f) => [f.field, f]) : []);
  const out: FieldDiff[] = [];
  for (const field of comparableFields(after, titles)) {
    const diff = diffField(old.get(field.field), field);
    if (diff) out.push(diff);
  }
  return out;
}

function diffField(before: FieldValue | undefined, after: FieldValue): FieldDiff | null {
  const base = { field: after.field, label: after.label, list: after.kind === "list" };
  if (after.kind === "list") {
    const was = before?.kind === "list" ? before.value : [];
    if (sameList(was, after.value)) return null;
    const parts = diffArrays(was, after.value).flatMap((c) => c.value.map((text) => ({ kind: kindOf(c), text })));
    return { ...base, change: change(was.length > 0, after.value.length > 0), parts };
  }
  const was = before?.kind === "text" ? before.value : "";
  if (was === after.value) return null;
  return { ...base, change: change(was !== "", after.value !== ""), parts: fold(textDiff(was, after.value)) };
}

function textDiff(before: string, after: string): DiffPart[] {
  // Word diffs read best; on very long, very different text fall back to whole lines.
  const words = diffWordsWithSpace(before, after, { timeout: 200 });
  const changes: Change[] = words ?? diffLines(before, after);
  const parts: DiffPart[] = [];
  for (const c of changes) {
    const kind = kindOf(c);
    const prev = parts.at(-1);
    if (prev?.kind === kind) prev.text += c.value;
    else parts.push({ kind, text: c.value });
  }
  return parts;
}

/** Folds the middle of long unchanged runs, keeping some context next to each change. */
function fold(parts: DiffPart[]): DiffPart[] {
  if (parts.every((p) => p.kind === "same")) return parts;
  return parts.flatMap((p, i): DiffPart[] => {
    if (p.kind !== "same" || p.text.length <= FOLD) return [p];
    const keepBefore = i > 0 ? CONTEXT : 0; // context after the previous change
    const keepAfter = i < parts.length - 1 ? CONTEXT : 0; // context before the next change
    const head = cut(p.text, keepBefore, "end");
    const tail = cut(p.text, keepAfter, "start");
    const gap = p.text.slice(head.length, p.text.length - tail.length);
    if (gap.length < 40) return [p]; // folding would hide less than it costs to show the fold
    return [
      ...(head ? [{ kind: "same" as const, text: head }] : []),
      { kind: "gap" as const, text: gap },
      ...(tail ? [{ kind: "same" as const, text: tail }] : []),
    ];
  });
}

/** About `n` characters from one end of `text`, ending at a word boundary. */
function cut(text: string, n: number, from: "start" | "end"): string {
  if (n === 0) return "";
  if (from === "end") {
    const space = text.indexOf(" ", n);
    return text.slice(0, space < 0 ? n : space);
  }
  const space = text.lastIndexOf(" ", text.length - n);
  return text.slice(space < 0 ? text.length - n : space);
}

function kindOf(c: { added: boolean; removed: boolean }): DiffPart["kind"] {
  return c.added ? "added" : c.removed ? "removed" : "same";
}

function change(had: boolean, has: boolean): FieldDiff["change"] {
  return !had ? "added" : !has ? "removed" : "changed";
}

function sameList(a: string[], b: string[]) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
