"use client";

import { useEffect, useRef } from "react";
import { saveSummary, type SaveState } from "@/lib/hooks/save-status";
import { useClock } from "@/lib/hooks/use-clock";
import { buttonClass } from "@/components/ui/button";
import styles from "./studio.module.css";

/** Room kept between the bar and a field scrolled below it, in px. */
const GAP = 12;

export type SaveMessage = { kind: "ok" | "error"; text: string; unmet?: string[] };

/**
 * The editor's save bar: one line saying what will happen ("Saved 2 min ago · 3 unsaved changes"),
 * the Save button with its shortcut, and the answer to the last action. It sits above the first
 * field and sticks to the top of the window while the form scrolls, so it never covers a field:
 * on load it is in the flow, and a focused field (Tab, "scroll into view", an error's field) is
 * scrolled below it (the page's scroll-padding-top is the bar's height) and wholly into the window
 * when it fits. At the bottom it covered the last lines in view and the caret of a Markdown field
 * growing under it.
 */
export function SaveBar(props: { state: SaveState; message: SaveMessage | null; disabled: boolean; label: string }) {
  const now = useClock();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const bar = ref.current;
    if (!bar) return;
    const root = document.documentElement;
    const room = () => bar.offsetHeight + GAP;
    const fit = () => root.style.setProperty("scroll-padding-top", `${room()}px`);
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(bar);
    // Focus on a field of the form moves the page, when it must, so the whole field shows between the
    // bar and the window's bottom (its top at least, if it is taller than that): the browser scrolls
    // focus only until some of the field is in view, which left a field's lower part under the fold
    // or, with scroll-padding ignored, its top under the bar. The bar may stick as the page moves,
    // so the room above is always counted as the bar's height.
    const clear = (e: FocusEvent) => {
      const field = e.target instanceof Element ? e.target : null;
      const form = bar.closest("form");
      if (!field || !form?.contains(field) || bar.contains(field) || field.closest("dialog")) return;
      if (!(bar.compareDocumentPosition(field) & Node.DOCUMENT_POSITION_FOLLOWING)) return;
      const r = field.getBoundingClientRect();
      const top = bar.offsetHeight + GAP;
      const below = r.bottom - (window.innerHeight - GAP);
      const by = r.top < top ? r.top - top : below > 0 ? Math.min(below, r.top - top) : 0;
      if (by !== 0) window.scrollBy({ top: by, behavior: "instant" });
    };
    document.addEventListener("focusin", clear);
    return () => {
      observer.disconnect();
      document.removeEventListener("focusin", clear);
      root.style.removeProperty("scroll-padding-top");
    };
  }, []);
  return (
    <div ref={ref} className={styles.saveBar} data-save-bar>
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
