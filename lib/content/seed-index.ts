/**
 * Reads the seed: the public index page the archive started from (fixtures/seed-index.txt), as
 * plain text. Only the two lists that define notes are read: "4 core decisions" and "All decision
 * records". The seed is the yardstick the content is held to, so any line this reader does not
 * expect is an error with its line number, never a silent skip.
 */

export type SeedRecord = {
  id: string;
  /** The status words as printed, e.g. "verified checkpoint". */
  status: string;
  title: string;
  summary: string;
  /** The phase line as printed, label included, e.g. "Phase 6 architecture". */
  phase: string;
  tags: string[];
};

export type SeedCore = { rank: number; label: string; id: string; title: string; summary: string; status: string };

export type SeedIndex = { noteCount: number; recordCount: number; core: SeedCore[]; records: SeedRecord[] };

type Line = { n: number; text: string };

export function parseSeedIndex(source: string): SeedIndex {
  const lines: Line[] = source
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((text, i) => ({ n: i + 1, text: text.trim() }))
    .filter((l) => l.text !== "");

  const noteCount = countBefore(lines, / notes · /, "the notes count (\"21 notes · …\")");
  const coreStart = indexOf(lines, (t) => /^\d+ core decisions$/.test(t), "the \"core decisions\" heading");
  const recordsStart = indexOf(lines, (t) => t === "All decision records", "the \"All decision records\" heading");
  const end = indexOf(lines, (t) => t.startsWith("For agents"), "the \"For agents\" section after the records");
  const recordCount = countBefore(lines.slice(recordsStart), /^\d+ records$/, "the records count (\"21 records\")");

  return {
    noteCount,
    recordCount,
    core: readCore(lines.slice(coreStart + 1, recordsStart)),
    records: readRecords(lines.slice(recordsStart + 2, end)),
  };
}

function readCore(lines: Line[]): SeedCore[] {
  const core: SeedCore[] = [];
  // The intro sentence sits between the heading and the first item.
  let i = lines.findIndex((l) => /^\d+\. /.test(l.text));
  if (i < 0) return core;
  while (i < lines.length) {
    const head = expect(lines, i, /^(\d+)\. (.+) (AFN-\d{3})$/, "a core item like \"1. Sparse attention AFN-016\"");
    const status = expect(lines, i + 3, /^(.+) Read decision →$/, "the status line ending in \"Read decision →\"");
    core.push({
      rank: Number(head[1]),
      label: head[2] ?? "",
      id: head[3] ?? "",
      title: at(lines, i + 1),
      summary: at(lines, i + 2),
      status: status[1] ?? "",
    });
    i += 4;
  }
  return core;
}

function readRecords(lines: Line[]): SeedRecord[] {
  const records: SeedRecord[] = [];
  let i = 0;
  while (i < lines.length) {
    const head = expect(lines, i, /^\d+\. (AFN-\d{3}) (.+)$/, "a record like \"1. AFN-021 hypothesis\"");
    expect(lines, i + 3, /^Phase .+$/, "the phase line (\"Phase …\")");
    const record: SeedRecord = {
      id: head[1] ?? "",
      status: head[2] ?? "",
      title: at(lines, i + 1),
      summary: at(lines, i + 2),
      phase: at(lines, i + 3),
      tags: [],
    };
    i += 4;
    while (i < lines.length && lines[i]?.text.startsWith("•")) {
      record.tags.push(at(lines, i).replace(/^•\s*/, ""));
      i++;
    }
    records.push(record);
  }
  return records;
}

function at(lines: Line[], i: number): string {
  const line = lines[i];
  if (!line) throw new Error(`seed index: the text ends where line ${(lines.at(-1)?.n ?? 0) + 1} was expected`);
  return line.text;
}

function expect(lines: Line[], i: number, pattern: RegExp, what: string): RegExpExecArray {
  const text = at(lines, i);
  const m = pattern.exec(text);
  if (!m) throw new Error(`seed index line ${lines[i]?.n}: expected ${what}, found "${text}"`);
  return m;
}

function indexOf(lines: Line[], test: (t: string) => boolean, what: string): number {
  const i = lines.findIndex((l) => test(l.text));
  if (i < 0) throw new Error(`seed index: ${what} is missing`);
  return i;
}

function countBefore(lines: Line[], pattern: RegExp, what: string): number {
  const line = lines.find((l) => pattern.test(l.text));
  const count = line ? /^(\d+)/.exec(line.text)?.[1] : undefined;
  if (!count) throw new Error(`seed index: ${what} is missing`);
  return Number(count);
}
