import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { parseNote, serializeNote, type ParseResult } from "./markdown";
import { BOUNDARIES, noteSchema, STATUSES, type NoteInput } from "./schema";

// ---- generators of valid notes ----------------------------------------------------------------
// Built to satisfy the schema by construction, so almost every sample is kept.

/** Fragments that YAML, Markdown or our own format read as something other than text. */
const HOSTILE = [
  ": ",
  "#",
  " #",
  "- ",
  "? ",
  "yes",
  "no",
  "Yes",
  "NO",
  "on",
  "off",
  "true",
  "null",
  "Null",
  "~",
  "0x1F",
  "0o17",
  "1e3",
  "-1",
  ".5",
  ".inf",
  "-.INF",
  ".nan",
  "2024-05-01",
  "12:30",
  "'",
  "''",
  '"',
  '\\"',
  "\\",
  "@",
  "`",
  "{",
  "}",
  "[",
  "]",
  ",",
  "&anchor",
  "*alias",
  "!tag",
  "!!str",
  "%",
  "%YAML 1.2",
  "|",
  ">",
  "<<",
  "---",
  "...",
  "\t",
  "## Decision",
  "```",
  "~~~",
  "<script>",
  "&amp;",
  "=",
  "0",
  "007",
  "+1",
];
/** Unicode that breaks naive code: astral emoji, ZWJ sequences, combining marks, RTL, odd spaces. */
const UNICODE = [
  "🧪",
  "👩🏽‍💻",
  "🏳️‍🌈",
  "𝔘𝔫𝔦",
  "𠜎",
  "e\u0301",
  "a\u0308\u0323",
  "\u05e2\u05d1\u05e8\u05d9\u05ea",
  "مرحبا بالعالم",
  "\u202eabc\u202c",
  "\u200f",
  "\u200d",
  "\u00a0",
  "\u2028",
  "\u2029",
  "\u0085",
  "\ufeff",
  "\ufffd",
  "\ufffe",
  "\uffff",
  "ß",
  "İ",
  "ﬁ",
  "Ⅻ",
  "中文",
  "한국어",
];

const piece = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 3, arbitrary: fc.constantFrom(...UNICODE) },
  { weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 8 }) },
  { weight: 2, arbitrary: fc.constantFrom("sparse attention", "Qwen4Exp", "KV cache", "PLE", "a", "b") },
);

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** At most `max` UTF-16 units, never splitting a surrogate pair. */
function cut(s: string, max: number): string {
  let out = "";
  for (const ch of s) {
    if (out.length + ch.length > max) break;
    out += ch;
  }
  return out;
}

/** A single line the schema accepts: no line breaks or control characters, trimmed, within `max`. */
function asLine(raw: string, max: number): string {
  const clean = raw
    .toWellFormed()
    .replace(/\r\n?|\n/g, " ")
    .replace(CONTROL, "")
    .trim();
  const s = cut(clean, max).trim();
  return s === "" ? "x" : s;
}

/** A line of `max` characters or close to it: long fields must survive as well as short ones. */
const longLine = (max: number) => fc.array(piece, { minLength: 1, maxLength: 6 }).map((ps) => asLine(ps.join("").repeat(max), max));

const line = (max: number) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.array(piece, { minLength: 1, maxLength: 8 }).map((ps) => asLine(ps.join(""), max)) },
    { weight: 1, arbitrary: longLine(max) },
  );

const noteId = fc
  .tuple(fc.constantFrom("AFN", "X", "Q9", "ADR"), fc.integer({ min: 0, max: 99_999 }))
  .map(([prefix, n]) => `${prefix}-${String(n).padStart(3, "0")}`);

