import { fenceStep } from "./fences";
/**
 * Shapes of section text the Markdown parser cannot be trusted with, found by one linear pass over
 * the lines, without parsing. The parser (micromark, and the recursive tree walkers after it) needs
 * stack and time that grow with how deep quotes and lists nest and with how many emphasis, link and
 * table marks one paragraph holds: 3,000 `>` overflowed the stack, 300 levels of indented lists took
 * 8 s, 45,000 `*a` in one paragraph more than 40 s, 3,200 one-line quotes 20 s. A save refuses such text (`sectionShapeProblems`,
 * called by the acceptance function and the editor's validation); text already in git that has such
 * a shape is never parsed: every reader shows it as the plain text it is (`markdownIsSafe`).
 *
 * Also refused: the characters that end a line for a reader that splits lines the Unicode way
 * (U+2028, U+2029, U+0085) but not for one that splits on "\n": a `## Evidence` after one forges a
 * section for the first kind (agents' formats replace them with a space, `withoutLineSeparators`).
 */

/** Quotes and lists nested deeper than this are refused at save, and not parsed when in git. */
export const NESTING_LIMIT = 32;
/** Emphasis, link, strikethrough, HTML and table marks in one paragraph (see MARK), and in a section. */
export const MARKS_LIMIT = 1_000;
export const SECTION_MARKS_LIMIT = 10_000;
/**
 * Blocks (paragraphs, quotes, list items, code blocks) in a section: the parser's time grows with
 * their square (3,200 one-line quotes took 20 s, 800 under one).
 */
export const BLOCKS_LIMIT = 1_000;

