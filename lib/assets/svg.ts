import createDOMPurify from "dompurify";

/**
 * SVG is a document, not pixels: it can carry scripts, event handlers and references to other
 * sites (which would make a reader's browser call them). DOMPurify's SVG profile removes scripts and
 * handlers; the hook below also removes every reference that is not to the same document (`#id`),
 * and style that loads anything. What was removed is reported: the upload keeps the clean file and
 * says so, content:check calls a committed SVG with anything to remove unsafe.
 *
 * jsdom (DOMPurify's DOM on the server) is loaded at the first SVG, not with this module: it is
 * about 13 MB of heap and 50 MB of resident memory, and a public server whose notes show no SVG
 * (every note page loads this module, for image sizes) never needs it.
 */

const REFERENCE_ATTRIBUTES = new Set(["href", "xlink:href", "src"]);
// CSS that loads: url() of anything but this document's #id, the image functions that take a
// URL as a string, @import. Presentation attributes (fill, stroke, filter, clip-path, mask,
// marker-*) are CSS values like style's, so every attribute is held to it.
const LOADS = /url\s*\(\s*(?!['"]?\s*#)|(?:image-set|image|cross-fade|src)\s*\(|@import/i;

/** A CSS value with its escapes (`u\72l(` is `url(`) and comments read as CSS reads them. */
function cssText(value: string): string {
  return value
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\\([0-9a-f]{1,6})\s?/gi, (_, hex: string) => String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff) || 0xfffd))
    .replace(/\\(.)/g, "$1");
}

type Purifier = { purify: ReturnType<typeof createDOMPurify>; serializer: XMLSerializer };
let purifier: Promise<Purifier> | null = null;

function loadPurifier(): Promise<Purifier> {
  purifier ??= import("jsdom").then(({ JSDOM }) => {
    const { window } = new JSDOM("");
    const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
    purify.addHook("uponSanitizeAttribute", (_node, data) => {
      const name = data.attrName.toLowerCase();
      if (REFERENCE_ATTRIBUTES.has(name) && !data.attrValue.trim().startsWith("#")) data.keepAttr = false;
      else if (LOADS.test(cssText(data.attrValue))) data.keepAttr = false;
    });
    return { purify, serializer: new window.XMLSerializer() as XMLSerializer };
  });
  return purifier;
}

export type SvgResult = { svg: string; removed: string[] };

/** The SVG without anything active or external; `removed` names what went (empty for a clean file). */
export async function sanitizeSvg(text: string): Promise<SvgResult> {
  const { purify, serializer } = await loadPurifier();
  const removed: string[] = [];
  if (/<!DOCTYPE/i.test(text)) removed.push("a DOCTYPE (entity declarations)");
  if (/<!--/.test(text)) removed.push("comments");
  if (/<\?xml-stylesheet/i.test(text)) removed.push("a stylesheet processing instruction");
  const source = text
    .replace(/<\?xml[^>]*\?>/gi, "")
    .replace(/<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/gi, "")
    .replace(/<!--[\s\S]*?-->/g, "");
  const fragment = purify.sanitize(source, {
    RETURN_DOM_FRAGMENT: true,
    USE_PROFILES: { svg: true, svgFilters: true },
    // <use> may point only inside the file: the hook removes any other reference.
    ADD_TAGS: ["use"],
    // Metadata can name people; <style> and foreignObject can carry HTML and loads.
    FORBID_TAGS: ["style", "foreignObject", "metadata", "script", "a"],
    FORBID_ATTR: ["xml:base"],
  });
  for (const item of purify.removed as { element?: Element; attribute?: Attr | null; from?: Element }[]) {
    if (item.attribute) removed.push(`the ${item.attribute.name}="${shorten(item.attribute.value)}" attribute of <${item.from?.nodeName.toLowerCase()}>`);
    // The HTML parser's own wrapper (<html>, <head>, <body>) is not part of the file.
    else if (item.element && item.element.nodeType === 1 && !WRAPPERS.has(item.element.nodeName.toLowerCase()))
      removed.push(`the <${item.element.nodeName.toLowerCase()}> element`);
  }
  // Serialised as XML (an SVG file is XML; HTML serialisation leaves "<" in attribute values).
  const root = fragment.firstElementChild;
  const svg = root && root.localName === "svg" ? serializer.serializeToString(root) : "";
  return { svg, removed: [...new Set(removed)] };
}

/** Is this text an SVG document (root element <svg> in the SVG namespace)? */
export function isSvg(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 4096))
    .toString("utf8")
    .replace(/^\uFEFF/, "");
  const start = head
    .replace(/<\?xml[^>]*\?>/i, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/i, "")
    .trimStart();
  return /^<svg[\s>]/i.test(start) && /xmlns\s*=\s*["']http:\/\/www\.w3\.org\/2000\/svg["']/.test(head);
}

const WRAPPERS = new Set(["html", "head", "body"]);
const shorten = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}…` : s);
