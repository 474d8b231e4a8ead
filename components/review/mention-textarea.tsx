"use client";

import { useId, useState, type KeyboardEvent, type TextareaHTMLAttributes } from "react";
import { flushSync } from "react-dom";
import { matchesMention, mentionAt } from "@/lib/rules/mentions";
import { usePeople } from "@/lib/queries/use-notifications";
import styles from "./review.module.css";

type Props = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "value" | "onChange"> & { value: string; onValueChange: (value: string) => void };

const SHOWN = 6;

/**
 * A comment box that completes `@name` from the site's people (GET /api/studio/people). While a
 * mention is being typed a list of matching names opens under the box: ↓/↑ choose, Enter or Tab
 * puts the name in, Escape closes the list; a click does the same. A name nobody has stays plain
 * text. The box keeps its own label; the list is announced through aria-activedescendant.
 */
export function MentionTextarea({ value, onValueChange, onKeyDown, ...rest }: Props) {
  const listId = useId();
  const [caret, setCaret] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const [closedAt, setClosedAt] = useState<number | null>(null);
  const typing = caret === null ? null : mentionAt(value, caret);
  const { data } = usePeople(typing !== null);
  const matches = typing && closedAt !== typing.start ? (data?.people ?? []).filter((p) => matchesMention(p, typing.query)).slice(0, SHOWN) : [];
  const open = matches.length > 0;
  const chosen = Math.min(active, matches.length - 1);

  const insert = (name: string, box: HTMLTextAreaElement | null) => {
    if (!typing || caret === null) return;
    const next = `${value.slice(0, typing.start)}@${name} ${value.slice(caret)}`;
    const at = typing.start + name.length + 2;
    // Committed now, and the caret put after the name now: a key typed right after Enter must land
    // there, not at the end where a controlled textarea's new value leaves the caret.
    flushSync(() => {
      onValueChange(next);
      setCaret(at);
      setActive(0);
    });
    box?.setSelectionRange(at, at);
  };

  const keys = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        setActive((chosen + (e.key === "ArrowDown" ? 1 : matches.length - 1)) % matches.length);
        return;
      }
      if ((e.key === "Enter" || e.key === "Tab") && matches[chosen]) {
        e.preventDefault();
        insert(matches[chosen].name, e.currentTarget);
        return;
      }
      if (e.key === "Escape") {
        e.preventDefault();
        setClosedAt(typing?.start ?? null);
        return;
      }
    }
    onKeyDown?.(e);
  };

  return (
    <div className={styles.mentionBox}>
      <textarea
        {...rest}
        value={value}
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? `${listId}-${chosen}` : undefined}
        onChange={(e) => {
          onValueChange(e.target.value);
          setCaret(e.target.selectionStart);
          setActive(0);
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        onKeyDown={keys}
        onBlur={() => setCaret(null)}
      />
      {open ? (
        <ul id={listId} role="listbox" aria-label="People to mention" className={styles.mentionList}>
          {matches.map((p, i) => (
            <li
              key={p.id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === chosen}
              // mousedown, not click: the box keeps its focus and its caret.
              onMouseDown={(e) => {
                e.preventDefault();
                insert(p.name, e.currentTarget.closest("div")?.querySelector("textarea") ?? null);
              }}
            >
              {p.displayName !== p.name ? (
                <>
                  {p.displayName} <span className={styles.mentionLogin}>@{p.name}</span>
                </>
              ) : (
                <>@{p.name}</>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
