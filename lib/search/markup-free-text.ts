import { markdownToPlainText } from "@/lib/render/plain-text";

/**
 * Plain text of a note's section for search, without a Markdown parser when the text cannot hold
 * markup: most sections are sentences and `- ` lists, and parsing every one of them was most of
 * the cost of indexing 10,000 notes. Anything that could be markup (links, emphasis, code, HTML,
 * entities, headings, nesting, numbered lists) goes through the parser, so the answer is always
 * what `markdownToPlainText` gives (a property test holds the two equal).
 */

// Characters that can start inline markup, escapes or entities.
const INLINE = /[\\`*_[\]()<>#|~!&=]/;
// Lines the parser reads as something other than a paragraph or a top-level "- " list item:
// indentation (nesting, code), numbered items, other bullets, a "-" bullet followed by a tab (its
// item text starts at the tab stop), rules and setext underlines, tables (a delimiter row needs no
// pipe: "cache\n:-" is a one-column table).
const BLOCK = /^(?:[ \t]|\d+[.)](?:\s|$)|[+*](?:\s|$)|-\t|-[ \t]*$|-(?:[ \t]*-)+|:[ \t]*-|-+[ \t]*:|>)/m;
const BULLET = /^- /gm;

/** Whether a Markdown text could hold any markup: if not, a parser reads it as paragraphs of its own words (and `- ` items). */
export const mayHoldMarkup = (markdown: string) => INLINE.test(markdown) || BLOCK.test(markdown);

export function sectionPlainText(markdown: string): string {
  if (mayHoldMarkup(markdown)) return markdownToPlainText(markdown);
  // What follows a bullet is read as a line start of its own (a nested list, code, a quote).
  const items = markdown.replace(BULLET, "");
  if (BLOCK.test(items)) return markdownToPlainText(markdown);
  return items.replace(/\s+/g, " ").trim();
}
