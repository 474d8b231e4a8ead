"use client";

import { useCallback, useSyncExternalStore } from "react";
import { z } from "zod";
import { noteFieldsSchema, type NoteFields } from "@/lib/validations/note";

/**
 * Unsaved edits kept in the browser (localStorage), written on every change, so a reload or a
 * crashed tab loses nothing. They are removed only when a save succeeds or the author discards
 * them; what was stored is validated on the way back in, since anything may have written it.
 *
 * `found` is what was stored when the editor opened (not what this tab is writing now), so the
 * offer to restore is about an earlier session, never about the text being typed.
 */

const stored = z.object({ revision: z.string(), fields: noteFieldsSchema, savedAt: z.string() });
export type UnsavedEdits = z.infer<typeof stored>;

const keyOf = (id: string) => `field-notes:unsaved:${id}`;

export function readUnsaved(id: string): UnsavedEdits | null {
  try {
    const raw = window.localStorage.getItem(keyOf(id));
    if (!raw) return null;
    const parsed = stored.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

// The snapshot taken when an editor for the note first subscribed, until the last one leaves.
const opened = new Map<string, { edits: UnsavedEdits | null; listeners: Set<() => void> }>();

function entry(id: string) {
  let e = opened.get(id);
  if (!e) {
    e = { edits: readUnsaved(id), listeners: new Set() };
    opened.set(id, e);
  }
  return e;
}

export function useUnsavedEdits(id: string) {
  const subscribe = useCallback(
    (listener: () => void) => {
      const e = entry(id);
      e.listeners.add(listener);
      return () => {
        e.listeners.delete(listener);
        if (e.listeners.size === 0) opened.delete(id);
      };
    },
    [id],
  );
  // undefined on the server: it has no localStorage, and nothing is offered until the browser looks.
  const found = useSyncExternalStore(
    subscribe,
    () => entry(id).edits,
    () => undefined,
  );

  const keep = useCallback(
    (revision: string, fields: NoteFields) => {
      try {
        window.localStorage.setItem(keyOf(id), JSON.stringify({ revision, fields, savedAt: new Date().toISOString() }));
      } catch {
        // Storage full or disabled: the editor still works, it just cannot survive a reload.
      }
    },
    [id],
  );
  const forget = useCallback(() => {
    try {
      window.localStorage.removeItem(keyOf(id));
    } catch {
      // nothing to forget
    }
    const e = opened.get(id);
    if (e) {
      e.edits = null;
      e.listeners.forEach((l) => l());
    }
  }, [id]);

  return { found, keep, forget };
}
