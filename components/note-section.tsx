import { imageSizesIn } from "@/lib/assets/sizes";
import { renderSection } from "@/lib/render/sections";
import { SECTION_ANCHORS } from "@/lib/web/urls";

/**
 * One section of a note (Decision, Invariant, …) rendered from Markdown. The HTML comes out of
 * renderMarkdown's sanitizing pipeline, which is what makes setting it directly safe. A server
 * component: its images' sizes are read from the content repository, so each <img> has its width
 * and height before it loads; the section is rendered off the request thread (lib/render/sections.ts).
 * The section carries its stable anchor (`#claim-boundary`), what citations point at; the heading
 * keeps `h-<key>`, which older links use.
 */
export async function NoteSection({ id, heading, markdown, linkable }: { id: string; heading: string; markdown: string; linkable: ReadonlySet<string> }) {
  const images = markdown ? await imageSizesIn(markdown) : undefined;
  const html = markdown ? await renderSection(markdown, { linkable, idPrefix: id, images }) : "";
  return (
    <section className="note-section" id={SECTION_ANCHORS[id as keyof typeof SECTION_ANCHORS]} aria-labelledby={`h-${id}`}>
      <h2 id={`h-${id}`}>{heading}</h2>
      {markdown ? <div className="prose" dangerouslySetInnerHTML={{ __html: html }} /> : <p className="empty">Not recorded in this note.</p>}
    </section>
  );
}
