import type { Element, ElementContent, Properties, Root as HastRoot } from "hast";
import { fromHtml } from "hast-util-from-html";
import { diagramRefusal } from "@/lib/rules/diagrams";

/**
 * Mermaid blocks (```mermaid) as diagrams in the page, with no client script. The drawing comes from
 * a renderer (beautiful-mermaid, see ./diagrams.ts on the server); this module only trusts what it
 * can check: the SVG is parsed into a tree and rebuilt from an allowlist of shapes and attributes
 * (no script, style, foreignObject, link, animation, event handler or URL other than a local
 * `url(#marker)`), and its colours become CSS variables of ./figures.css, so one drawing follows the
 * light and the dark scheme. Labels are the writer's text and stay text nodes. Isomorphic: the
 * studio preview runs this too (./preview.ts).
 */

export type DiagramResult = { ok: true; svg: Element } | { ok: false; error: string };
/** Draws a diagram's source; null when no renderer is at hand (the preview before it has loaded). */
export type DrawDiagram = (source: string) => DiagramResult | null;

/** beautiful-mermaid's renderMermaidSVG, or any function that turns a source into SVG text or throws. */
export type MermaidToSvg = (source: string, options: typeof RENDER_OPTIONS) => string;

// Colours are the renderer's variables; safeDiagramSvg renames them into ours (figures.css).
export const RENDER_OPTIONS = { bg: "var(--bg)", fg: "var(--fg)", transparent: true, padding: 16 } as const;

/**
 * A source drawn, or refused with the reason; the same rules on the server and in the preview. The
 * size limits are the ones a save and content:check apply (lib/rules/diagrams.ts).
 */
export function drawWith(toSvg: MermaidToSvg, source: string): DiagramResult {
  return refusedBeforeDrawing(source) ?? layoutWith(toSvg, source);
}

/** A source no renderer is given: an empty block, or one beyond the size limits. Null when it may be drawn. */
export function refusedBeforeDrawing(source: string): DiagramResult | null {
  if (!source.trim()) return { ok: false, error: "the block is empty" };
  const refusal = diagramRefusal(source);
  return refusal ? { ok: false, error: refusal } : null;
}

/**
 * The renderer's drawing of a source, checked, with no size check of its own: what the diagram
 * worker runs (./diagram-worker.ts) once the request thread has let a source through drawWith's limits.
 */
export function layoutWith(toSvg: MermaidToSvg, source: string): DiagramResult {
  let svg: string;
  try {
    svg = toSvg(source, RENDER_OPTIONS);
  } catch (error) {
    return { ok: false, error: reason(error) };
  }
  return { ok: true, svg: safeDiagramSvg(svg, CACHED_ID_PREFIX) };
}

/** The renderer's message, on one line and bounded; it may quote the writer's text (shown as text). */
function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.replace(/\s+/g, " ").trim().replace(/\.$/, "");
  return line.length > 300 ? `${line.slice(0, 299)}…` : line || "the renderer gave no reason";
}

const SHAPES = new Set(["svg", "g", "defs", "marker", "rect", "text", "tspan", "polygon", "polyline", "line", "path", "circle", "ellipse", "title"]);

