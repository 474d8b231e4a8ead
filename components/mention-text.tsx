import { NOTE_ID } from "@/lib/notes/schema";
import { noteUrl } from "@/lib/web/urls";

const MENTION = new RegExp(`(${NOTE_ID.source.slice(1, -1)})`, "g");

/** Plain text (a summary) with the note IDs it mentions linked, when those notes are published. */
export function MentionText({ text, linkable }: { text: string; linkable: ReadonlySet<string> | ReadonlyMap<string, unknown> }) {
  const parts = text.split(MENTION);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 && linkable.has(part) ? (
          <a key={i} href={noteUrl(part)}>
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </>
  );
}
