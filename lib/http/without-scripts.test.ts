import { describe, expect, it } from "vitest";
import { withoutScripts } from "./without-scripts";

describe("withoutScripts", () => {
  it("removes every script and script preload, and keeps styles, nonces, noscript and escaped text", () => {
    const html =
      '<html><head><link rel="stylesheet" href="/_next/static/chunks/s.css" nonce="n0" data-precedence="next"/>' +
      '<link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/a.js"/>' +
      '<link as="script" rel="modulepreload" href="/_next/static/chunks/b.js">' +
      '<link rel="preload" as="font" href="/_next/static/media/f.woff2" crossorigin=""/>' +
      '<script src="/_next/static/chunks/a.js" async="" nonce="n0"></script></head>' +
      "<body><main><p>Write &lt;script&gt;alert(1)&lt;/script&gt; as text.</p><noscript>No script needed.</noscript></main>" +
      '<script nonce="n0">self.__next_f.push([1,"a\\u003c/script\\u003e b"])</script>' +
      '<SCRIPT type="module">\nimport("x")\n</SCRIPT></body></html>';
    const out = withoutScripts(html);
    expect(out).not.toMatch(/<script|as="script"|__next_f|import\(/i);
    expect(out).toContain('<link rel="stylesheet" href="/_next/static/chunks/s.css" nonce="n0" data-precedence="next"/>');
    expect(out).toContain('<link rel="preload" as="font" href="/_next/static/media/f.woff2" crossorigin=""/>');
    expect(out).toContain("<p>Write &lt;script&gt;alert(1)&lt;/script&gt; as text.</p><noscript>No script needed.</noscript>");
  });
});
