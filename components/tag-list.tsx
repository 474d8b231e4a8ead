import { tagHasPage, tagUrl } from "@/lib/web/urls";

export function TagList({ tags, label = "Tags" }: { tags: readonly string[]; label?: string }) {
  if (tags.length === 0) return null;
  return (
    <ul className="tags" aria-label={label}>
      {tags.map((tag) => (
        <li key={tag}>{tagHasPage(tag) ? <a href={tagUrl(tag)}>{tag}</a> : tag}</li>
      ))}
    </ul>
  );
}
