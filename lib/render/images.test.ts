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

  it("offer narrower copies (srcset, sizes) when the stored image is wider than 640 pixels, keeping width and height", () => {
    const wide = `assets/AFN-001/${"d".repeat(40)}.jpg`;
    const html = renderMarkdown(`![A wide plot](${wide})`, { images: new Map([[wide, { width: 2400, height: 1200 }]]) });
    const stem = `/assets/AFN-001/${"d".repeat(40)}`;
    expect(html).toContain(
      `<img src="${stem}.jpg" alt="A wide plot" width="2400" height="1200" srcset="${stem}-640w.jpg 640w, ${stem}-1280w.jpg 1280w, ${stem}.jpg 2400w" sizes="(max-width: 42rem) 100vw, 42rem"`,
    );
    const medium = renderMarkdown(`![A plot](${wide})`, { images: new Map([[wide, { width: 1000, height: 500 }]]) });
    expect(medium).toContain(`srcset="${stem}-640w.jpg 640w, ${stem}.jpg 1000w"`);
    // No copies for an image no wider than the smallest, a GIF (its frames) or an SVG (drawn at any width).
    expect(renderMarkdown(`![A](${path})`, { images: new Map([[path, { width: 640, height: 360 }]]) })).not.toContain("srcset");
    for (const ext of ["gif", "svg"]) {
      const other = `assets/AFN-001/${"e".repeat(40)}.${ext}`;
      expect(renderMarkdown(`![A](${other})`, { images: new Map([[other, { width: 2000, height: 1000 }]]) })).not.toContain("srcset");
    }
  });

  it("leave anything that is not a note's asset as the sanitizer left it", () => {
    expect(renderMarkdown("![x](https://example.org/a.png)")).toContain('<img src="https://example.org/a.png" alt="x">');
    expect(renderMarkdown("![x](assets/AFN-001/not-a-hash.png)")).toContain('<img src="assets/AFN-001/not-a-hash.png" alt="x">');
    expect(renderMarkdown("![x](javascript:alert(1))")).not.toMatch(/javascript:/);
  });
});
