/**
 * The XSS corpus and the inertness check the tests share: hostile Markdown and HTML a writer (or a
 * plain-git agent) might put in any field, and a reader of HTML output that lists what a browser
 * would run or load from it. A tag shown as text (`&#x3C;script>`) is inert; a live `<script>`,
 * an `on…=` handler, a style, a javascript:/data:/vbscript: URL, an external `url(…)`, or SVG that can
 * run or embed something (foreignObject, animation, use) is not.
 */

export const XSS_PAYLOADS: readonly (readonly [name: string, payload: string])[] = [
  ["script element", "<script>alert(1)</script>"],
  ["script block", "<script>\nalert(1)\n</script>\n"],
  ["img onerror", '<img src="x" onerror="alert(1)">'],
  ["iframe", '<iframe src="https://evil.example"></iframe>'],
  ["iframe srcdoc", '<iframe srcdoc="<script>alert(1)</script>"></iframe>'],
  ["svg onload", '<svg onload="alert(1)"><circle r="1"/></svg>'],
  ["style attribute", '<p style="background:url(javascript:alert(1))">x</p>'],
  ["style element", "<style>body{display:none}</style>"],
  ["javascript link", "[click](javascript:alert(1))"],
  ["upper-case javascript link", "[click](JAVASCRIPT:alert(1))"],
  ["entity-encoded javascript link", "[click](jav&#x61;script:alert(1))"],
  ["tab-split javascript link", "[click](java&#9;script:alert(1))"],
  ["javascript autolink", "<javascript:alert(1)>"],
  ["javascript reference link", "[click][x]\n\n[x]: javascript:alert(1)"],
  ["data: link", "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)"],
  ["data: image", "![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)"],
  ["javascript image", "![x](javascript:alert(1))"],
  ["vbscript link", "[click](vbscript:msgbox(1))"],
  ["link with title breaking out", '[a](https://x.org "t\\" onmouseover=\\"alert(1)")'],
  ["form with button", '<form action="javascript:alert(1)"><button>go</button></form>'],
  ["object and embed", '<object data="x.swf"></object><embed src="x.swf">'],
  ["base and meta", '<base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=javascript:alert(1)">'],
  ["math", "<math><mtext><img src=x onerror=alert(1)></mtext></math>"],
  ["in a table cell", "| a |\n| - |\n| <img src=x onerror=alert(1)> [x](javascript:alert(1)) |"],
  ["in a list item", "- <script>alert(1)</script>\n- [x](javascript:alert(1))"],
  ["in a footnote", "x[^1]\n\n[^1]: <svg onload=alert(1)> [y](javascript:alert(1))"],
  ["in a heading", "### <img src=x onerror=alert(1)>"],
  ["CDATA end in text", "]]><script>alert(1)</script><![CDATA["],
  // Mermaid labels are the writer's text too, drawn into an inline SVG (lib/render/diagram-svg.ts).
  // Blank lines around each fence, so the block stays one closed fence wherever a test embeds it.
  ["mermaid node labels", '\n\n```mermaid\nflowchart LR\n  A["<script>alert(1)</script>"] --> B[<img src=x onerror=alert(1)>]\n```\n\n'],
  ["mermaid edge label", "\n\n```mermaid\nflowchart LR\n  A -->|<svg onload=alert(1)>| B\n```\n\n"],
  [
    "mermaid sequence message",
    "\n\n```mermaid\nsequenceDiagram\n  A->>B: <iframe src=javascript:alert(1)></iframe>\n  Note over A: <b onmouseover=alert(1)>x</b>\n```\n\n",
  ],
  [
    "mermaid styles with URLs",
    '\n\n```mermaid\nflowchart LR\n  A --> B\n  style A fill:url(https://evil.example/x),stroke:javascript:alert(1)\n  classDef c fill:url(https://evil.example/y)\n  class B c\n  click A "javascript:alert(1)"\n```\n\n',
  ],
  [
    "mermaid label closing the text",
    '\n\n```mermaid\nflowchart LR\n  A["</text><foreignObject><div onclick=alert(1)>x</div></foreignObject><text>"] --> B\n```\n\n',
  ],
  [
    "mermaid init directive",
    '\n\n```mermaid\n%%{init: {"securityLevel": "loose", "themeCSS": "svg{background:url(https://evil.example)}"}}%%\nflowchart LR\n  A --> B\n```\n\n',
  ],
  ["mermaid class member", "\n\n```mermaid\nclassDiagram\n  class A {\n    +<script>alert(1)</script> x\n  }\n```\n\n"],
];

/** Every tag in the output with its attributes, as the browser would read them. */
export function tagsOf(html: string) {
  return [...html.matchAll(/<([a-z][a-z0-9-]*)((?:\s+[^\s=>]+(?:="[^"]*"|='[^']*'|=[^\s>]+)?)*)\s*\/?>/gi)].map((m) => ({
    name: (m[1] ?? "").toLowerCase(),
    attrs: [...(m[2] ?? "").matchAll(/([^\s=>]+)(?:="([^"]*)"|='([^']*)'|=([^\s>]+))?/g)].map((a) => ({
      name: (a[1] ?? "").toLowerCase(),
      value: decodeEntities(a[2] ?? a[3] ?? a[4] ?? ""),
    })),
  }));
}

export function decodeEntities(value: string) {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);?/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

// An inline <svg> may be a drawn diagram (lib/render/diagram-svg.ts): it is judged by what it holds,
// never by being there. What in SVG can run, load or embed HTML is listed here instead.
const DANGEROUS_TAGS = [
  "script",
  "iframe",
  "object",
  "embed",
  "style",
  "form",
  "math",
  "link",
  "meta",
  "base",
  "foreignobject",
  "animate",
  "animatetransform",
  "animatemotion",
  "set",
  "use",
  "image",
  "feimage",
  "handler",
  "listener",
];
const URL_ATTRS = ["href", "src", "srcset", "cite", "action", "formaction", "xlink:href"];

/** What in `html` a browser would run or load from a hostile source; [] when it is inert. */
export function liveMarkup(html: string): string[] {
  const problems: string[] = [];
  for (const tag of tagsOf(html)) {
    if (DANGEROUS_TAGS.includes(tag.name)) problems.push(`<${tag.name}>`);
    for (const attr of tag.attrs) {
      if (/^on/.test(attr.name)) problems.push(`${tag.name} has an event handler ${attr.name}`);
      if (attr.name === "style") problems.push(`${tag.name} has a style`);
      // A paint or marker may point inside the drawing (url(#id)), never outside it.
      if (/url\(\s*['"]?(?!#)/i.test(attr.value)) problems.push(`${tag.name} ${attr.name} loads ${attr.value}`);
      if (URL_ATTRS.includes(attr.name) && /^(javascript|data|vbscript):/.test(attr.value.replace(/[\s\u0000-\u001f]/g, "").toLowerCase())) {
        problems.push(`${tag.name} ${attr.name}=${attr.value}`);
      }
    }
  }
  return problems;
}
