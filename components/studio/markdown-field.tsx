"use client";

import { useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { useHydrated } from "@/lib/hooks/use-hydrated";
import MDEditor, { commands, type ICommand, type MDEditorProps, type TextAreaTextApi } from "@uiw/react-md-editor/nohighlight";
import { diagramsPending, onPreviewChunk, previewChunkCount, previewOptions } from "@/lib/render/preview";
import { AltTextDialog } from "./alt-text-dialog";
import { NoteLinkDialog, type NoteChoice } from "./note-link-dialog";
import { useImageUpload } from "./use-image-upload";
import styles from "./studio.module.css";

/**
 * One section's Markdown field: Write or Preview (one pane, so it works at 390 px), a field that
 * grows with its text, and a short toolbar (bold, italic, link, code, code block, list, table,
 * diagram, link to a note, image). The preview runs the public pages' pipeline and wears their
 * `.prose` styles, so it is what a reader will see. Part of the studio's editor pages only, never
 * of the public pages.
 *
 * The textarea is the library's own; paste and drop handlers go on it through `textareaProps`.
 */
export default function MarkdownField(props: {
  id: string;
  /** The section's name, for the toolbar's and the tabs' accessible names. */
  name?: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  describedBy?: string;
  invalid: boolean;
  readOnly: boolean;
  /** Published notes the "Link a note" picker offers. */
  notes?: NoteChoice[];
  /** Extra textarea handlers (paste, drop) for whoever wires them in. */
  textareaProps?: MDEditorProps["textareaProps"];
}) {
  const name = props.name ?? "section";
  const field = useRef<HTMLDivElement>(null);
  const [mode, setMode] = useState<"write" | "preview">("write");
  // The toolbar's handle on the textarea while the note-link dialog is open (null: closed).
  const [picking, setPicking] = useState<{ api: TextAreaTextApi } | null>(null);
  // The diagram renderer and each code grammar are chunks of their own. Until one arrives a Mermaid
  // block shows as pending, a code block plain; each arrival makes new options, so the preview
  // renders again and draws what it could not before, without waiting for the next keystroke.
  const chunks = useSyncExternalStore(onPreviewChunk, previewChunkCount, previewChunkCount);
  // The public pages' sanitising rules, so the preview shows what publishing will show.
  const busy = diagramsPending(props.value);
  const preview = useMemo(
    () => ({ ...previewOptions(props.id), className: "prose", wrapperElement: { "aria-busy": busy, "data-preview-chunks": chunks } }),
    [props.id, chunks, busy],
  );
  // Paste, drop or pick an image: uploaded, asked for alt text, inserted as ![alt](assets/…).
  const images = useImageUpload({ value: props.value, onChange: props.onChange, readOnly: props.readOnly });
  const pickImage = images.pick;
  const textareaId = props.id;
  const toolbar = useMemo<ICommand[]>(() => {
    const noteLink: ICommand = {
      name: "note-link",
      keyCommand: "note-link",
      // Named without "publish": the page's Publish button must stay the only one by that name.
      buttonProps: { "aria-label": `Link to a note in ${name}`, title: "Link to a note" },
      icon: <span className={styles.toolText}>AFN</span>,
      execute: (_state, textApi) => setPicking({ api: textApi }),
    };
    const image: ICommand = {
      name: "image",
      keyCommand: "image",
      buttonProps: { "aria-label": `Add an image to ${name}`, title: "Add an image (or paste or drop one)" },
      icon: <span className={styles.toolText}>Image</span>,
      execute: () => pickImage(document.getElementById(textareaId) as HTMLTextAreaElement | null),
    };
    const codeBlock: ICommand = {
      ...commands.codeBlock,
      buttonProps: { "aria-label": `Code block in ${name} (Ctrl+Shift+J)`, title: "Code block (Ctrl+Shift+J)" },
    };
    const table: ICommand = { ...commands.table, buttonProps: { "aria-label": `Add a table to ${name}`, title: "Add a table" } };
    // A small Mermaid flowchart to start from: the pages draw it as a diagram (lib/render/diagrams.ts).
    const diagram: ICommand = {
      name: "diagram",
      keyCommand: "diagram",
      buttonProps: { "aria-label": `Add a diagram to ${name}`, title: "Add a diagram (Mermaid)" },
      icon: <span className={styles.toolText}>Diagram</span>,
      execute: (state, api) => {
        // After the selection, never over it: a selected paragraph stays.
        const at = state.selection.end;
        api.setSelectionRange({ start: at, end: at });
        const before = state.text.slice(0, at);
        const lead = before === "" || before.endsWith("\n\n") ? "" : before.endsWith("\n") ? "\n" : "\n\n";
        api.replaceSelection(`${lead}\`\`\`mermaid\nflowchart LR\n  A[Request] --> B{Admitted?}\n  B -->|yes| C[Run]\n  B -->|no| D[Refuse]\n\`\`\`\n`);
      },
    };
    return [commands.bold, commands.italic, commands.link, commands.code, codeBlock, commands.unorderedListCommand, table, diagram, noteLink, image].map(
      hideIcons,
    );
  }, [name, pickImage, textareaId]);
  const showing = props.readOnly ? "preview" : mode;
  // The field is rendered on the server too, so the page shows the note at once and the editor's
  // script loads beside the page's own (a chunk loaded after hydration cost the editor a round trip:
  // bench:studio). Until it has hydrated it is read-only: text typed into the server's textarea was
  // mixed into the note's own once the editor took over.
  const hydrated = useHydrated();

  // Browsers without CSS field-sizing (Firefox, older Safari): size the textarea to its text here.
  useLayoutEffect(() => {
    const textarea = field.current?.querySelector("textarea");
    if (!textarea || CSS.supports("field-sizing", "content")) return;
    textarea.style.height = "auto";
    textarea.style.height = `${textarea.scrollHeight}px`;
  }, [props.value, showing]);

  return (
    <div className={styles.markdownField} ref={field}>
      {props.readOnly ? null : (
        <div className={styles.modes} role="group" aria-label={`${name}: write or preview`}>
          <button type="button" aria-pressed={mode === "write"} onClick={() => setMode("write")}>
            Write
          </button>
          <button type="button" aria-pressed={mode === "preview"} onClick={() => setMode("preview")}>
            Preview
          </button>
        </div>
      )}
      <MDEditor
        value={props.value}
        onChange={(v) => props.onChange(v ?? "")}
        preview={showing === "preview" ? "preview" : "edit"}
        // The field grows with its text (see .markdownField in studio.module.css); no drag bar.
        height="auto"
        visibleDragbar={false}
        hideToolbar={showing === "preview"}
        commands={toolbar}
        extraCommands={[]}
        // Tab leaves the field, as everywhere else on the page; it never types spaces.
        defaultTabEnable
        previewOptions={preview}
        textareaProps={{
          ...props.textareaProps,
          onPaste: images.onPaste,
          onDrop: images.onDrop,
          id: props.id,
          onBlur: props.onBlur,
          readOnly: props.readOnly || !hydrated,
          "aria-invalid": props.invalid || undefined,
          "aria-describedby": props.describedBy,
        }}
      />
      {images.status ? (
        <p className={styles.hint} role="status">
          {images.status}
        </p>
      ) : null}
      {images.describing ? (
        <AltTextDialog
          key={images.describing.path}
          url={images.describing.url}
          fileName={images.describing.fileName}
          onDescribe={images.describe}
          onCancel={images.cancelDescribing}
        />
      ) : null}
      {picking ? (
        <NoteLinkDialog
          notes={props.notes ?? []}
          onClose={() => setPicking(null)}
          onPick={(note) => {
            setPicking(null);
            // The bare id: the public pipeline links a note id to its page. The dialog is closed
            // by now (see NoteLinkDialog), so the textarea can take focus and the insertion.
            picking.api.replaceSelection(note.id);
          }}
        />
      ) : null}
    </div>
  );
}

// The toolbar's buttons are named by their aria-label; their SVG icons carry role="img" without a
// name of their own, which screen readers announce as an unlabelled image. Hide the icons instead.
function hideIcons(command: ICommand): ICommand {
  if (!command.icon) return command;
  return {
    ...command,
    icon: (
      <span aria-hidden="true" style={{ display: "contents" }}>
        {command.icon}
      </span>
    ),
  };
}