// Section Markdown: paragraphs, lists, tables, sub-headings, rules, and fenced code that hides
// "## lines" and "---" lines. Lines outside a fence never open one and never make a level-1 or
// level-2 heading (`## …`, `# …`, or a --- / === line under a paragraph).
const textLine = fc.array(piece, { maxLength: 6 }).map((ps) => {
  const l = ps
    .join("")
    .toWellFormed()
    .replace(/\r\n?|\n/g, " ")
    .replace(CONTROL, "");
  return /^ {0,3}(#{1,2}(\s|$)|`{3,}|~{3,}|=+[ \t]*$|-+[ \t]*$)/.test(l) ? `x${l}` : l;
});
const codeLine = fc.oneof(
  textLine,
  fc.constantFrom("## Decision", "## Not a section", "---", "---\ntitle: no", "```", "```js", "~~~", "## ", "##", "  ## indented"),
);
const block = fc.oneof(
  fc.array(textLine, { minLength: 1, maxLength: 4 }).map((ls) => ls.join("\n")),
  fc.array(textLine, { minLength: 1, maxLength: 4 }).map((ls) => ls.map((l, i) => (i % 2 ? `  - ${l}` : `- ${l}`)).join("\n")),
  fc.array(textLine, { minLength: 1, maxLength: 3 }).map((ls) => `| a | b |\n| --- | --- |\n${ls.map((l) => `| ${l.replace(/\|/g, "\\|")} | 1 |`).join("\n")}`),
  textLine.map((l) => `### ${l}`),
  // A rule always follows a blank line: under a paragraph, --- makes it a level-2 heading.
  fc.constantFrom("\n---", "--- not front matter", "...", "***", "#x", "#### Top", "####### deep", "##x", "\t## tabbed"),
  // A fence of five tildes is closed only by a line of five or more tildes, so its content can hold anything else.
  fc.tuple(fc.constantFrom("", "ts", "yaml", "md"), fc.array(codeLine, { maxLength: 5 })).map(([info, ls]) => `~~~~~${info}\n${ls.join("\n")}\n~~~~~`),
  fc.array(codeLine, { maxLength: 4 }).map((ls) => `\`\`\`\`\n${ls.map((l) => l.replace(/^(\s*)`{4,}/, "$1x")).join("\n")}\n\`\`\`\``),
);
// Line endings and blank space the schema normalizes away: CRLF, leading blank lines, trailing spaces.
const section = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom("", " ", "\n\n", "\t\n  \n") },
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.constantFrom("", "\n", " \n\t\n"),
        fc.array(block, { minLength: 1, maxLength: 5 }),
        fc.constantFrom("\n\n", "\n"),
        fc.constantFrom("", "  ", "\n\n", " \t\n"),
        fc.boolean(),
      )
      .map(([lead, blocks, gap, trail, crlf]) => {
        const s = lead + blocks.join(gap) + trail;
        return crlf ? s.replace(/\n/g, "\r\n") : s;
      }),
  },
);
/** A section at the schema's 100,000-character limit (fenced, so any repeated text stays valid). */
const longSection = textLine.map((l) => {
  const body = `${l || "x"}\n`.repeat(Math.ceil(100_000 / (l.length + 1)));
  return `~~~~~\n${cut(body, 100_000 - 12).replace(/\s+$/, "")}\n~~~~~`;
});

const sections = fc.record({
  decision: fc.oneof({ weight: 20, arbitrary: section }, { weight: 1, arbitrary: longSection }),
  invariant: section,
  rejectedShortcut: section,
  evidence: section,
  claimBoundary: section,
  notes: section,
});

/** How many generated notes the schema kept: the generators are meant to build valid notes, not hope for them. */
const generated = { tried: 0, kept: 0 };

