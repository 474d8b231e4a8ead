/**
 * `@name` in a review comment (pure: the server derives notifications with it, the studio marks
 * mentions in a comment and completes them in the comment box). A name is what an account name can
 * be (lib/auth/accounts.ts); a trailing "." or "-" ends the sentence, not the name. An e-mail
 * address ("ada@example.org") or a path ("/@ada") is not a mention. Whether a name is a person is
 * for the caller to say: an unknown name stays plain text.
 */

const MENTION = /(^|[^A-Za-z0-9_.@/-])@([a-z0-9][a-z0-9._-]{0,38})/gi;

export type MentionSpan = { start: number; end: number; name: string };

/** Every mention in `text`, in order, with where it stands (`start` at the "@"). */
export function mentionSpans(text: string): MentionSpan[] {
  const spans: MentionSpan[] = [];
  for (const m of text.matchAll(MENTION)) {
    const name = (m[2] ?? "").replace(/[.-]+$/, "");
    if (!name) continue;
    const start = (m.index ?? 0) + (m[1] ?? "").length;
    spans.push({ start, end: start + 1 + name.length, name: name.toLowerCase() });
  }
  return spans;
}

/** The names mentioned in `text`, each once, lower-case. */
export const mentionedNames = (text: string): string[] => [...new Set(mentionSpans(text).map((s) => s.name))];

/** The word being typed at `caret` when it is a mention ("@ad|" → { start, query: "ad" }), else null. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const m = /(^|[^A-Za-z0-9_.@/-])@([a-z0-9._-]{0,39})$/i.exec(before);
  if (!m) return null;
  return { start: before.length - (m[2] ?? "").length - 1, query: (m[2] ?? "").toLowerCase() };
}

/**
 * Whether a person is offered for what is typed after "@" (lower-case): by the start of the name a
 * mention uses (the login) or of any word of their display name. The login is what goes in.
 */
export const matchesMention = (person: { name: string; displayName: string }, query: string): boolean =>
  person.name.toLowerCase().startsWith(query) ||
  person.displayName
    .toLowerCase()
    .split(/\s+/)
    .some((word) => word.startsWith(query));
