"use client";

import { useQuery } from "@tanstack/react-query";
import type { NoteView } from "@/lib/studio/note-view";
import { noteViewBody } from "@/lib/validations/answers";
import { retryTransient, studioFetch } from "./fetch";
import { studioKeys } from "./keys";

export const noteUrl = (id: string) => `/api/studio/notes/${encodeURIComponent(id)}`;

/** One note's view; `null` for a note not yet saved (no id, nothing to ask the server). */
export function useNote(id: string | null, initial?: NoteView) {
  return useQuery({
    queryKey: studioKeys.note(id ?? ""),
    queryFn: () => studioFetch(noteUrl(id ?? ""), noteViewBody),
    initialData: initial,
    enabled: id !== null,
    retry: retryTransient,
  });
}
