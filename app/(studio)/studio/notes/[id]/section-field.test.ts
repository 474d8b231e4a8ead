import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SectionField } from "@/components/studio/section-field";

/**
 * The editor page's form is there in the server's HTML: each section is a textarea named by its
 * heading, holding the section's text, before the Markdown editor's chunk (@uiw/react-md-editor)
 * has been fetched and run (editable once the page hydrates). The page waited for that chunk (next/dynamic, ssr: false) to show any
 * field: 0.9–2.2 s to a usable editor in bench:studio.
 */
describe("a section field rendered on the server", () => {
  const html = renderToString(
    createElement(SectionField, {
      name: "Decision",
      hint: "What was decided.",
      value: "Keep the cache per commit.\n\nSecond paragraph & more.",
      problems: [],
      readOnly: false,
      notes: [],
      onChange: () => undefined,
      onBlur: () => undefined,
    }),
  );

  it("is a textarea labelled by its heading, with the section's text", () => {
    expect(html).toContain('<label class="');
    expect(html).toMatch(/<label[^>]*for="section-decision"[^>]*>Decision<\/label>/);
    expect(html).toMatch(/<textarea[^>]*id="section-decision"[^>]*>Keep the cache per commit.\n\nSecond paragraph &amp; more.<\/textarea>/);
    expect(html).not.toContain("Loading the editor");
    // Read-only until React handles it: text typed before the page hydrates would be lost.
    expect(html).toMatch(/<textarea[^>]*readOnly=""/i);
  });

  it("is read-only for whoever may not write, and names its problems", () => {
    const reviewer = renderToString(
      createElement(SectionField, {
        name: "Claim boundary",
        hint: "",
        value: "",
        problems: [{ field: "sections.claimBoundary", message: "required" }],
        readOnly: true,
        notes: [],
        onChange: () => undefined,
        onBlur: () => undefined,
      }),
    );
    expect(reviewer).toMatch(/<textarea[^>]*id="section-claim-boundary"[^>]*readOnly=""/i);
    expect(reviewer).toMatch(/<textarea[^>]*aria-invalid="true"[^>]*aria-describedby="section-claim-boundary-errors"/);
  });
});