const note: fc.Arbitrary<NoteInput> = fc
  .record(
    {
      id: noteId,
      title: line(200),
      summary: line(600),
      status: fc.constantFrom(...STATUSES),
      boundaries: fc.shuffledSubarray([...BOUNDARIES]),
      phase: line(120),
      tags: fc.uniqueArray(line(60), { maxLength: 20, selector: (t) => t.toLowerCase() }),
      order: fc.oneof(fc.nat(), fc.constant(Number.MAX_SAFE_INTEGER)),
      core: fc.record({ rank: fc.integer({ min: 1, max: 99 }), label: line(60) }),
      related: fc.uniqueArray(noteId, { maxLength: 5 }),
      superseded_by: noteId,
      retraction_reason: line(600),
      provenance: fc.record({ source: fc.constantFrom("seed-index" as const, "author" as const), detail: line(500) }, { requiredKeys: ["source"] }),
      sections,
    },
    { requiredKeys: ["id", "title", "summary", "status", "phase", "order", "sections"] },
  )
  // Only the cross-field rules are left to chance (a note related to or superseded by itself).
  .filter((n) => {
    generated.tried++;
    const valid = noteSchema.safeParse(n).success;
    if (valid) generated.kept++;
    return valid;
  });

// ---- round trip ----------------------------------------------------------------------------

describe("parseNote(serializeNote(note)) gives the note back", () => {
  it("for generated notes: Unicode, YAML-hostile text, empty and very long fields, tricky Markdown", () => {
    generated.tried = generated.kept = 0;
    fc.assert(
      fc.property(note, (input) => {
        const expected = noteSchema.parse(input);
        const file = serializeNote(input);
        const parsed = parseNote(file);
        expect(parsed).toEqual({ ok: true, note: expected });
        // And the file is canonical: writing the parsed note again gives the same bytes.
        if (parsed.ok) expect(serializeNote(parsed.note)).toBe(file);
      }),
      { numRuns: 400 },
    );
    expect(generated.kept).toBeGreaterThanOrEqual(400);
    expect(generated.kept / generated.tried).toBeGreaterThan(0.9);
  });

  it("for each hostile fragment alone as title, summary, phase and tag", () => {
    for (const s of [...HOSTILE, ...UNICODE]) {
      const value = asLine(s, 60);
      const input: NoteInput = {
        id: "AFN-001",
        title: value,
        summary: value,
        status: "hypothesis",
        phase: value,
        tags: [value],
        order: 1,
        sections: { decision: value, invariant: "", rejectedShortcut: "", evidence: "", claimBoundary: "", notes: "" },
      };
      const expected = noteSchema.safeParse(input);
      if (!expected.success) continue; // e.g. "## Decision" is not valid section text
      expect(parseNote(serializeNote(input)), JSON.stringify(value)).toEqual({ ok: true, note: expected.data });
    }
  });
});

// ---- malformed files -------------------------------------------------------------------------

const VALID: NoteInput = {
  id: "AFN-016",
  title: "A sparse mask is not sparse attention",
  summary: "Selecting 2,051 keys does not make attention sparse.",
  status: "verified-checkpoint",
  phase: "Phase 6 architecture",
  tags: ["sparse attention", "Metal"],
  order: 16,
  related: ["AFN-011"],
  sections: {
    decision: "Traverse only the selected keys.",
    invariant: "No full query-by-key matrix.",
    rejectedShortcut: "Mask the dense matrix.",
    evidence: "```\n## not a heading\n```",
    claimBoundary: "Checkpoint c12 only.",
    notes: "",
  },
};

const validFile = () => serializeNote(VALID).split("\n");
/** 1-based number of the first line matching `re`. */
const lineOf = (lines: string[], re: RegExp) => lines.findIndex((l) => re.test(l)) + 1;

function errorsOf(result: ParseResult) {
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.errors;
}

