import { SVG_LIMITS, type SvgLimits } from "@/lib/rules/images";

/**
 * An SVG's size as a parser would build it, counted before any parser sees it. Sanitising parses
 * the file into a DOM (jsdom), whose cost grows with the elements and their nesting: 20,000 nested
 * `<g>` held the server 55 s, 150,000 `<rect/>` took 2.7 GB (issue 32). This loop reads the text
 * once, keeps no tree, and stops at the first limit passed.
 *
 * It counts as the HTML parser DOMPurify uses nests, never fewer: a start tag opens an element,
 * unless it ends in `/>` inside SVG (outside it, in a `foreignObject` say, `<div/>` opens one) or is
 * one of HTML's void elements there; an end tag closes up to the nearest open element of its name
 * and is ignored when none is open (so `<g></x>` repeated nests, as the parser nests it); comments
 * and `<!…>`/`<?…>` declarations hold no elements. What it does not model (HTML's own tree repairs)
 * only makes it count more, and is bounded again by the worker's time and memory (./svg-thread.ts).
 */

export type SvgLimit = "bytes" | "elements" | "depth" | "attributes" | "element-attributes";
/** The limit passed, a sentence naming it ("its elements are nested more than 100 …"), and a few words for the field. */
export type SvgOverLimit = { limit: SvgLimit; message: string; short: string };

// HTML start tags that end SVG content where they appear; and SVG's HTML integration points, whose children are HTML.
const BREAKOUT = new Set(
  "b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img li listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var font".split(
    " ",
  ),
);
const INTEGRATION = new Set(["foreignobject", "desc", "title"]);
// HTML elements that never hold children, with or without "/>".
const VOID = new Set("area base br col embed hr img input keygen link meta param source track wbr".split(" "));

const SPACE = new Set([0x20, 0x09, 0x0a, 0x0c, 0x0d]);
const isLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const thousands = (n: number) => n.toLocaleString("en-US");
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/** The first limit this SVG passes, in words that name it; null when it is within every limit. */
export function svgOverLimit(bytes: Uint8Array, limits: SvgLimits = SVG_LIMITS): SvgOverLimit | null {
  if (bytes.length > limits.maxBytes) {
    return {
      limit: "bytes",
      message: `it is ${mb(bytes.length)}, more than the ${mb(limits.maxBytes)} an SVG may be`,
      short: `larger than ${mb(limits.maxBytes)}`,
    };
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("utf8");
  const n = text.length;
  const open: string[] = [];
  let elements = 0;
  let attributes = 0;
  let i = 0;
  while ((i = text.indexOf("<", i)) !== -1) {
    const next = text.charCodeAt(i + 1);
    if (text.startsWith("<!--", i)) {
      const end = text.indexOf("-->", i + 4);
      if (end === -1) break; // the rest is a comment
      i = end + 3;
      continue;
    }
    if (next === 0x21 /* ! */ || next === 0x3f /* ? */) {
      i = skipTo(text, i + 2);
      continue;
    }
    const closing = next === 0x2f; /* / */
    const start = closing ? i + 2 : i + 1;
    if (!isLetter(text.charCodeAt(start))) {
      // "<" before anything but a letter is text; "</" before it a bogus comment up to ">".
      i = closing ? skipTo(text, start) : i + 1;
      continue;
    }
    let j = start;
    while (j < n && !SPACE.has(text.charCodeAt(j)) && text[j] !== "/" && text[j] !== ">") j++;
    const name = text.slice(start, j).toLowerCase();
    if (closing) {
      const at = open.lastIndexOf(name);
      if (at !== -1) open.length = at;
      i = skipTo(text, j);
      continue;
    }
    const tag = readAttributes(text, j);
    attributes += tag.attributes;
    i = tag.end;
    if (++elements > limits.maxElements) {
      return {
        limit: "elements",
        message: `it has more than the ${thousands(limits.maxElements)} elements an SVG may have`,
        short: `more than ${thousands(limits.maxElements)} elements`,
      };
    }
    if (tag.attributes > limits.maxElementAttributes) {
      return {
        limit: "element-attributes",
        message: `its <${name.slice(0, 40)}> element has more than the ${thousands(limits.maxElementAttributes)} attributes an element may have`,
        short: `more than ${thousands(limits.maxElementAttributes)} attributes on one element`,
      };
    }
    if (attributes > limits.maxAttributes) {
      return {
        limit: "attributes",
        message: `it has more than the ${thousands(limits.maxAttributes)} attributes an SVG may have`,
        short: `more than ${thousands(limits.maxAttributes)} attributes`,
      };
    }
    const svg = inSvg(open) && !BREAKOUT.has(name);
    if (svg ? !tag.selfClosing : !VOID.has(name)) {
      open.push(name);
      if (open.length > limits.maxDepth) {
        return {
          limit: "depth",
          message: `its elements are nested more than ${thousands(limits.maxDepth)} elements deep, deeper than an SVG may be`,
          short: `nested more than ${thousands(limits.maxDepth)} deep`,
        };
      }
    }
  }
  return null;
}

/** Whether the next element is parsed as SVG: the nearest open <svg> is nearer than any HTML element or integration point. */
function inSvg(open: readonly string[]): boolean {
  for (let k = open.length - 1; k >= 0; k--) {
    const name = open[k]!;
    if (name === "svg") return true;
    if (INTEGRATION.has(name) || BREAKOUT.has(name)) return false;
  }
  return false;
}

/** Past the next ">" from `from` (the end of the text when there is none). */
function skipTo(text: string, from: number): number {
  const end = text.indexOf(">", from);
  return end === -1 ? text.length : end + 1;
}

/**
 * A start tag's attributes from just after its name: how many, where the tag ends, whether it ends
 * in "/>". As the HTML tokenizer reads them: a quote is a value's only after "=", and a ">" inside
 * a quoted value does not end the tag.
 */
function readAttributes(text: string, from: number): { attributes: number; end: number; selfClosing: boolean } {
  const n = text.length;
  let attributes = 0;
  // A "/" right before ">" (not one ending an unquoted value: <g a=b/> does not close).
  let slash = false;
  let j = from;
  while (j < n) {
    const c = text[j];
    if (c === ">") return { attributes, end: j + 1, selfClosing: slash };
    slash = c === "/";
    if (c === "=") {
      j++;
      while (j < n && SPACE.has(text.charCodeAt(j))) j++;
      const quote = text[j];
      if (quote === '"' || quote === "'") {
        const close = text.indexOf(quote, j + 1);
        j = close === -1 ? n : close + 1;
      } else {
        while (j < n && !SPACE.has(text.charCodeAt(j)) && text[j] !== ">") j++;
      }
      continue;
    }
    if (SPACE.has(text.charCodeAt(j)) || c === "/") {
      j++;
      continue;
    }
    attributes++;
    while (j < n && !SPACE.has(text.charCodeAt(j)) && text[j] !== "/" && text[j] !== ">" && text[j] !== "=") j++;
  }
  return { attributes, end: n, selfClosing: false };
}
