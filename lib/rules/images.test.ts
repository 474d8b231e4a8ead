import { describe, expect, it } from "vitest";
import { checkImages, DEFAULT_ASSET_LIMITS, imagesIn, type AssetFacts } from "./images";

/** The image rules on a note's text and on the facts of its files, as the studio and content:check both apply them. */

const id = "AFN-042";
const asset = `assets/${id}/${"a".repeat(40)}.png`;
const clean: AssetFacts = { type: "png", size: 1000, width: 10, height: 10, metadata: [], svgProblems: [] };
const note = (evidence: string) => ({ id, sections: { decision: "", invariant: "", rejectedShortcut: "", evidence, claimBoundary: "", notes: "" } });
const assets = (facts: AssetFacts | null) => ({ facts: new Map([[asset, facts]]), limits: DEFAULT_ASSET_LIMITS });

describe("finding a section's images", () => {
  it("finds inline and reference-style images with their lines, and not an image written as code", () => {
    const text = `Intro.\n\n![One](${asset})\n\n\`![not an image](x.png)\`\n\n    ![indented code](y.png)\n\n![Two][fig]\n\n[fig]: ${asset}`;
    expect(imagesIn("sections.evidence", text)).toEqual([
      { field: "sections.evidence", line: 3, alt: "One", src: asset },
      { field: "sections.evidence", line: 9, alt: "Two", src: asset },
    ]);
  });
});

describe("the image rules", () => {
  it("accept a clean image of the note with alt text", () => {
    expect(checkImages(note(`![A figure](${asset})`), assets(clean))).toEqual([]);
  });

  it("want alt text, the note's own asset and nothing from outside", () => {
    const found = checkImages(note(`![](${asset})\n\n![x](assets/AFN-001/${"b".repeat(40)}.png)\n\n![y](https://cdn.example/z.png)`), assets(clean));
    expect(found.map((f) => [f.line, f.message.split(": ")[0]])).toEqual([
      [1, `the image ${asset} has no alt text`],
      [3, `assets/AFN-001/${"b".repeat(40)}.png belongs to AFN-001`],
      [5, "https://cdn.example/z.png is outside the archive"],
    ]);
  });

  it("hold each file to its type, size, pixels, metadata and SVG safety", () => {
    const message = (facts: AssetFacts | null) => checkImages(note(`![A](${asset})`), assets(facts)).map((f) => f.message);
    expect(message(null)).toEqual([`${asset} is not in the repository: upload the image again`]);
    expect(message({ ...clean, type: null })[0]).toMatch(/is not a PNG, JPEG, WebP, GIF or SVG image by its bytes/);
    expect(message({ ...clean, type: "jpg" })[0]).toMatch(/holds JPG bytes under a \.png name/);
    expect(message({ ...clean, size: 6 * 1024 * 1024 })[0]).toMatch(/is 6\.0 MB, more than the 5\.0 MB/);
    expect(message({ ...clean, width: 10_000, height: 10_000 })[0]).toMatch(/10000×10000 pixels, more than the 40 megapixels/);
    expect(message({ ...clean, metadata: ["EXIF", "XMP"] })[0]).toMatch(/carries metadata \(EXIF, XMP\)/);
    expect(message({ ...clean, svgProblems: ["the <script> element"] })[0]).toMatch(/unsafe SVG: the <script> element/);
    expect(message({ ...clean, width: 1, height: 39_000_000 })[0]).toMatch(/1×39000000 pixels: an image is at most 16384 pixels on a side/);
    expect(message({ ...clean, type: "png", svgTooComplex: "it has more than the 10,000 elements an SVG may have" })[0]).toMatch(
      /an SVG too complex to check: it has more than the 10,000 elements/,
    );
  });

  it("check only the text when no facts are given (a status change)", () => {
    expect(checkImages(note(`![A](${asset})`))).toEqual([]);
    expect(checkImages(note(`![](${asset})`))).toHaveLength(1);
  });
});
