import { BOUNDARY_LABEL, SECTIONS, STATUS_LABEL, type Note } from "@/lib/notes/schema";

/** Commit messages that say what changed, in the words of the editor's fields. */

const SCALARS = [
  ["title", "title"],
  ["summary", "summary"],
  ["phase", "phase"],
] as const;

export function describeSave(id: string, before: Note | null, after: Note, reason?: string): string {
  if (!before)
    return `${id}: write "${after.title}"\n\nFirst save of this note (${
      SECTIONS.filter((s) => after.sections[s.key].trim())
        .map((s) => s.heading)
        .join(", ") || "no sections yet"
    }).`;
  const changed: string[] = [];
  const details: string[] = [];
  for (const [key, label] of SCALARS) {
    if (before[key] !== after[key]) {
      changed.push(label);
      details.push(`${capital(label)}: "${clip(before[key])}" → "${clip(after[key])}"`);
    }
  }
  for (const [key, label] of [
    ["tags", "tags"],
    ["related", "related notes"],
    ["affects", "affects"],
  ] as const) {
    const added = after[key].filter((x) => !before[key].includes(x));
    const removed = before[key].filter((x) => !after[key].includes(x));
    if (added.length || removed.length || before[key].join("\0") !== after[key].join("\0")) {
      changed.push(label);
      details.push(`${capital(label)}: ${[...added.map((x) => `+${x}`), ...removed.map((x) => `-${x}`)].join(" ") || "reordered"}`);
    }
  }
  const addedB = after.boundaries.filter((b) => !before.boundaries.includes(b));
  const removedB = before.boundaries.filter((b) => !after.boundaries.includes(b));
  if (addedB.length || removedB.length) {
    changed.push("boundaries");
    for (const b of addedB) details.push(`Boundary added: ${BOUNDARY_LABEL[b]}`);
    for (const b of removedB) details.push(`Boundary removed: ${BOUNDARY_LABEL[b]}${reason ? ` (why: ${reason})` : ""}`);
  }
  if (JSON.stringify(before.core ?? null) !== JSON.stringify(after.core ?? null)) {
    changed.push("core");
    details.push(`Core: ${after.core ? `rank ${after.core.rank}, "${after.core.label}"` : "no longer a core decision"}`);
  }
  for (const { key, heading } of SECTIONS) {
    const a = before.sections[key];
    const b = after.sections[key];
    if (a === b) continue;
    changed.push(heading);
    details.push(`${heading}: ${lineDelta(a, b)}`);
  }
  const subject = changed.length <= 4 ? changed.join(", ") : `${changed.slice(0, 3).join(", ")} and ${changed.length - 3} more fields`;
  return `${id}: edit ${subject}\n\n${details.join("\n")}${reason && !removedB.length ? `\n\nWhy: ${reason}` : ""}`;
}

export function describeTransition(id: string, before: Note, after: Note, label: string, reason?: string): string {
  const lines = [`${id}: ${STATUS_LABEL[before.status]} → ${STATUS_LABEL[after.status]}`, "", `${label.replace(/…$/, "")}.`];
  if (after.superseded_by && after.superseded_by !== before.superseded_by) lines.push(`Superseded by ${after.superseded_by}.`);
  if (reason) lines.push(`Why: ${reason}`);
  return lines.join("\n");
}

export function describePublish(id: string, note: Note, draftHead: string, firstTime: boolean): string {
  return `Publish ${id}: ${note.title}\n\n${firstTime ? "First publication" : "Updated publication"} as ${STATUS_LABEL[note.status]}, from draft revision ${draftHead.slice(0, 12)}.`;
}

function lineDelta(a: string, b: string): string {
  const before = a ? a.split("\n") : [];
  const after = b ? b.split("\n") : [];
  const kept = new Map<string, number>();
  for (const l of before) kept.set(l, (kept.get(l) ?? 0) + 1);
  let added = 0;
  for (const l of after) {
    const n = kept.get(l) ?? 0;
    if (n > 0) kept.set(l, n - 1);
    else added++;
  }
  const removed = [...kept.values()].reduce((s, n) => s + n, 0);
  if (!a) return `written (${after.length} line${after.length === 1 ? "" : "s"})`;
  if (!b) return "emptied";
  return `+${added} -${removed} lines`;
}

const capital = (s: string) => s[0]?.toUpperCase() + s.slice(1);
const clip = (s: string) => (s.length > 60 ? `${s.slice(0, 59)}…` : s);
