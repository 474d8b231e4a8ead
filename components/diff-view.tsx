import type { DiffPart, FieldDiff } from "@/lib/diff/sections";

/**
 * A revision's changes, field by field. Removed text is struck through and added text underlined
 * (not only red and green), and each is announced as such to a screen reader.
 */
export function DiffView({ diffs }: { diffs: FieldDiff[] }) {
  if (diffs.length === 0) return <p className="empty">No field changed: the file was only reformatted.</p>;
  return (
    <div className="diff">
      {diffs.map((d) => (
        <section key={d.field} className="diff__field">
          <h4>
            {d.label} <span className="diff__change">{CHANGE[d.change]}</span>
          </h4>
          {d.list ? <ListDiff parts={d.parts} /> : <TextDiff parts={d.parts} />}
        </section>
      ))}
    </div>
  );
}

const CHANGE: Record<FieldDiff["change"], string> = { added: "added", removed: "removed", changed: "changed" };

function TextDiff({ parts }: { parts: DiffPart[] }) {
  return (
    <div className="diff__text">
      {parts.map((p, i) => (
        <Part key={i} part={p} />
      ))}
    </div>
  );
}

function ListDiff({ parts }: { parts: DiffPart[] }) {
  return (
    <ul className="diff__list">
      {parts.map((p, i) => (
        <li key={i}>
          <Part part={p} />
        </li>
      ))}
    </ul>
  );
}

function Part({ part }: { part: DiffPart }) {
  switch (part.kind) {
    case "added":
      return (
        <ins>
          <span className="visually-hidden">[added: </span>
          {part.text}
          <span className="visually-hidden">]</span>
        </ins>
      );
    case "removed":
      return (
        <del>
          <span className="visually-hidden">[removed: </span>
          {part.text}
          <span className="visually-hidden">]</span>
        </del>
      );
    case "gap":
      return (
        <details className="diff__gap">
          <summary>{words(part.text)} unchanged words</summary>
          {part.text}
        </details>
      );
    default:
      return <span>{part.text}</span>;
  }
}

function words(text: string) {
  return text.split(/\s+/).filter(Boolean).length;
}
