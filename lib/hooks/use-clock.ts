"use client";

import { useSyncExternalStore } from "react";

/**
 * The browser's clock, ticking every 30 s, for "Saved 2 min ago". null while rendering on the
 * server and hydrating, so the first render says an absolute time that both sides agree on.
 */
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      listeners.forEach((l) => l());
    }, 30_000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

export function useClock(): number | null {
  return useSyncExternalStore(
    subscribe,
    () => now,
    () => null,
  );
}

/** Called after a save, so "just now" is said at once rather than at the next tick. */
export function tickClock() {
  now = Date.now();
  listeners.forEach((l) => l());
}
