import type { Code, Nodes } from "mdast";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { SECTIONS, type Note } from "@/lib/notes/schema";

/**
 * How big a Mermaid diagram is, counted as its renderer (beautiful-mermaid) will lay it out, and
 * the limits a diagram must keep to be drawn. Layout time grows with the graph, so the pages, the
 * studio preview, a save, a publish and content:check hold every ```mermaid block to the same
 * limits, through this one module (docs/decisions/diagram-limits-and-worker.md).
 *
 * The counts are the renderer's, not the text's: `a & b --> c & d` is one arrow on the page of
 * source and four links in the drawing (every node of one `&` group to every node of the next),
 * and a chain `a --> b --> c` is two. The grammar below mirrors beautiful-mermaid's parsers (its
 * flowchart and state parser is held equal to this count by lib/rules/diagrams.test.ts); lines are
 * split at line breaks only, as the renderer splits them (a `;` does not end a statement there).
 */

export const DIAGRAM_LIMITS = {
  /** Characters of source. */
  source: 10_000,
  /**
   * Links as drawn (flowchart and state edges, relationships, messages). A dense flowchart of 750
   * edges took 17 s to lay out on a loaded machine, a 22 × 22 fan-out (484) 12 s, 120 random ones 4 s.
   */
  links: 120,
  /** Nodes as drawn, each subgraph or composite state counted as one more: 100 subgraphs of one node took 1.3 s, 200 lone nodes 0.9 s. */
  nodes: 100,
} as const;

export type DiagramKind = "flowchart" | "state" | "sequence" | "class" | "er" | "xychart";

export type DiagramSize = {
  kind: DiagramKind;
  /** Links the layout draws, after `&` groups are expanded. */
  links: number;
  /** Links as written: arrows in the source (equal to `links` unless an `&` group multiplies them). */
  arrows: number;
  /** Nodes the layout places, subgraphs and composite states included. */
  nodes: number;
};

/** Why this source is not drawn because of its size, or null when it is within every limit. */
export function diagramRefusal(source: string): string | null {
  if (source.length > DIAGRAM_LIMITS.source) return `the source is longer than ${DIAGRAM_LIMITS.source.toLocaleString("en")} characters`;
  const size = diagramSize(source);
  if (size.links > DIAGRAM_LIMITS.links) {
    const expanded = size.links > size.arrows ? ` (an arrow between & groups draws a link from every node of one to every node of the other)` : "";
    return `it draws ${size.links} links, more than the ${DIAGRAM_LIMITS.links} a page draws${expanded}`;
  }
  if (size.nodes > DIAGRAM_LIMITS.nodes) return `it draws ${size.nodes} nodes, more than the ${DIAGRAM_LIMITS.nodes} a page draws`;
  return null;
}

/** The size of a diagram as its renderer will lay it out. */
export function diagramSize(source: string): DiagramSize {
  // The renderer decodes XML entities first: `&#38;` is an `&` and `&#10;` a line break to it.
  const text = decodeXml(source);
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !l.startsWith("%%"));
  const kind = diagramKind(text, lines[0] ?? "");
  const body = lines.slice(1);
  switch (kind) {
    case "flowchart":
      return { kind, ...flowchartSize(body) };
    case "state":
      return { kind, ...stateSize(body) };
    case "sequence":
      return { kind, ...sequenceSize(body) };
    case "class":
      return { kind, ...classSize(body) };
    case "er":
      return { kind, ...erSize(body) };
    case "xychart":
      // Bars and points on axes: no graph layout, bounded by the source's length.
      return { kind, links: 0, arrows: 0, nodes: 0 };
  }
}

// beautiful-mermaid picks the pipeline by the first line (split at a line break or `;`), then the
// flowchart parser picks flowchart or state by the first line that is not a comment.
function diagramKind(text: string, header: string): DiagramKind {
  const first = (text.trim().split(/[\n;]/)[0] ?? "").trim().toLowerCase();
  if (/^xychart(-beta)?\b/.test(first)) return "xychart";
  if (/^sequencediagram\s*$/.test(first)) return "sequence";
  if (/^classdiagram\s*$/.test(first)) return "class";
  if (/^erdiagram\s*$/.test(first)) return "er";
  return /^stateDiagram(-v2)?\s*$/i.test(header) ? "state" : "flowchart";
}

type Counts = { links: number; arrows: number; nodes: number };

