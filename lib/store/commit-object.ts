import { CorruptRepositoryError } from "./errors";
import type { Oid, Person } from "./types";

/**
 * The commit object format: headers, a blank line, the message. Identities carry their own
 * timestamp and timezone, which is what a revision's date is shown in.
 */

export type Signature = Person & { seconds: number; tz: string /* "+0200" */ };

export type CommitObject = { tree: Oid; parents: Oid[]; author: Signature; committer: Signature; message: string };

export function parseCommit(oid: Oid, content: Buffer): CommitObject {
  const text = content.toString("utf8");
  const end = text.indexOf("\n\n");
  const headerText = end < 0 ? text : text.slice(0, end);
  const message = end < 0 ? "" : text.slice(end + 2);
  let tree: Oid | null = null;
  const parents: Oid[] = [];
  let author: Signature | null = null;
  let committer: Signature | null = null;
  for (const line of headerText.split("\n")) {
    if (line.startsWith(" ")) continue; // continuation of a multi-line header (gpgsig, mergetag)
    const space = line.indexOf(" ");
    const key = line.slice(0, space);
    const value = line.slice(space + 1);
    if (key === "tree") tree = value;
    else if (key === "parent") parents.push(value);
    else if (key === "author") author = parseSignature(oid, value);
    else if (key === "committer") committer = parseSignature(oid, value);
  }
  if (!tree || !author || !committer) throw new CorruptRepositoryError(`commit ${oid} lacks a tree, author or committer`);
  return { tree, parents, author, committer, message };
}

function parseSignature(oid: Oid, value: string): Signature {
  const m = /^(.*?) ?<([^>]*)> (\d+) ([+-]\d{4})$/.exec(value);
  if (!m) throw new CorruptRepositoryError(`commit ${oid} has a malformed identity "${value}"`);
  return { name: m[1] ?? "", email: m[2] ?? "", seconds: Number(m[3]), tz: m[4] ?? "+0000" };
}

export function serializeCommit(c: CommitObject): Buffer {
  const lines = [`tree ${c.tree}`, ...c.parents.map((p) => `parent ${p}`), `author ${signature(c.author)}`, `committer ${signature(c.committer)}`];
  return Buffer.from(`${lines.join("\n")}\n\n${c.message}`, "utf8");
}

const signature = (s: Signature) => `${s.name} <${s.email}> ${s.seconds} ${s.tz}`;

/** "+0200" for a clock two hours ahead of UTC. */
export function localTimezone(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? "-" : "+"}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
}

/** ISO 8601 in the signature's own timezone: "2025-03-01T14:05:00+02:00". */
export function isoDate(s: { seconds: number; tz: string }): string {
  const sign = s.tz.startsWith("-") ? -1 : 1;
  const offset = sign * (Number(s.tz.slice(1, 3)) * 60 + Number(s.tz.slice(3, 5)));
  const date = new Date((s.seconds + offset * 60) * 1000);
  // A forged timestamp beyond JavaScript's date range still gets a date rather than a throw.
  const local = (Number.isNaN(date.getTime()) ? new Date(0) : date).toISOString().slice(0, 19);
  return `${local}${s.tz.slice(0, 3)}:${s.tz.slice(3, 5)}`;
}

const pad = (n: number) => String(n).padStart(2, "0");
