"use client";

import { useMemo } from "react";
import MDEditor, { type ICommand } from "@uiw/react-md-editor/nohighlight";
import { previewOptions } from "@/lib/render/preview";

/**
 * One section's Markdown editor with a live preview. Loaded only by the studio's editor (through
 * next/dynamic, never on the server), so the public pages never carry it.
 */
export default function MarkdownField(props: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  describedBy?: string;
  invalid: boolean;
  readOnly: boolean;
}) {
  // The public pages' sanitising rules, so the preview shows what publishing will show.
  const preview = useMemo(() => previewOptions(props.id), [props.id]);
  return (
    <MDEditor
      value={props.value}
      onChange={(v) => props.onChange(v ?? "")}
      preview={props.readOnly ? "preview" : "live"}
      height={220}
      visibleDragbar
      commandsFilter={hideIcons}
      previewOptions={preview}
      textareaProps={{
        id: props.id,
        onBlur: props.onBlur,
        readOnly: props.readOnly,
        "aria-invalid": props.invalid || undefined,
        "aria-describedby": props.describedBy,
      }}
    />
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
