import Link from "next/link";
import { tagHasPage, tagUrl } from "@/lib/web/urls";

export function TagList({ tags, label = "Tags" }: { tags: readonly string[]; label?: string }) {
  if (tags.length === 0) return null;
  return (
    <ul className="tags" aria-label={label}>
      {tags.map((tag) => (
        <li key={tag}>{tagHasPage(tag) ? <Link href={tagUrl(tag)}>{tag}</Link> : tag}</li>
      ))}
    </ul>
  );
}