describe("malformed note files come back as errors with a line and a field", () => {
  it("the valid file parses, so each case below fails for its own reason", () => {
    expect(parseNote(validFile().join("\n")).ok).toBe(true);
  });

  it("missing front matter", () => {
    const body = validFile()
      .join("\n")
      .replace(/^---\n[\s\S]*?\n---\n/, "");
    expect(errorsOf(parseNote(body))).toEqual([{ line: 1, field: "front matter", message: expect.stringMatching(/must start with a '---' line/) }]);
  });

  it("unclosed front matter", () => {
    const lines = validFile();
    const close = lines.indexOf("---", 1);
    lines.splice(close, 1);
    expect(errorsOf(parseNote(lines.join("\n")))).toEqual([{ line: 1, field: "front matter", message: expect.stringMatching(/never closed/) }]);
  });

  it.each([
    ["an unclosed flow list", /^tags:/, "tags: [sparse attention, Metal"],
    ["an unclosed flow map inside a list", /^  - AFN-011/, "  - {a: [b"],
    ["an unclosed quote inside a flow list", /^tags:/, 'tags: [a, "b'],
    ["an unclosed quote", /^summary:/, 'summary: "Selecting 2,051 keys'],
    ["a key repeated", /^phase:/, "title: again"],
    ["a bad indent", /^phase:/, "phase: Phase 6\n   architecture: x"],
  ])("a YAML syntax error (%s) on the line it is on", (_, at, replacement) => {
    const lines = validFile();
    const n = lineOf(lines, at);
    lines[n - 1] = replacement;
    const errors = errorsOf(parseNote(lines.join("\n")));
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) expect(e).toMatchObject({ line: n, field: "front matter" });
  });

  it("a wrong status, on the status line", () => {
    const lines = validFile();
    const n = lineOf(lines, /^status:/);
    lines[n - 1] = "status: published";
    expect(errorsOf(parseNote(lines.join("\n")))).toEqual([
      { line: n, field: "status", message: expect.stringMatching(/status must be one of: draft, hypothesis/) },
    ]);
  });

  it("a missing title, reported as missing", () => {
    const lines = validFile().filter((l) => !l.startsWith("title:"));
    expect(errorsOf(parseNote(lines.join("\n")))).toEqual([{ line: 2, field: "title", message: "title is missing" }]);
  });

  it("an unknown section heading, on its line", () => {
    const lines = validFile();
    const n = lineOf(lines, /^## Evidence$/);
    lines[n - 1] = "## Results";
    expect(errorsOf(parseNote(lines.join("\n")))).toEqual([{ line: n, field: "sections", message: expect.stringMatching(/unknown section "Results"/) }]);
  });

  it("a duplicate section, on the second heading, naming the first", () => {
    const lines = validFile();
    const first = lineOf(lines, /^## Decision$/);
    lines.push("", "## Decision", "", "Again.");
    expect(errorsOf(parseNote(lines.join("\n")))).toEqual([
      { line: lines.length - 2, field: "decision", message: `section "Decision" appears twice (first on line ${first})` },
    ]);
  });

  it("text before the first section", () => {
    const lines = validFile();
    const n = lineOf(lines, /^## Decision$/);
    lines.splice(n - 1, 0, "Stray words.");
    expect(errorsOf(parseNote(lines.join("\n")))).toEqual([{ line: n, field: "sections", message: "text before the first section heading" }]);
  });

  it("a level-2 heading inside a section handed to serializeNote is a zod error naming the section", () => {
    const bad = { ...VALID, sections: { ...VALID.sections, evidence: "Ran it.\n\n## Results\n\nFine." } };
    let thrown: unknown;
    try {
      serializeNote(bad);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ZodError);
    expect((thrown as ZodError).issues).toEqual([
      expect.objectContaining({ path: ["sections", "evidence"], message: expect.stringMatching(/^Evidence contains a level-2 heading/) }),
    ]);
  });

  it("an indented level-2 heading inside a section of a file is reported against that section", () => {
    const lines = validFile();
    const n = lineOf(lines, /^## Invariant$/);
    lines.splice(n + 2, 0, " ## Sneaky");
    expect(errorsOf(parseNote(lines.join("\n")))).toEqual([
      { line: n, field: "invariant", message: expect.stringMatching(/^Invariant contains a level-2 heading/) },
    ]);
  });

  it("an unclosed code fence swallows the rest and is reported against its section", () => {
    const lines = validFile();
    const n = lineOf(lines, /^## Rejected shortcut$/);
    lines.splice(n + 2, 0, "~~~ts");
    expect(errorsOf(parseNote(lines.join("\n")))).toEqual([
      { line: n, field: "rejectedShortcut", message: expect.stringMatching(/code block .* never closed/) },
    ]);
  });

  it("several problems at once are all reported", () => {
    const lines = validFile();
    lines[lineOf(lines, /^status:/) - 1] = "status: done";
    lines[lineOf(lines, /^order:/) - 1] = "order: -1";
    const errors = errorsOf(parseNote(lines.join("\n")));
    expect(errors.map((e) => e.field).sort()).toEqual(["order", "status"]);
  });
});

// ---- fuzz ------------------------------------------------------------------------------------

/** Lines that look like parts of a note, so random files reach past the first check. */
const noteishLine = fc.oneof(
  fc.constantFrom(
    "---",
    "--- ",
    "...",
    "id: AFN-001",
    "title: T",
    "summary: S",
    "status: draft",
    "status: nope",
    "phase: P",
    "order: 1",
    "order: -3",
    "tags: [a, A]",
    "tags: [",
    "core: { rank: 0 }",
    "related: [AFN-001]",
    "superseded_by: AFN-001",
    "boundaries: [x]",
    "provenance: { source: seed-index }",
    "unknown: 1",
    "- item",
    "? key",
    "&a x",
    "*a",
    "!!binary x",
    "  indented: y",
    "\t",
    "## Decision",
    "## Invariant",
    "## Evidence",
    "## Notes",
    "## Claim boundary",
    "## Rejected shortcut",
    "## decision ##",
    "## Other",
    "##",
    "```",
    "~~~",
    "````",
    " ## x",
    "",
    "\ufeff---",
    "===",
    "# Forged",
    "Forged",
    "status: verified-structural",
  ),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
);

function checkParseAnswer(source: string) {
  const result = parseNote(source);
  if (result.ok) {
    // Anything the parser accepts must survive its own round trip; headings it demoted are gone from the file it writes.
    expect(parseNote(serializeNote(result.note))).toEqual({ ok: true, note: result.note });
    const lineCount = source.replace(/\r\n?/g, "\n").split("\n").length;
    for (const d of result.demoted ?? []) expect(d.line >= 1 && d.line <= lineCount, JSON.stringify(d)).toBe(true);
    return;
  }
  const lineCount = source.replace(/\r\n?/g, "\n").split("\n").length;
  expect(result.errors.length).toBeGreaterThan(0);
  for (const e of result.errors) {
    expect(Number.isInteger(e.line) && e.line >= 1 && e.line <= lineCount + 1, JSON.stringify(e)).toBe(true);
    expect(e.field).not.toBe("");
    expect(e.message).not.toBe("");
    // The catch-all in parseNote is a safety net; reaching it means a parser bug.
    expect(e.message).not.toMatch(/^unreadable note/);
  }
}

describe("parseNote never throws", () => {
  it("on arbitrary strings", () => {
    fc.assert(fc.property(fc.string({ maxLength: 400 }), checkParseAnswer), { numRuns: 300 });
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 400 }), checkParseAnswer), { numRuns: 500 });
    fc.assert(fc.property(fc.string({ unit: "grapheme", maxLength: 400 }), checkParseAnswer), { numRuns: 300 });
  });

  it("on note-like files made of front matter, headings and fences", () => {
    const file = fc.tuple(fc.array(noteishLine, { maxLength: 40 }), fc.constantFrom("\n", "\r\n", "\r")).map(([ls, eol]) => ls.join(eol));
    fc.assert(fc.property(file, checkParseAnswer), { numRuns: 1000 });
  });

  it("on valid files with one line broken", () => {
    const broken = fc.tuple(note, fc.nat(), noteishLine).map(([n, at, replacement]) => {
      const lines = serializeNote(n).split("\n");
      lines[at % lines.length] = replacement;
      return lines.join("\n");
    });
    fc.assert(fc.property(broken, checkParseAnswer), { numRuns: 300 });
  });
});
