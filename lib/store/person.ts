import { StoreRequestError } from "./errors";
import type { Person } from "./types";

/**
 * An identity as it goes into a commit header. "<", ">" and line breaks would end the field early
 * (git fsck --strict rejects such a commit), so they are removed rather than trusted; an empty
 * e-mail is refused because a commit without one cannot be traced back to anyone.
 */

const UNSAFE = /[<>\u0000-\u001f\u007f]+/g;

const clean = (s: unknown) => (typeof s === "string" ? s.replace(UNSAFE, " ").replace(/\s+/g, " ").trim() : "");

export function sanitizePerson(person: Person): Person {
  const email = clean(person?.email).replace(/\s+/g, "");
  if (email === "") throw new StoreRequestError('the author\'s e-mail is empty (after removing "<", ">" and line breaks)');
  const name = clean(person?.name) || email.split("@")[0] || email;
  return { name, email };
}

/** A commit message: no NUL bytes, trailing blank space trimmed, one final newline, as git writes it. */
export function cleanMessage(message: string): string {
  if (typeof message !== "string") throw new StoreRequestError("the commit message is missing");
  if (message.includes("\0")) throw new StoreRequestError("the commit message contains a NUL byte");
  const text = message.replace(/\r\n?/g, "\n").replace(/\s+$/, "");
  if (text.trim() === "") throw new StoreRequestError("the commit message is empty");
  return `${text}\n`;
}
