"use client";

import Link from "next/link";
import type { Actor } from "@/lib/rules/status-machine";
import type { NoteView } from "@/lib/studio/note-view";
import { NoteEditor } from "@/components/studio/note-editor";

export default function NotePageClient({ initial, actor }: { initial: NoteView; actor: Actor }) {
  return (
    <>
      <p>
        <Link href="/studio">← All notes in the studio</Link>
      </p>
      {/* A fresh editor per note: its unsaved state never carries over to another note. */}
      <NoteEditor key={initial.id} initial={initial} actor={actor} />
    </>
  );
}
