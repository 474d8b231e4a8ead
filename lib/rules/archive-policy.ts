import type { Note } from "@/lib/notes/schema";
import { SECTIONS } from "@/lib/notes/schema";
import { findCredentials } from "./archive-policy-credentials";
import { findConversation, findEmails, findLocalPaths, findNetworkAddresses, type PolicyHit } from "./archive-policy-patterns";

/**
 * The archive policy: "Public architecture only. The archive excludes personal information,
 * account data, credentials, private prompts, conversations, local paths, network addresses, and
 * unpublished infrastructure." One scanner checks every text field of a note before any commit;
 * each finding names the field, the line and column inside that field's text, and what to do.
 *
 * Pure: no files, no network. Credentials and private keys come from secretlint's recommended rule
 * set; the other rules are the patterns in archive-policy-patterns.ts.
 */

export type PolicyRule = "credential" | "private-key" | "email" | "local-path" | "network-address" | "private-url" | "conversation";

/** `line` and `column` are 1-based within the field's text; columns count UTF-16 code units, as editors do. */
export type PolicyFinding = { field: string; line: number; column: number; rule: PolicyRule; message: string; excerpt: string };

export const POLICY_RULES: Record<PolicyRule, { title: string; why: string }> = {
  credential: {
    title: "Credential or token",
    why: "Keys, tokens and passwords are account data. Once published they are copied by every reader and agent; an expired one still teaches an attacker the format and the owner.",
  },
  "private-key": {
    title: "Private key",
    why: "A private key block proves an identity. Publishing it hands that identity to everyone.",
  },
  email: {
    title: "E-mail address",
    why: "Personal contact details are not architecture. Name the role (the maintainer, the reviewer) instead.",
  },
  "local-path": {
    title: "Local file path",
    why: "Paths on someone's machine reveal user names and private layout and mean nothing to a reader. Name the file by its role in the project (the tokenizer.json of the pinned checkpoint).",
  },
  "network-address": {
    title: "Network address",
    why: "IP addresses and local ports describe unpublished infrastructure. Describe the topology (the inference host, the cache node) instead.",
  },
  "private-url": {
    title: "Private URL",
    why: "Links to localhost, private networks or internal host names are unreachable for readers and reveal unpublished infrastructure. Link a public page or describe the service.",
  },
  conversation: {
    title: "Conversation or prompt transcript",
    why: "Pasted chats and private prompts are conversations, not decisions. Summarise what was decided; show template syntax as `inline code` with placeholders instead of real turns.",
  },
};

/** Scan one field's text. `field` is the note field name (for example "sections.evidence"). */
export async function scanText(field: string, text: string): Promise<PolicyFinding[]> {
  if (typeof text !== "string" || text.length === 0) return [];
  const hits = [...(await findCredentials(text)), ...patternHits(text)];
  const lineStarts = lineStartsOf(text);
  return hits
    .sort((a, b) => a.start - b.start || a.end - b.end)
    .map((hit) => {
      const { line, column } = position(lineStarts, hit.start);
      return { field, line, column, rule: hit.rule, message: hit.message, excerpt: hit.excerpt };
    });
}

/** Every text field of the note: front matter strings, each tag, the core label, every section. */
export async function scanNote(note: Note): Promise<PolicyFinding[]> {
  const results = await Promise.all(noteFields(note).map(([field, text]) => scanText(field, text)));
  return results.flat();
}

/** The note's text fields, named as in lib/notes/schema.ts, in the order a reader meets them. */
export function noteFields(note: Note): Array<[field: string, text: string]> {
  const fields: Array<[string, string | undefined]> = [
    ["title", note.title],
    ["summary", note.summary],
    ["phase", note.phase],
    ...note.tags.map((tag, i): [string, string] => [`tags.${i}`, tag]),
    ["core.label", note.core?.label],
    ["retraction_reason", note.retraction_reason],
    ["provenance.detail", note.provenance?.detail],
    ...SECTIONS.map(({ key }): [string, string] => [`sections.${key}`, note.sections[key]]),
  ];
  return fields.filter((f): f is [string, string] => typeof f[1] === "string" && f[1].length > 0);
}

function patternHits(text: string): PolicyHit[] {
  const urls = findNetworkAddresses(text);
  // A private URL already says everything about the address inside it; one finding is enough.
  const privateUrls = urls.filter((h) => h.rule === "private-url");
  const network = urls.filter((h) => h.rule === "private-url" || !privateUrls.some((u) => h.start >= u.start && h.end <= u.end));
  return [...findEmails(text), ...findLocalPaths(text), ...network, ...findConversation(text)];
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") starts.push(i + 1);
  return starts;
}

function position(lineStarts: number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((lineStarts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (lineStarts[lo] ?? 0) + 1 };
}
