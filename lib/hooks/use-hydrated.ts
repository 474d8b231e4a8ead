"use client";

import { useSyncExternalStore } from "react";

/**
 * False while a component renders on the server and hydrates, true once React runs it in the
 * browser. The studio's fields are rendered on the server too and take no input until then: what
 * was typed or chosen before hydration was reset, or mixed into the note, by React's first render.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(noSubscription, onClient, onServer);
}

const noSubscription = () => () => {};
const onClient = () => true;
const onServer = () => false;
