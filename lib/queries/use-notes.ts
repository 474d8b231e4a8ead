"use client";

import { useQuery } from "@tanstack/react-query";
import type { NoteListEntry } from "@/lib/studio/list-notes";
import { noteListBody } from "@/lib/validations/answers";
import { retryTransient, studioFetch } from "./fetch";
import { studioKeys } from "./keys";

export function useNotes(initial?: NoteListEntry[]) {
  return useQuery({
    queryKey: studioKeys.notes(),
    queryFn: () => studioFetch("/api/studio/notes", noteListBody).then((b) => b.notes),
    initialData: initial,
    retry: retryTransient,
  });
}
