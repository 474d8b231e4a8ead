import { renderMarkdown } from "@/lib/render/markdown";

/**
 * One section of a note (Decision, Invariant, …) rendered from Markdown. The HTML comes out of
 * renderMarkdown's sanitizing pipeline, which is what makes setting it directly safe.
 */
export function NoteSection({ id, heading, markdown, linkable }: { id: string; heading: string; markdown: string; linkable: ReadonlySet<string> }) {
  return (
    <section className="note-section" aria-labelledby={`h-${id}`}>
      <h2 id={`h-${id}`}>{heading}</h2>
      {markdown ? (
        <div className="prose" dangerouslySetInnerHTML={{ __html: renderMarkdown(markdown, { linkable, idPrefix: id }) }} />
      ) : (
        <p className="empty">Not recorded in this note.</p>
      )}
    </section>
  );
}
