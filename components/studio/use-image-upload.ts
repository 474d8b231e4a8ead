"use client";

import { useCallback, useEffect, useRef, useState, type ClipboardEvent, type DragEvent } from "react";
import { flushSync } from "react-dom";
import type { ApiErrorBody } from "@/lib/rules/api-errors";

/**
 * Images in a Markdown field: paste, drop or pick a file; it is uploaded to the note
 * (POST /api/studio/notes/<id>/assets, which checks and cleans it), the author is asked what it
 * shows (`describing`: the field shows AltTextDialog), and `![what it shows](assets/<id>/<hash>.<ext>)`
 * goes in where the cursor was. The next save commits the image with the note. Alt text is
 * required, as the server requires it: the dialog refuses an empty answer, and a cancelled one
 * inserts nothing.
 *
 * The note is the one whose editor this is (/studio/notes/<id>); a note that has no id yet must be
 * created first.
 */

export const IMAGE_ACCEPT = "image/png,image/jpeg,image/webp,image/gif,image/svg+xml";

type Field = { value: string; onChange: (value: string) => void; readOnly: boolean };

/** An uploaded image waiting for its alt text: what the dialog shows, and where the image goes. */
export type Describing = { path: string; url: string; fileName: string; at: { start: number; end: number }; textarea: HTMLTextAreaElement | null };

export function useImageUpload({ value, onChange, readOnly }: Field) {
  const [status, setStatus] = useState<string | null>(null);
  const [describing, setDescribing] = useState<Describing | null>(null);
  // The latest text, so an upload that finishes after more typing inserts into what is there now.
  const latest = useRef(value);
  useEffect(() => {
    latest.current = value;
  }, [value]);

  const upload = useCallback(async (file: File, textarea: HTMLTextAreaElement | null) => {
    const id = noteIdOfPage();
    if (!id) {
      setStatus("Create the note first (save it once): images are stored with their note.");
      return;
    }
    const at = textarea ? { start: textarea.selectionStart, end: textarea.selectionEnd } : { start: latest.current.length, end: latest.current.length };
    setStatus(`Uploading ${file.name || "the image"}…`);
    const form = new FormData();
    form.append("file", file, file.name || "pasted-image");
    try {
      const response = await fetch(`/api/studio/notes/${encodeURIComponent(id)}/assets`, { method: "POST", body: form, credentials: "same-origin" });
      const body = (await response.json().catch(() => null)) as (ApiErrorBody & { path?: string; url?: string }) | null;
      if (!response.ok || !body?.path) {
        setStatus(`The image was not added: ${body?.error?.message ?? `the server answered ${response.status}`}.`);
        return;
      }
      setStatus(`Uploaded ${file.name || "the image"}: describe it to insert it.`);
      setDescribing({ path: body.path, url: body.url ?? `/${body.path}`, fileName: file.name || "the pasted image", at, textarea });
    } catch {
      setStatus("The image was not added: the server could not be reached.");
    }
  }, []);

  /** The dialog's answer: the image goes in where the cursor was, on a line of its own, and the caret after it. */
  const describe = useCallback(
    (alt: string) => {
      if (!describing || !alt.trim()) return;
      const { at, path, textarea } = describing;
      const text = latest.current;
      const start = Math.min(at.start, text.length);
      const end = Math.min(Math.max(at.end, start), text.length);
      // On a line of its own, so it reads as a figure.
      const before = start > 0 && text[start - 1] !== "\n" ? "\n\n" : "";
      const after = end < text.length && text[end] !== "\n" ? "\n\n" : "";
      // Brackets escaped, so the alt text ends where the author's does: "a [b] c" stays "a [b] c".
      const image = `${before}![${alt.trim().replace(/[\\[\]]/g, "\\$&")}](${path})`;
      // Committed now, and the caret put after the image in the same turn: set a frame later, it
      // sent keys typed meanwhile to the end of the field (as the mention box once did).
      flushSync(() => {
        onChange(`${text.slice(0, start)}${image}${after}${text.slice(end)}`);
        setDescribing(null);
        setStatus(`Image added: ${alt.trim()}. It is stored with the note when you save.`);
      });
      const caret = start + image.length;
      textarea?.focus();
      textarea?.setSelectionRange(caret, caret);
    },
    [describing, onChange],
  );

  const cancelDescribing = useCallback(() => {
    setDescribing(null);
    setStatus("The image was not inserted: it needs alt text that says what it shows.");
  }, []);

  const firstImage = (files: FileList | null | undefined) => [...(files ?? [])].find((f) => f.type.startsWith("image/") || f.type === "") ?? null;

  const onPaste = useCallback(
    (event: ClipboardEvent<HTMLTextAreaElement>) => {
      const file = firstImage(event.clipboardData?.files);
      if (readOnly || !file) return; // text pastes as text
      event.preventDefault();
      void upload(file, event.currentTarget);
    },
    [readOnly, upload],
  );

  const onDrop = useCallback(
    (event: DragEvent<HTMLTextAreaElement>) => {
      const file = firstImage(event.dataTransfer?.files);
      if (readOnly || !file) return;
      event.preventDefault();
      void upload(file, event.currentTarget);
    },
    [readOnly, upload],
  );

  /** Opens the file picker (the toolbar's Image button); `textarea` is where the image goes. */
  const pick = useCallback(
    (textarea: HTMLTextAreaElement | null) => {
      if (readOnly) return;
      const input = document.createElement("input");
      input.type = "file";
      input.accept = IMAGE_ACCEPT;
      input.onchange = () => {
        const file = input.files?.[0];
        if (file) void upload(file, textarea);
      };
      input.click();
    },
    [readOnly, upload],
  );

  return { onPaste, onDrop, pick, status, describing, describe, cancelDescribing };
}

function noteIdOfPage(): string | null {
  const m = /^\/studio\/notes\/([A-Za-z][A-Za-z0-9]*-\d{3,})(?:\/|$)/.exec(window.location.pathname);
  return m ? decodeURIComponent(m[1]!) : null;
}
