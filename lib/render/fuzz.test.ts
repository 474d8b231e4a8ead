import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseNote, serializeNote } from "@/lib/notes/markdown";
import { SECTIONS, type NoteInput } from "@/lib/notes/schema";
import { diagramSize } from "@/lib/rules/diagrams";
import { liveMarkup, XSS_PAYLOADS } from "@/lib/testing/xss";
import { DIAGRAM_TIME_LIMIT_MS } from "./diagrams";
import { markdownIsSafe, sectionShapeProblems } from "@/lib/notes/section-shape";
import { renderMarkdown, renderSectionNow, sectionKey } from "./markdown";
import { markdownToPlainText, markdownToText } from "./plain-text";

/**
 * Note files full of hostile text, through parse → serialize → parse → render, as a commit from
 * plain git would reach the site: the parser never fails inside (a bug it would report as an
 * "unreadable note"), a note it accepts survives serializing unchanged, and no rendered section
 * carries live markup. Bounded: 200 files per property.
 */

const RUNS = 200;
// A render that draws a diagram in this thread (tests have no worker) ends within the time a drawing
// has in the server's worker; one the limits refuse ends at once.
const RENDER_BOUND_MS = DIAGRAM_TIME_LIMIT_MS;

// The Mermaid payloads are whole fenced blocks: as loose pieces their fences swallow the rest of a
// section and most generated notes stop being valid, so they have their own property below.
const payload = fc.constantFrom(...XSS_PAYLOADS.filter(([name]) => !name.startsWith("mermaid")).map(([, p]) => p));
const mermaidPayload = fc.constantFrom(...XSS_PAYLOADS.filter(([name]) => name.startsWith("mermaid")).map(([, p]) => p));
// "#tag", and a rule after a blank line: a line starting "# " or a --- under a paragraph is a heading
// a section may not hold, refused like "## Decision", and most generated notes should be valid.
const piece = fc.oneof(
  { weight: 4, arbitrary: payload },
  {
    weight: 2,
    arbitrary: fc.constantFrom("R&D", "<", '"', "'", ":", "- ", "#tag", "## Decision", "\n\n---", "```", "|", "\\", "[^1]", "AFN-001", "&amp;", "&#x6a;"),
  },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 10 }) },
);
const sep = fc.constantFrom(" ", "\n", "\n\n", "");
const text = fc.array(fc.tuple(piece, sep), { maxLength: 8 }).map((parts) => parts.map(([p, s]) => p + s).join(""));

/** One line the schema could accept: the same hostile pieces, without line breaks or controls. */
const oneLine = (max: number) =>
  text.map((t) => {
    const s = [
      ...t
        .toWellFormed()
        .replace(/[\r\n\u0000-\u001f\u007f]+/g, " ")
        .trim(),
    ]
      .slice(0, max)
      .join("")
      .trim();
    return s || "x";
  });

const sections = fc.record(Object.fromEntries(SECTIONS.map((s) => [s.key, text])) as Record<(typeof SECTIONS)[number]["key"], fc.Arbitrary<string>>);

const note: fc.Arbitrary<NoteInput> = fc.record({
  id: fc.constant("AFN-042"),
  title: oneLine(200),
  summary: oneLine(600),
  status: fc.constantFrom("draft", "hypothesis", "verified-checkpoint"),
  phase: oneLine(120),
  tags: fc.uniqueArray(oneLine(60), { maxLength: 4, selector: (t) => t.toLowerCase() }),
  order: fc.nat(1000),
  sections,
});

