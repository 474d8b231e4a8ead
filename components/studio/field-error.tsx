import type { Where } from "@/lib/rules/api-errors";
import styles from "./studio.module.css";

/** What is wrong with one field, said at the field: schema messages and archive-policy findings with their line. */
export function FieldError({ id, problems }: { id: string; problems: Where[] }) {
  if (problems.length === 0) return null;
  return (
    <ul id={id} className={styles.fieldError} role="list">
      {problems.map((p, i) => (
        <li key={i}>
          {p.line ? (
            <span className={styles.where}>
              line {p.line}
              {p.column ? `, column ${p.column}` : ""}:{" "}
            </span>
          ) : null}
          {p.message}
          {p.excerpt ? (
            <>
              {" "}
              <code>{p.excerpt}</code>
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
