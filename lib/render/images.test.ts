import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown";

/** A note's image as a reader's browser gets it: at the site's /assets/ URL, sized, lazy; other sources untouched by this rule. */

const path = `assets/AFN-001/${"c".repeat(40)}.png`;

describe("images in a section", () => {
  it("point at /assets/… with width and height when their size is known", () => {
    const html = renderMarkdown(`![Block mask: grey blocks are skipped](${path})`, { images: new Map([[path, { width: 640, height: 360 }]]) });
    expect(html).toContain(`<img src="/${path}" alt="Block mask: grey blocks are skipped" width="640" height="360" loading="lazy" decoding="async">`);
  });

  it("still point at /assets/… without sizes, and a size change is not served from the cache", () => {
    expect(renderMarkdown(`![A](${path})`)).toContain(`<img src="/${path}" alt="A" loading="lazy" decoding="async">`);
    expect(renderMarkdown(`![A](${path})`, { images: new Map([[path, { width: 2, height: 1 }]]) })).toContain(`width="2" height="1"`);
  });

  it("leave anything that is not a note's asset as the sanitizer left it", () => {
    expect(renderMarkdown("![x](https://example.org/a.png)")).toContain('<img src="https://example.org/a.png" alt="x">');
    expect(renderMarkdown("![x](assets/AFN-001/not-a-hash.png)")).toContain('<img src="assets/AFN-001/not-a-hash.png" alt="x">');
    expect(renderMarkdown("![x](javascript:alert(1))")).not.toMatch(/javascript:/);
  });
});