/** A file as someone might commit it by hand: front matter lines and sections, any of them hostile. */
const handWritten = fc
  .tuple(
    fc.array(fc.tuple(fc.constantFrom("id", "title", "summary", "status", "phase", "tags", "order", "related", "x"), text), { maxLength: 8 }),
    fc.array(fc.tuple(fc.constantFrom(...SECTIONS.map((s) => s.heading), "Other"), text), { maxLength: 7 }),
  )
  .map(([front, body]) => `---\n${front.map(([k, v]) => `${k}: ${v}`).join("\n")}\n---\n\n${body.map(([h, t]) => `## ${h}\n\n${t}\n`).join("\n")}`);

function expectInert(markdown: string) {
  const html = renderMarkdown(markdown, { idPrefix: "fuzz", linkable: new Set(["AFN-001"]) });
  expect(liveMarkup(html), `${markdown.slice(0, 200)} → ${html.slice(0, 300)}`).toEqual([]);
  expect(typeof markdownToPlainText(markdown)).toBe("string");
}

describe("note files full of hostile text", () => {
  it("any file text: the parser answers, with errors at a line, and never fails inside", () => {
    fc.assert(
      fc.property(fc.oneof(handWritten, text, fc.string({ unit: "binary", maxLength: 400 })), (source) => {
        const parsed = parseNote(source);
        if (parsed.ok) return;
        for (const e of parsed.errors) {
          expect(e.message, JSON.stringify(source.slice(0, 300))).not.toMatch(/^unreadable note/);
          expect(e.line).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("a note it accepts survives serialize → parse unchanged, and every section renders inert", () => {
    let accepted = 0;
    fc.assert(
      fc.property(note, (input) => {
        let file: string;
        try {
          file = serializeNote(input);
        } catch {
          return; // the schema refused it (a rule, not a crash): serializeNote only writes valid notes
        }
        const first = parseNote(file);
        expect(first.ok, `${file.slice(0, 400)}\n${JSON.stringify(!first.ok && first.errors)}`).toBe(true);
        if (!first.ok) return;
        accepted++;
        const again = parseNote(serializeNote(first.note));
        expect(again).toEqual(first);
        for (const s of SECTIONS) expectInert(first.note.sections[s.key]);
      }),
      { numRuns: RUNS },
    );
    expect(accepted, "most generated notes are valid, so the render checks run").toBeGreaterThan(RUNS / 2);
  }, 120_000);

  it("hostile text in Mermaid labels, edges, messages and styles: drawn or refused, the section stays inert", () => {
    // One line of the same hostile pieces, as a label can hold it (a line break would end the statement).
    const label = text.map((t) => t.replace(/[\r\n]+/g, " "));
    const diagram = fc.oneof(
      fc.tuple(label, label, label).map(([a, e, b]) => `flowchart LR\n  A["${a}"] -->|${e}| B{${b}}\n  B --> C(${a})`),
      fc.tuple(label, label).map(([a, b]) => `flowchart TD\n  A[${a}] --> B\n  style A fill:${b}\n  click A "${b}"`),
      fc.tuple(label, label).map(([m, n]) => `sequenceDiagram\n  participant A as ${n}\n  A->>B: ${m}\n  Note over A,B: ${n}`),
      fc.tuple(label, label).map(([c, m]) => `classDiagram\n  class ${c.replace(/\W/g, "") || "K"} {\n    +${m}\n  }`),
      text,
    );
    for (const [, p] of XSS_PAYLOADS.filter(([name]) => name.startsWith("mermaid"))) expectInert(p);
    let drawn = 0;
    fc.assert(
      fc.property(diagram, mermaidPayload, (source, payload) => {
        const markdown = `\`\`\`mermaid\n${source.replace(/\`\`\`/g, "")}\n\`\`\`\n\n${payload}`;
        if (renderMarkdown(markdown, { idPrefix: "fuzz" }).includes("<svg")) drawn++;
        expectInert(markdown);
      }),
      { numRuns: RUNS / 2 },
    );
    expect(drawn, "most generated diagrams are drawn, so the SVG path is what is checked").toBeGreaterThan(RUNS / 8);
  }, 120_000);

  it("fan-out diagrams of any size: each render ends within the time bound, drawn or shown as its source with the reason", () => {
    // `a0 & … & a29 --> b0 & … & b29` is one arrow and 900 links: the layout once held the server 84 s.
    const group = (name: string) =>
      fc
        .tuple(fc.integer({ min: 1, max: 30 }), fc.constantFrom(" & ", "&", " &amp; "))
        .map(([k, and]) => Array.from({ length: k }, (_, i) => `${name}${i}`).join(and));
    const arrow = fc.constantFrom("-->", "---", "==>", "-.->", "-- to -->", "-->|to|");
    const line = fc
      .tuple(fc.constantFrom("a", "b", "c"), fc.array(fc.tuple(arrow, fc.constantFrom("b", "c", "d")), { minLength: 1, maxLength: 2 }))
      .chain(([first, rest]) => fc.tuple(group(first), ...rest.map(([a, name]) => group(name).map((g) => ` ${a} ${g}`))))
      .map((parts) => parts.join(""));
    const diagram = fc
      .tuple(fc.constantFrom("flowchart LR", "graph TD"), fc.array(line, { minLength: 1, maxLength: 3 }))
      .map(([h, lines]) => [h, ...lines].join("\n"));
    let drawn = 0;
    let refused = 0;
    fc.assert(
      fc.property(diagram, (source) => {
        const markdown = `Before.\n\n\`\`\`mermaid\n${source}\n\`\`\`\n\nAfter.`;
        const started = performance.now();
        const html = renderMarkdown(markdown, { idPrefix: "fuzz" });
        const took = performance.now() - started;
        expect(took, `${took.toFixed(0)} ms for ${JSON.stringify(diagramSize(source))}: ${source.slice(0, 200)}`).toBeLessThan(RENDER_BOUND_MS);
        if (html.includes("<svg")) drawn++;
        else {
          refused++;
          expect(html).toContain("This diagram could not be drawn: ");
          expect(html).toContain('<code class="language-mermaid">');
        }
        expect(liveMarkup(html)).toEqual([]);
      }),
      // A failing render is slow: report the first one rather than shrink through more of them.
      { numRuns: 40, endOnFailure: true },
    );
    expect(drawn, "some generated diagrams are drawn").toBeGreaterThan(0);
    expect(refused, "some are refused for their size").toBeGreaterThan(0);
  }, 300_000);

  it("a section whose kept HTML the page and the feed share (one key for both id prefixes) renders the same with either", () => {
    const linked = fc.constantFrom("[a](#top)", "[b]: #x\n\n[b]", "[^1]\n\n[^1]: note", "```mermaid\nflowchart LR\n  A --> B\n```", "#define X 1", "## h", "");
    fc.assert(
      fc.property(text, linked, text, (a, l, b) => {
        const markdown = `${a}\n\n${l}\n\n${b}`;
        if (sectionKey(markdown, { idPrefix: "decision" }) !== sectionKey(markdown, { idPrefix: "AFN-042-decision" })) return;
        expect(renderSectionNow(markdown, { idPrefix: "AFN-042-decision" })).toBe(renderSectionNow(markdown, { idPrefix: "decision" }));
      }),
      { numRuns: RUNS },
    );
  });

  it("sections of hand-written files render inert, whatever the parser made of the file", () => {
    fc.assert(
      fc.property(handWritten, text, (source, extra) => {
        expectInert(extra);
        const parsed = parseNote(source);
        if (parsed.ok) for (const s of SECTIONS) expectInert(parsed.note.sections[s.key]);
      }),
      { numRuns: RUNS },
    );
  });
});

/**
 * Issue 32: deep nesting, long code and piles of marks, the shapes that overflowed the stack or held
 * the server for seconds to minutes. Every reader of section text (the page's HTML, search's plain
 * text, agents' text) answers within a bound, never throws, and stays inert; what a save accepts is
 * what the parser is handed. The bound is generous (a loaded 2-core machine); today a section takes
 * at most about a second of highlighting and a fraction of one of parsing.
 */
describe("sections of hostile shape", () => {
  const TIME_BOUND_MS = 10_000;
  const container = fc.constantFrom("> ", ">", "- ", "* ", "1. ", "2) ", "  ", "> - ", "    ", "\t");
  const nested = fc.tuple(fc.array(container, { maxLength: 400 }), text).map(([prefix, t]) => prefix.join("") + t);
  const nestedLines = fc.array(nested, { maxLength: 40 }).map((lines) => lines.join("\n"));
  const codeLine = fc.constantFrom(
    "template <class T> struct S : B<T> { int x; };",
    'auto v = f("x\\"y", R"(raw)"); // c',
    "def f(x): return [x for x in y]",
    "",
    "x".repeat(1500),
  );
  const longCode = fc
    .tuple(fc.constantFrom("cpp", "ts", "python", "rust", "text", ""), fc.array(codeLine, { minLength: 1, maxLength: 900 }))
    .map(([lang, lines]) => `\`\`\`${lang}\n${lines.join("\n")}\n\`\`\``);
  const marks = fc
    .tuple(fc.constantFrom("*a", "[", "_", "[^1]", "~~", "<", "|", "**a ", "[x](", "![", "> x\n\n", "- x\n"), fc.integer({ min: 1, max: 3000 }))
    .map(([m, n]) => m.repeat(n));
  const hostile = fc.array(fc.oneof(nestedLines, longCode, marks, text), { minLength: 1, maxLength: 4 }).map((parts) => parts.join("\n\n"));

  function expectBounded(markdown: string) {
    const started = performance.now();
    const html = renderSectionNow(markdown, { idPrefix: "fuzz", linkable: new Set(["AFN-001"]) });
    markdownToPlainText(markdown);
    markdownToText(markdown);
    const took = performance.now() - started;
    expect(took, `${markdown.length} characters: ${JSON.stringify(markdown.slice(0, 120))}`).toBeLessThan(TIME_BOUND_MS);
    expect(liveMarkup(html)).toEqual([]);
    // A section the save accepts is laid out by the parser, not shown as plain text.
    if (sectionShapeProblems("Notes", markdown).length === 0) expect(markdownIsSafe(markdown)).toBe(true);
  }

  it("the issue's own: 3,000 `>`, 90 KB of `[`, a 29 KB C++ block, 45,000 `*a`", () => {
    const cpp = "```cpp\n" + '  auto v = std::make_unique<Foo<int, std::string>>(/* c */ 1, R"(raw)");\n'.repeat(400) + "```";
    for (const markdown of [">".repeat(3000), "[".repeat(90_000), cpp, "*a".repeat(45_000), "> x\n\n".repeat(3200)]) expectBounded(markdown);
  }, 120_000);

  it("any nesting, code length and pile of marks: bounded, never thrown, inert", () => {
    fc.assert(fc.property(hostile, expectBounded), { numRuns: 40 });
  }, 600_000);
});
