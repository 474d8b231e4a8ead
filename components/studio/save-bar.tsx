"use client";

import { useEffect, useRef } from "react";
import { saveSummary, type SaveState } from "@/lib/hooks/save-status";
import { useClock } from "@/lib/hooks/use-clock";
import { buttonClass } from "@/components/ui/button";
import styles from "./studio.module.css";

export type SaveMessage = { kind: "ok" | "error"; text: string; unmet?: string[] };

/**
 * The editor's sticky save bar: one line saying what will happen ("Saved 2 min ago · 3 unsaved
 * changes"), the Save button with its shortcut, and the answer to the last action. The page keeps
 * room below the last field for it (scroll-padding and the form's padding), so it covers nothing.
 */
export function SaveBar(props: { state: SaveState; message: SaveMessage | null; disabled: boolean; label: string }) {
  const now = useClock();
  const ref = useRef<HTMLDivElement>(null);
  // Tab and "scroll into view" keep a field clear of the bar: the page's scroll padding is its height.
  useEffect(() => {
    const bar = ref.current;
    if (!bar) return;
    const root = document.documentElement;
    const fit = () => root.style.setProperty("scroll-padding-bottom", `${bar.offsetHeight + 16}px`);
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(bar);
    return () => {
      observer.disconnect();
      root.style.removeProperty("scroll-padding-bottom");
    };
  }, []);
  return (
    <div ref={ref} className={styles.saveBar}>
      <button type="submit" className={buttonClass("primary")} disabled={props.disabled} aria-keyshortcuts="Control+S Meta+S">
        {props.state.saving ? "Saving…" : props.label}
      </button>
      <span className={styles.saveState} data-testid="save-state">
        {saveSummary(props.state, now, now === null ? "UTC" : undefined)}
      </span>
      <span className={styles.shortcut} aria-hidden="true">
        <kbd>Ctrl</kbd>+<kbd>S</kbd>
      </span>
      <div aria-live="polite" className={`${styles.saveMessage} ${message(props.message)}`}>
        {props.message ? <p>{props.message.text}</p> : null}
        {props.message?.unmet?.length ? (
          <ul>
            {props.message.unmet.map((u) => (
              <li key={u}>{u}</li>
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}

const message = (m: SaveMessage | null) => (m?.kind === "error" ? styles.error : styles.ok);
