"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { NoteView } from "@/lib/studio/note-view";
import type { NoteFields } from "@/lib/validations/note";
import type { Status } from "@/lib/notes/schema";
import { discardBody, noteViewBody, publishBody, savedNoteBody } from "@/lib/validations/answers";
import { studioFetch } from "./fetch";
import { studioKeys } from "./keys";
import { noteUrl } from "./use-note";

/**
 * The studio's writes. None is optimistic: each answer (a new revision, a refusal with reasons, a
 * conflict with both versions) is what the editor must show, so the cache is updated from it.
 */

function useAfterWrite(id: string) {
  const client = useQueryClient();
  return (view: NoteView) => {
    client.setQueryData(studioKeys.note(id), view);
    void client.invalidateQueries({ queryKey: studioKeys.notes() });
  };
}

/** The first save of a new note: the server claims the next free id and commits these fields in one step. */
export function useCreateNote() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (fields: NoteFields) => studioFetch("/api/studio/notes", noteViewBody, { method: "POST", body: { note: fields } }),
    onSuccess: (view) => {
      client.setQueryData(studioKeys.note(view.id), view);
      void client.invalidateQueries({ queryKey: studioKeys.notes() });
    },
  });
}

export function useSaveDraft(id: string) {
  const after = useAfterWrite(id);
  return useMutation({
    mutationFn: (input: { revision: string; fields: NoteFields; reason?: string }) =>
      studioFetch(noteUrl(id), savedNoteBody, {
        method: "PUT",
        body: { revision: input.revision, note: input.fields, ...(input.reason ? { reason: input.reason } : {}) },
      }),
    onSuccess: after,
  });
}

export function useChangeStatus(id: string) {
  const after = useAfterWrite(id);
  return useMutation({
    mutationFn: (input: { to: Status; revision: string; reason?: string; superseded_by?: string }) =>
      studioFetch(`${noteUrl(id)}/transitions`, noteViewBody, { method: "POST", body: input }),
    onSuccess: after,
  });
}

export function usePublishNote(id: string) {
  const after = useAfterWrite(id);
  return useMutation({
    mutationFn: (input: { revision: string; main?: string }) => studioFetch(`${noteUrl(id)}/publish`, publishBody, { method: "POST", body: input }),
    onSuccess: (result) => after(result.view),
  });
}

/** Discard the draft at `revision` (kept under refs/discarded/ on the server); the note's queries are dropped or refreshed. */
export function useDiscardDraft(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { revision: string }) => studioFetch(noteUrl(id), discardBody, { method: "DELETE", body: input }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: studioKeys.note(id) });
      void client.invalidateQueries({ queryKey: studioKeys.notes() });
    },
  });
}