// ---- flowcharts --------------------------------------------------------------------------------

// The renderer's own patterns (its parser.ts), in its order.
const ARROW = /^(<)?(-->|-.->|==>|---|-\.-|===)(?:\|([^|]*)\|)?/;
const TEXT_ARROW = /^(<)?(--|-\.|==)\s+(.+?)\s+(-->|---|\.\->|-\.\-|==>|===)/;
const SHAPED_NODES = [
  /^([\w-]+)\(\(\((.+?)\)\)\)/,
  /^([\w-]+)\(\[(.+?)\]\)/,
  /^([\w-]+)\(\((.+?)\)\)/,
  /^([\w-]+)\[\[(.+?)\]\]/,
  /^([\w-]+)\[\((.+?)\)\]/,
  /^([\w-]+)\[\/(.+?)\\\]/,
  /^([\w-]+)\[\\(.+?)\/\]/,
  /^([\w-]+)>(.+?)\]/,
  /^([\w-]+)\{\{(.+?)\}\}/,
  /^([\w-]+)\[(.+?)\]/,
  /^([\w-]+)\((.+?)\)/,
  /^([\w-]+)\{(.+?)\}/,
];
const BARE_NODE = /^([\w-]+)/;
const CLASS_SHORTHAND = /^:::([\w][\w-]*)/;

function flowchartSize(lines: readonly string[]): Counts {
  const nodes = new Set<string>();
  const subgraphs = new Groups();
  let links = 0;
  let arrows = 0;
  for (const line of lines) {
    if (/^classDef\s+(\w+)\s+(.+)$/.test(line) || /^class\s+([\w,-]+)\s+(\w+)$/.test(line) || /^style\s+([\w,-]+)\s+(.+)$/.test(line)) continue;
    if (/^linkStyle\s+(default|[\d,\s]+)\s+(.+)$/.test(line)) continue;
    if (subgraphs.inside() && /^direction\s+(TD|TB|LR|BT|RL)\s*$/i.test(line)) continue;
    if (/^subgraph\s+(.+)$/.test(line)) {
      subgraphs.open();
      continue;
    }
    if (line === "end") {
      subgraphs.close();
      continue;
    }
    // Node groups joined by arrows: each arrow links every node before it to every node after it.
    let rest = line;
    let group = nodeGroup(rest, nodes);
    if (!group) continue;
    rest = group.rest.trim();
    let before = group.size;
    while (rest.length > 0) {
      const arrow = ARROW.exec(rest) ?? TEXT_ARROW.exec(rest);
      if (!arrow) break;
      group = nodeGroup(rest.slice(arrow[0].length).trim(), nodes);
      if (!group) break;
      rest = group.rest.trim();
      arrows++;
      links += before * group.size;
      before = group.size;
    }
  }
  return { links, arrows, nodes: nodes.size + subgraphs.closed };
}

/**
 * Subgraphs (composite states) as the renderer keeps them: one is laid out when it is closed and
 * every group around it is too; one never closed is dropped with the groups inside it.
 */
class Groups {
  closed = 0;
  private readonly stack: number[] = [];
  inside = () => this.stack.length > 0;
  open() {
    this.stack.push(0);
  }
  close() {
    const inner = this.stack.pop();
    if (inner === undefined) return;
    const parent = this.stack.length - 1;
    if (parent >= 0) this.stack[parent]! += inner + 1;
    else this.closed += inner + 1;
  }
}

/** One node or several joined by `&`, at the start of `text`: how many (repeats included, as the renderer links them) and what follows. */
function nodeGroup(text: string, nodes: Set<string>): { size: number; rest: string } | null {
  const first = oneNode(text, nodes);
  if (first === null) return null;
  let size = 1;
  let rest = first.trim();
  while (rest.startsWith("&")) {
    // The renderer has taken the `&` even when no node follows it.
    rest = rest.slice(1).trim();
    const next = oneNode(rest, nodes);
    if (next === null) break;
    size++;
    rest = next.trim();
  }
  return { size, rest };
}

/** A node (shaped or bare, with an optional `:::class`) at the start of `text`: records its id, answers what follows. */
function oneNode(text: string, nodes: Set<string>): string | null {
  let match: RegExpExecArray | null = null;
  for (const pattern of SHAPED_NODES) if ((match = pattern.exec(text))) break;
  match ??= BARE_NODE.exec(text);
  if (!match) return null;
  nodes.add(match[1] ?? "");
  const rest = text.slice(match[0].length);
  const cls = CLASS_SHORTHAND.exec(rest);
  return cls ? rest.slice(cls[0].length) : rest;
}