const NUMBER = /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
const NUMBERS = /^[-+\d.e,\s]*$/i;
const PATH = /^[MmLlHhVvCcSsQqTtAaZz\d.,\se+-]*$/;
const TRANSFORM = /^(\s*(translate|rotate|scale|matrix)\(\s*[-+\d.e,\s]*\)\s*)+$/i;
const KEYWORD = /^[a-z-]+$/i;
const COLOR = /^(#[0-9a-f]{3,8}|[a-z]+|(rgb|rgba|hsl|hsla)\([\d.,%\s/]+\))$/i;

/**
 * The renderer's colour variables, renamed into our namespace (its `--bg`/`--fg` would collide with the
 * site's) with the light scheme's value as fallback: a feed reader that drops our CSS still draws it.
 */
const PAINT: Record<string, [variable: string, fallback: string]> = {
  "--bg": ["--diagram-bg", "#fbfaf7"],
  "--fg": ["--diagram-fg", "#1c1c1a"],
  "--_text": ["--diagram-text", "#1c1c1a"],
  "--_text-sec": ["--diagram-text-secondary", "#55534d"],
  "--_text-muted": ["--diagram-text-muted", "#55534d"],
  "--_text-faint": ["--diagram-text-faint", "#8a877f"],
  "--_line": ["--diagram-line", "#77756f"],
  "--_arrow": ["--diagram-arrow", "#3a3936"],
  "--_node-fill": ["--diagram-node-fill", "#f2f0ea"],
  "--_node-stroke": ["--diagram-node-stroke", "#a8a499"],
  "--_group-fill": ["--diagram-bg", "#fbfaf7"],
  "--_group-hdr": ["--diagram-group-header", "#e9e6dc"],
  "--_inner-stroke": ["--diagram-inner-stroke", "#d9d5ca"],
  "--_key-badge": ["--diagram-group-header", "#e9e6dc"],
};

function paint(value: string): string | null {
  const v = value.trim();
  const variable = /^var\((--[\w-]+)\)$/.exec(v);
  if (variable) {
    const known = PAINT[variable[1] ?? ""];
    return known ? `var(${known[0]}, ${known[1]})` : null;
  }
  return COLOR.test(v) ? v : null;
}

type Check = (value: string) => string | null;
const test =
  (pattern: RegExp): Check =>
  (v) =>
    pattern.test(v) ? v : null;

/** Every attribute a drawing may keep (hast property names), and what its value must look like. */
const ATTRIBUTES: Record<string, Check> = {
  viewBox: test(NUMBERS),
  width: test(NUMBER),
  height: test(NUMBER),
  x: test(NUMBERS),
  y: test(NUMBERS),
  x1: test(NUMBER),
  x2: test(NUMBER),
  y1: test(NUMBER),
  y2: test(NUMBER),
  cx: test(NUMBER),
  cy: test(NUMBER),
  r: test(NUMBER),
  rx: test(NUMBER),
  ry: test(NUMBER),
  dx: test(NUMBERS),
  dy: test(NUMBERS),
  points: test(NUMBERS),
  d: test(PATH),
  transform: test(TRANSFORM),
  textAnchor: test(KEYWORD),
  dominantBaseline: test(KEYWORD),
  fontSize: test(NUMBER),
  fontWeight: test(/^(\d{3}|bold|normal|bolder|lighter)$/),
  fontStyle: test(/^(italic|normal|oblique)$/),
  textDecoration: test(/^(underline|line-through|none)$/),
  fill: paint,
  stroke: paint,
  strokeWidth: test(NUMBER),
  strokeDasharray: test(NUMBERS),
  strokeLinejoin: test(KEYWORD),
  strokeLinecap: test(KEYWORD),
  opacity: test(NUMBER),
  fillOpacity: test(NUMBER),
  strokeOpacity: test(NUMBER),
  markerWidth: test(NUMBER),
  markerHeight: test(NUMBER),
  refX: test(NUMBER),
  refY: test(NUMBER),
  orient: test(/^(auto|auto-start-reverse|-?[\d.]+)$/),
};
const MARKER_REF = /^url\(#([\w-]+)\)$/;
const MARKER_ATTRIBUTES = ["markerEnd", "markerStart", "markerMid"] as const;

/**
 * The renderer's SVG text as a tree that holds only drawing: shapes, text and local markers. Ids
 * (markers only) become `<idPrefix>…`, so several diagrams on one page never share one.
 */
export function safeDiagramSvg(svgText: string, idPrefix: string): Element {
  const root = fromHtml(svgText, { fragment: true });
  const svg = root.children.find((c): c is Element => c.type === "element" && c.tagName === "svg");
  if (!svg) throw new Error("the renderer returned no <svg>");
  const ids = new Set<string>();
  collectMarkerIds(svg, ids);
  const clean = rebuild(svg, ids, idPrefix);
  if (!clean) throw new Error("the renderer returned no <svg>");
  return clean;
}

function collectMarkerIds(node: Element, ids: Set<string>) {
  if (node.tagName === "marker" && typeof node.properties.id === "string" && /^[\w-]+$/.test(node.properties.id)) ids.add(node.properties.id);
  for (const c of node.children) if (c.type === "element") collectMarkerIds(c, ids);
}

function rebuild(node: Element, markerIds: ReadonlySet<string>, idPrefix: string): Element | null {
  if (!SHAPES.has(node.tagName)) return null;
  const properties: Properties = {};
  for (const [name, raw] of Object.entries(node.properties)) {
    const value = Array.isArray(raw) ? raw.join(" ") : String(raw);
    const check = ATTRIBUTES[name];
    if (check) {
      const ok = check(value);
      if (ok !== null) properties[name] = ok;
    } else if ((MARKER_ATTRIBUTES as readonly string[]).includes(name)) {
      const ref = MARKER_REF.exec(value)?.[1];
      if (ref && markerIds.has(ref)) properties[name] = `url(#${idPrefix}${ref})`;
    } else if (name === "id" && node.tagName === "marker" && markerIds.has(value)) {
      properties.id = `${idPrefix}${value}`;
    }
  }
  const children: ElementContent[] = [];
  for (const child of node.children) {
    if (child.type === "text") children.push({ type: "text", value: child.value });
    else if (child.type === "element") {
      const kept = rebuild(child, markerIds, idPrefix);
      if (kept) children.push(kept);
    }
  }
  return { type: "element", tagName: node.tagName, properties, children };
}

/**
 * The block as the page shows it: the drawing (an image to assistive technology, its source one
 * click away as text), or the source as written with a note saying why it is not drawn.
 */
export function diagramFigure(source: string, result: DiagramResult | null): Element {
  const sourceBlock: Element = el("pre", { className: ["diagram-source"] }, [
    el("code", { className: ["language-mermaid"] }, [{ type: "text", value: source }]),
  ]);
  if (result?.ok) {
    const svg: Element = { ...result.svg, properties: { ...result.svg.properties, role: "img", ariaLabel: diagramLabel(source) } };
    return el("figure", { className: ["diagram"] }, [
      svg,
      el("details", { className: ["diagram-details"] }, [el("summary", {}, [{ type: "text", value: "Diagram source (Mermaid)" }]), sourceBlock]),
    ]);
  }
  const message = result
    ? `This diagram could not be drawn: ${result.error}. Its Mermaid source is shown as written.`
    : "Diagram preview: drawn when the renderer has loaded. Its Mermaid source is shown as written.";
  return el("figure", { className: result ? ["diagram", "diagram-error"] : ["diagram", "diagram-pending"] }, [
    el("p", { role: "note", className: ["diagram-message"] }, [{ type: "text", value: message }]),
    sourceBlock,
  ]);
}

/** "Flowchart", "Sequence diagram", … from the block's first line, for the image's accessible name. */
function diagramLabel(source: string): string {
  const kind = /^\s*(%%.*\n\s*)*([A-Za-z-]+)/.exec(source)?.[2]?.toLowerCase() ?? "";
  const names: Record<string, string> = {
    graph: "Flowchart",
    flowchart: "Flowchart",
    sequencediagram: "Sequence diagram",
    classdiagram: "Class diagram",
    statediagram: "State diagram",
    "statediagram-v2": "State diagram",
    erdiagram: "Entity relationship diagram",
    "xychart-beta": "Chart",
  };
  return `${names[kind] ?? "Diagram"} (source below)`;
}

function textOf(node: Element): string {
  return node.children.map((c) => (c.type === "text" ? c.value : c.type === "element" ? textOf(c) : "")).join("");
}

function el(tagName: string, properties: Properties, children: ElementContent[]): Element {
  return { type: "element", tagName, properties, children };
}

/**
 * Replaces each `<pre><code class="language-mermaid">` (as sanitizing left it) with its figure. Runs
 * after rehype-sanitize: the figure is built here from checked parts, and sanitizing would strip SVG.
 */
export function rehypeDiagrams({ draw, prefix }: { draw: DrawDiagram; prefix: string }) {
  return (tree: HastRoot) => {
    let n = 0;
    const visit = (node: HastRoot | Element) => {
      node.children.forEach((child, i) => {
        if (child.type !== "element") return;
        const code = child.tagName === "pre" ? child.children.find((c): c is Element => c.type === "element" && c.tagName === "code") : undefined;
        const classes = code?.properties.className;
        if (code && Array.isArray(classes) && classes.includes("language-mermaid")) {
          const source = textOf(code).replace(/\n$/, "");
          n++;
          node.children[i] = diagramFigure(source, withIds(draw(source), `${prefix}diagram-${n}-`));
          return;
        }
        visit(child);
      });
    };
    visit(tree);
  };
}

/** A cached drawing is shared between pages: each use gets its own copy with its own marker ids. */
function withIds(result: DiagramResult | null, idPrefix: string): DiagramResult | null {
  if (!result?.ok) return result;
  const copy = structuredClone(result.svg);
  const fix = (node: Element) => {
    for (const name of ["id", ...MARKER_ATTRIBUTES]) {
      const v = node.properties[name];
      if (typeof v === "string") node.properties[name] = v.replace(/^(url\(#)?__diagram__/, (_, url: string | undefined) => `${url ?? ""}${idPrefix}`);
    }
    for (const c of node.children) if (c.type === "element") fix(c);
  };
  fix(copy);
  return { ok: true, svg: copy };
}

/** The id prefix a cached drawing carries until a page gives it its own (see withIds). */
export const CACHED_ID_PREFIX = "__diagram__";
