import type { MDEditorProps } from "@uiw/react-md-editor/nohighlight";
import { SECTION_REMARK_REHYPE, sectionRehypePlugins, sectionRemarkPlugins } from "./markdown";

/**
 * What the studio's Markdown editor previews with: the public pages' pipeline (lib/render/markdown.ts)
 * in place of the preview library's own. Its own plugins trust the source (rehype-attr sets
 * attributes from comments, raw HTML is an option) and its links keep any scheme, so a `data:` or
 * `vbscript:` link was a live anchor in the preview that the published page never shows.
 */
export function previewOptions(fieldId: string): NonNullable<MDEditorProps["previewOptions"]> {
  const remark = sectionRemarkPlugins();
  const rehype = sectionRehypePlugins(`${fieldId}-preview-`);
  return {
    // Replaces both lists outright (headings, anchors, copy buttons, attributes from comments).
    pluginsFilter: (type) => (type === "remark" ? remark : rehype),
    remarkRehypeOptions: SECTION_REMARK_REHYPE,
    // Raw HTML stays text (the remark step turns it into text before it could be parsed).
    skipHtml: true,
  };
}
