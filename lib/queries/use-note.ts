"use client";

import { useQuery } from "@tanstack/react-query";
import type { NoteView } from "@/lib/studio/note-view";
import { retryTransient, studioFetch } from "./fetch";
import { studioKeys } from "./keys";

export const noteUrl = (id: string) => `/api/studio/notes/${encodeURIComponent(id)}`;

export function useNote(id: string, initial?: NoteView) {
  return useQuery({
    queryKey: studioKeys.note(id),
    queryFn: () => studioFetch<NoteView>(noteUrl(id)),
    initialData: initial,
    retry: retryTransient,
  });
}
