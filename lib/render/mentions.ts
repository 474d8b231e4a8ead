import type { Link, Nodes, PhrasingContent, Root, RootContent, Text } from "mdast";
import { NOTE_ID } from "@/lib/notes/schema";
import { noteUrl } from "@/lib/web/urls";

/**
 * A remark step: every note ID written in prose (AFN-016) becomes a link to that note. IDs inside
 * code, inside an existing link, or not in `linkable` (a draft, a note that does not exist) stay text.
 */

const MENTION = new RegExp(`(?<![\\p{L}\\p{N}-])${NOTE_ID.source.slice(1, -1)}(?![\\p{L}\\p{N}]|-[\\p{L}\\p{N}])`, "gu");

export function remarkNoteMentions(options: { linkable?: ReadonlySet<string> } = {}) {
  const linkable = options.linkable;
  return (tree: Root) => {
    visit(tree);
  };

  function visit(node: Nodes) {
    if (node.type === "link" || node.type === "linkReference" || node.type === "code" || node.type === "inlineCode") return;
    if (!("children" in node)) return;
    const parent = node as { children: RootContent[] };
    parent.children = parent.children.flatMap((child): RootContent[] => {
      if (child.type === "text") return split(child);
      visit(child);
      return [child];
    });
  }

  function split(text: Text): PhrasingContent[] {
    const out: PhrasingContent[] = [];
    let last = 0;
    for (const m of text.value.matchAll(MENTION)) {
      const id = m[0];
      if (linkable && !linkable.has(id)) continue;
      if (m.index > last) out.push({ type: "text", value: text.value.slice(last, m.index) });
      const link: Link = { type: "link", url: noteUrl(id), children: [{ type: "text", value: id }] };
      out.push(link);
      last = m.index + id.length;
    }
    if (last === 0) return [text];
    if (last < text.value.length) out.push({ type: "text", value: text.value.slice(last) });
    return out;
  }
}
