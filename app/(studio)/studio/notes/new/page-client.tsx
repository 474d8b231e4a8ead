"use client";

import Link from "next/link";
import type { Actor } from "@/lib/rules/status-machine";
import type { EditorCatalog } from "@/lib/studio/editor-catalog";
import { NoteEditor } from "@/components/studio/note-editor";
import styles from "@/components/studio/studio.module.css";

export default function NewNotePageClient({ actor, catalog }: { actor: Actor; catalog: EditorCatalog }) {
  return (
    <>
      <p className={styles.back}>
        <Link href="/studio">← All notes in the studio</Link>
      </p>
      {actor.role === "author" ? (
        <NoteEditor initial={null} actor={actor} catalog={catalog} />
      ) : (
        <>
          <h1>New note</h1>
          <p>
            Authors write notes; you review them. Unpublished versions waiting for you are in <Link href="/studio/reviews">your review inbox</Link>.
          </p>
        </>
      )}
    </>
  );
}
