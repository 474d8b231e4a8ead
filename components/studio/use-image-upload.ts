"use client";

import { useCallback, useEffect, useRef, useState, type ClipboardEvent, type DragEvent } from "react";
import type { ApiErrorBody } from "@/lib/api/errors";

/**
 * Images in a Markdown field: paste, drop or pick a file; it is uploaded to the note
 * (POST /api/studio/notes/<id>/assets, which checks and cleans it), the author is asked what it
 * shows, and `![what it shows](assets/<id>/<hash>.<ext>)` goes in at the cursor. The next save
 * commits the image with the note. Alt text is required, as the server requires it: without an
 * answer nothing is inserted.
 *
 * The note is the one whose editor this is (/studio/notes/<id>); a note that has no id yet must be
 * created first.
 */

export const IMAGE_ACCEPT = "image/png,image/jpeg,image/webp,image/gif,image/svg+xml";

type Field = { value: string; onChange: (value: string) => void; readOnly: boolean };

export function useImageUpload({ value, onChange, readOnly }: Field) {
  const [status, setStatus] = useState<string | null>(null);
  // The latest text, so an upload that finishes after more typing inserts into what is there now.
  const latest = useRef(value);
  useEffect(() => {
    latest.current = value;
  }, [value]);

  const upload = useCallback(
    async (file: File, textarea: HTMLTextAreaElement | null) => {
      const id = noteIdOfPage();
      if (!id) {
        setStatus("Create the note first (save it once): images are stored with their note.");
        return;
      }
      const at = textarea ? { start: textarea.selectionStart, end: textarea.selectionEnd } : { start: latest.current.length, end: latest.current.length };
      setStatus(`Uploading ${file.name || "the image"}…`);
      const form = new FormData();
      form.append("file", file, file.name || "pasted-image");
      let answer: { path: string } | null = null;
      try {
        const response = await fetch(`/api/studio/notes/${encodeURIComponent(id)}/assets`, { method: "POST", body: form, credentials: "same-origin" });
        const body = (await response.json().catch(() => null)) as (ApiErrorBody & { path?: string }) | null;
        if (!response.ok || !body?.path) {
          setStatus(`The image was not added: ${body?.error?.message ?? `the server answered ${response.status}`}.`);
          return;
        }
        answer = { path: body.path };
      } catch {
        setStatus("The image was not added: the server could not be reached.");
        return;
      }
      const alt = window.prompt("Describe the image for readers who cannot see it (alt text, required):", "")?.trim();
      if (!alt) {
        setStatus("The image was not inserted: it needs alt text that says what it shows.");
        return;
      }
      const text = latest.current;
      const start = Math.min(at.start, text.length);
      const end = Math.min(Math.max(at.end, start), text.length);
      // On a line of its own, so it reads as a figure.
      const before = start > 0 && text[start - 1] !== "\n" ? "\n\n" : "";
      const after = end < text.length && text[end] !== "\n" ? "\n\n" : "";
      onChange(`${text.slice(0, start)}${before}![${alt.replace(/[[\]]/g, "")}](${answer.path})${after}${text.slice(end)}`);
      setStatus(`Image added: ${alt}. It is stored with the note when you save.`);
    },
    [onChange],
  );

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

  return { onPaste, onDrop, pick, status };
}

function noteIdOfPage(): string | null {
  const m = /^\/studio\/notes\/([A-Za-z][A-Za-z0-9]*-\d{3,})(?:\/|$)/.exec(window.location.pathname);
  return m ? decodeURIComponent(m[1]!) : null;
}