// ---- state diagrams ----------------------------------------------------------------------------

const STATE_TRANSITION = /^(\[\*\]|[\w\p{L}-]+)\s*(-->)\s*(\[\*\]|[\w\p{L}-]+)(?:\s*:\s*(.+))?$/u;

function stateSize(lines: readonly string[]): Counts {
  const nodes = new Set<string>();
  const composites = new Set<string>();
  const groups = new Groups();
  let starts = 0;
  let ends = 0;
  let links = 0;
  const state = (id: string) => {
    if (!composites.has(id)) nodes.add(id);
  };
  for (const line of lines) {
    if (/^direction\s+(TD|TB|LR|BT|RL)\s*$/i.test(line) || /^linkStyle\s+(default|[\d,\s]+)\s+(.+)$/.test(line)) continue;
    const composite = /^state\s+(?:"([^"]+)"\s+as\s+)?([\w\p{L}]+)\s*\{$/u.exec(line);
    if (composite) {
      const id = composite[2] ?? "";
      groups.open();
      composites.add(id);
      nodes.delete(id);
      continue;
    }
    if (line === "}") {
      groups.close();
      continue;
    }
    const alias = /^state\s+"([^"]+)"\s+as\s+([\w\p{L}]+)\s*$/u.exec(line);
    if (alias) {
      nodes.add(alias[2] ?? "");
      continue;
    }
    const t = STATE_TRANSITION.exec(line);
    if (t) {
      // Each [*] is a start or end pseudostate of its own.
      if (t[1] === "[*]") nodes.add(`_start${++starts > 1 ? starts : ""}`);
      else state(t[1] ?? "");
      if (t[3] === "[*]") nodes.add(`_end${++ends > 1 ? ends : ""}`);
      else state(t[3] ?? "");
      links++;
      continue;
    }
    const description = /^([\w\p{L}-]+)\s*:\s*(.+)$/u.exec(line);
    if (description) nodes.add(description[1] ?? "");
  }
  return { links, arrows: links, nodes: nodes.size + groups.closed };
}

// ---- sequence, class and ER diagrams: at most one link and two nodes a line ----------------------

const MESSAGE = /^(\S+?)\s*(--?>?>|--?[)x]|--?>>|--?>)\s*([+-]?)(\S+?)\s*:\s*(.+)$/;
const SIMPLE_MESSAGE = /^(\S+?)\s*(->>|-->>|-\)|--\)|-x|--x|->|-->)\s*([+-]?)(\S+?)\s*:\s*(.+)$/;

function sequenceSize(lines: readonly string[]): Counts {
  const actors = new Set<string>();
  let links = 0;
  for (const line of lines) {
    const actor = /^(participant|actor)\s+(\S+?)(?:\s+as\s+(.+))?$/.exec(line);
    if (actor) {
      actors.add(actor[2] ?? "");
      continue;
    }
    const note = /^Note\s+(left of|right of|over)\s+([^:]+):\s*(.+)$/i.exec(line);
    if (note) {
      for (const id of (note[2] ?? "").trim().split(",")) actors.add(id.trim());
      continue;
    }
    if (/^(loop|alt|opt|par|critical|break|rect)\s*(.*)$/.test(line) || /^(else|and)\s*(.*)$/.test(line) || line === "end") continue;
    const message = MESSAGE.exec(line) ?? SIMPLE_MESSAGE.exec(line);
    if (message) {
      actors.add(message[1] ?? "");
      actors.add(message[4] ?? "");
      links++;
    }
  }
  return { links, arrows: links, nodes: actors.size };
}