// The marks whose pairing the parser resolves by searching back through a paragraph.
const MARK = /[*_[\]~<|]/g;
const LINE_SEPARATOR = /[\u0085\u2028\u2029]/;
const LINE_SEPARATORS = /[\u0085\u2028\u2029]/g;
const THEMATIC_BREAK = /^([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const LIST_MARKER = /^(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$)/;

export type SectionShape = {
  /** The deepest nesting of quotes and lists, and the first line (1-based) that reaches it. */
  depth: number;
  depthLine: number;
  /** The most marks (MARK) in one paragraph, and the paragraph's first line. */
  marks: number;
  marksLine: number;
  /** Marks in the whole section. */
  allMarks: number;
  /** Blocks, and the line of the first block past BLOCKS_LIMIT (0 when within it). */
  blocks: number;
  blocksLine: number;
  /** The first line holding U+2028, U+2029 or U+0085, or null. */
  separatorLine: number | null;
};

/** The section's shape in one pass over its lines (code fences skipped). */
export function sectionShape(markdown: string): SectionShape {
  const shape: SectionShape = { depth: 0, depthLine: 0, marks: 0, marksLine: 0, allMarks: 0, blocks: 0, blocksLine: 0, separatorLine: null };
  const block = (line: number) => {
    if (++shape.blocks === BLOCKS_LIMIT + 1) shape.blocksLine = line;
  };
  // Content columns of the list items the previous lines opened, innermost last.
  const items: number[] = [];
  let fence: string | null = null;
  let paragraph = 0;
  let paragraphLine = 0;
  let lastDepth = 0;
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (shape.separatorLine === null && LINE_SEPARATOR.test(line)) shape.separatorLine = i + 1;
    const step = fenceStep(fence, line);
    if (step.isFence || fence !== null) {
      if (fence === null) block(i + 1);
      fence = step.fence;
      paragraph = 0;
      continue;
    }
    if (/^[ \t]*$/.test(line)) {
      paragraph = 0;
      continue;
    }
    const before = items.length;
    const depth = lineDepth(line, items);
    // A new block: after a blank line, a list item, or a change of nesting.
    if (paragraph === 0 || items.length > before || depth !== lastDepth) block(i + 1);
    lastDepth = depth;
    if (depth > shape.depth) {
      shape.depth = depth;
      shape.depthLine = i + 1;
    }
    if (paragraph === 0) paragraphLine = i + 1;
    const marks = line.match(MARK)?.length ?? 0;
    paragraph += marks;
    shape.allMarks += marks;
    if (paragraph > shape.marks) {
      shape.marks = paragraph;
      shape.marksLine = paragraphLine;
    }
  }
  return shape;
}

/**
 * How many quotes and list items hold this line: the items earlier lines opened whose content
 * column the line reaches, then the `>` and list markers at its start (`> - > 1. x`). An
 * over-estimate where Markdown is subtle (lazy continuation, code indented inside an item), never
 * an under-estimate of what the parser builds.
 */
function lineDepth(line: string, items: number[]): number {
  let col = 0;
  let at = 0;
  const skipSpaces = () => {
    while (at < line.length && (line[at] === " " || line[at] === "\t")) {
      col = line[at] === "\t" ? col + 4 - (col % 4) : col + 1;
      at++;
    }
  };
  skipSpaces();
  while (items.length && (items.at(-1) ?? 0) > col) items.pop();
  let quotes = 0;
  for (;;) {
    const base = items.at(-1) ?? 0;
    // Four columns past the enclosing content: indented code, no more markers.
    if (col - base >= 4 && quotes === 0) break;
    const rest = line.slice(at);
    if (rest[0] === ">") {
      quotes++;
      at++;
      col++;
      skipSpaces();
      continue;
    }
    if (THEMATIC_BREAK.test(rest)) break;
    const marker = LIST_MARKER.exec(rest);
    if (!marker) break;
    at += marker[0].length;
    col += marker[0].length;
    const before = col;
    skipSpaces();
    // The item's content starts after one to four spaces (more: the content is indented code).
    items.push(col - before >= 1 && col - before <= 4 ? col : before + 1);
  }
  return quotes + items.length;
}

/** Whether the parser may be handed this text: nesting and marks within the limits. */
export function markdownIsSafe(markdown: string): boolean {
  // Short text cannot nest or pile marks past the limits.
  if (markdown.length <= NESTING_LIMIT) return true;
  const shape = sectionShape(markdown);
  return shape.depth <= NESTING_LIMIT && shape.marks <= MARKS_LIMIT && shape.allMarks <= SECTION_MARKS_LIMIT && shape.blocks <= BLOCKS_LIMIT;
}

export type ShapeProblem = { line: number; message: string };

/** Why a save refuses this section's text (`section` is its heading); empty when it may be saved. */
export function sectionShapeProblems(section: string, markdown: string): ShapeProblem[] {
  const shape = sectionShape(markdown);
  const problems: ShapeProblem[] = [];
  if (shape.depth > NESTING_LIMIT) {
    problems.push({
      line: shape.depthLine,
      message: `${section} nests quotes or lists ${shape.depth} levels deep on line ${shape.depthLine}; at most ${NESTING_LIMIT} levels can be shown`,
    });
  }
  if (shape.marks > MARKS_LIMIT) {
    problems.push({
      line: shape.marksLine,
      message: `${section} has ${shape.marks} emphasis, link or table marks (* _ [ ] ~ < |) in the paragraph starting on line ${shape.marksLine}; at most ${MARKS_LIMIT} in one paragraph can be shown: split it with blank lines, or put literal text in a code block`,
    });
  }
  if (shape.marks <= MARKS_LIMIT && shape.allMarks > SECTION_MARKS_LIMIT) {
    problems.push({
      line: 1,
      message: `${section} has ${shape.allMarks} emphasis, link or table marks (* _ [ ] ~ < |); at most ${SECTION_MARKS_LIMIT} in one section can be shown: split the note, or put literal text in a code block`,
    });
  }
  if (shape.blocks > BLOCKS_LIMIT) {
    problems.push({
      line: shape.blocksLine,
      message: `${section} has ${shape.blocks} paragraphs, quotes, list items and code blocks (the ${BLOCKS_LIMIT + 1}st on line ${shape.blocksLine}); at most ${BLOCKS_LIMIT} in one section can be shown: split the note`,
    });
  }
  if (shape.separatorLine !== null) {
    problems.push({
      line: shape.separatorLine,
      message: `${section} contains a Unicode line or paragraph separator (U+2028, U+2029 or U+0085) on line ${shape.separatorLine}, which some readers take for a line break; use a real line break or a space`,
    });
  }
  return problems;
}

/** Text for agents: each Unicode line or paragraph separator as a space, so lines split alike every way. */
export function withoutLineSeparators(text: string): string {
  return LINE_SEPARATOR.test(text) ? text.replace(LINE_SEPARATORS, " ") : text;
}
