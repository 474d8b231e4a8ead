"use client";

import Link from "next/link";
import type { Actor } from "@/lib/rules/status-machine";
import type { NoteView } from "@/lib/studio/note-view";
import type { EditorCatalog } from "@/lib/studio/editor-catalog";
import { NoteEditor } from "@/components/studio/note-editor";
import styles from "@/components/studio/studio.module.css";

export default function NotePageClient({ initial, actor, catalog }: { initial: NoteView; actor: Actor; catalog: EditorCatalog }) {
  return (
    <>
      <p className={styles.back}>
        <Link href="/studio">← All notes in the studio</Link>
      </p>
      {/* A fresh editor per note: its unsaved state never carries over to another note. */}
      <NoteEditor key={initial.id} initial={initial} actor={actor} catalog={catalog} />
    </>
  );
}