const CLASS_RELATIONSHIP =
  /^(\S+?)\s+(?:"([^"]*?)"\s+)?(<\|--|<\|\.\.|\*--|o--|-->|--\*|--o|--\|>|\.\.>|\.\.\|>|<--|<\.\.?|--)\s+(?:"([^"]*?)"\s+)?(\S+?)(?:\s*:\s*(.+))?$/;

function classSize(lines: readonly string[]): Counts {
  const classes = new Set<string>();
  let links = 0;
  let inBody = false;
  let inNamespace = false;
  for (const line of lines) {
    if (inBody) {
      if (line === "}") inBody = false;
      continue;
    }
    if (/^namespace\s+(\S+)\s*\{$/.test(line)) {
      inNamespace = true;
      continue;
    }
    if (line === "}" && inNamespace) {
      inNamespace = false;
      continue;
    }
    const block = /^class\s+(\S+?)(?:\s*~(\w+)~)?\s*\{$/.exec(line);
    const declared = block ?? /^class\s+(\S+?)(?:\s*~(\w+)~)?\s*$/.exec(line) ?? /^class\s+(\S+?)\s*\{\s*<<(\w+)>>\s*\}$/.exec(line);
    if (declared) {
      classes.add(declared[1] ?? "");
      inBody = block !== null;
      continue;
    }
    const member = /^(\S+?)\s*:\s*(.+)$/.exec(line);
    if (member && !/<\|--|--|\*--|o--|-->|\.\.>|\.\.\|>/.test(member[2] ?? "")) {
      classes.add(member[1] ?? "");
      continue;
    }
    const relationship = CLASS_RELATIONSHIP.exec(line);
    if (relationship) {
      classes.add(relationship[1] ?? "");
      classes.add(relationship[5] ?? "");
      links++;
    }
  }
  return { links, arrows: links, nodes: classes.size };
}

function erSize(lines: readonly string[]): Counts {
  const entities = new Set<string>();
  let links = 0;
  let inBody = false;
  for (const line of lines) {
    if (inBody) {
      if (line === "}") inBody = false;
      continue;
    }
    const block = /^(\S+)\s*\{$/.exec(line);
    if (block) {
      entities.add(block[1] ?? "");
      inBody = true;
      continue;
    }
    const relationship = /^(\S+)\s+([|o}{]+(?:--|\.\.)[|o}{]+)\s+(\S+)\s*:\s*(.+)$/.exec(line);
    if (relationship) {
      entities.add(relationship[1] ?? "");
      entities.add(relationship[3] ?? "");
      links++;
    }
  }
  return { links, arrows: links, nodes: entities.size };
}

// ---- entities ----------------------------------------------------------------------------------

const XML_ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d+)|#[xX]([0-9a-fA-F]+));/g;
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** XML's five named entities and numeric references, as the renderer decodes them (entities' decodeXML). */
function decodeXml(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(XML_ENTITY, (_, name: string | undefined, dec: string | undefined, hex: string | undefined) => {
    if (name) return NAMED[name] ?? "";
    const cp = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex ?? "", 16);
    return cp > 0 && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff) ? String.fromCodePoint(cp) : "\uFFFD";
  });
}

// ---- in a note ---------------------------------------------------------------------------------

/** A ```mermaid block of a section: its source as the renderer gets it, and the 1-based line of its opening fence. */
export type MermaidBlock = { source: string; line: number };

const parser = unified().use(remarkParse).use(remarkGfm);

/**
 * Every ```mermaid block of a section's Markdown, found by the parser the pages render with (a
 * block inside a list or a quote counts; a fence inside another code block does not). The source
 * is the block's text as the page's diagram step reads it.
 */
export function mermaidBlocks(markdown: string): MermaidBlock[] {
  // A diagram needs a fenced block; most sections have none and never reach the parser.
  if (!markdown.includes("```") && !markdown.includes("~~~")) return [];
  const blocks: MermaidBlock[] = [];
  const walk = (node: Nodes) => {
    if (node.type === "code" && (node as Code).lang === "mermaid") blocks.push({ source: (node as Code).value, line: node.position?.start.line ?? 1 });
    if ("children" in node) for (const child of node.children) walk(child);
  };
  walk(parser.parse(markdown));
  return blocks;
}

export type DiagramFinding = { field: string; line: number; message: string };

/** A note's diagrams that no page would draw for their size: each named by its section and line, with the limit. */
export function checkDiagrams(note: Pick<Note, "sections">): DiagramFinding[] {
  const findings: DiagramFinding[] = [];
  for (const { key, heading } of SECTIONS) {
    const text = note.sections[key];
    if (typeof text !== "string") continue;
    for (const block of mermaidBlocks(text)) {
      const refusal = diagramRefusal(block.source);
      if (refusal) {
        findings.push({
          field: `sections.${key}`,
          line: block.line,
          message: `${heading}: the Mermaid diagram on line ${block.line} is too large to draw: ${refusal}; split it into smaller diagrams`,
        });
      }
    }
  }
  return findings;
}
