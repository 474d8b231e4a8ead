import type { Person } from "@/lib/store/types";
import type { Actor } from "@/lib/rules/status-machine";

/**
 * Who someone is, in the words every part of the app shares. A local account's id is its name
 * ("alice"); an OAuth identity's is provider-qualified ("github:octocat"). In commits each actor
 * appears under an e-mail derived from that id, and the id can be read back from the e-mail, which
 * is how the status machine learns who wrote a draft.
 */

export type StudioActor = Actor & {
  /** Display name. */
  name: string;
  /** How this request proved who it is. */
  via: "session" | "token";
};

const DOMAIN = "users.field-notes.invalid";

export function commitPerson(actor: Pick<StudioActor, "id" | "name">): Person {
  const [provider, identity] = actor.id.includes(":") ? actor.id.split(/:(.*)/s) : [null, actor.id];
  const local = encodeLocal(identity ?? "") || "someone";
  return { name: actor.name, email: provider ? `${local}@${provider}.${DOMAIN}` : `${local}@${DOMAIN}` };
}

/** The actor id behind a commit's author e-mail, or the e-mail itself when it is not one of ours. */
export function actorIdOfEmail(email: string): string {
  const m = /^([^@]+)@(?:([a-z0-9-]+)\.)?users\.field-notes\.invalid$/.exec(email.toLowerCase());
  if (!m) return email.toLowerCase();
  const identity = decodeLocal(m[1] ?? "");
  return m[2] ? `${m[2]}:${identity}` : identity;
}

// Characters an e-mail local part cannot carry plainly ("@", spaces, ":") are written as =XX, so
// "oidc:alice@example.org" and back is lossless.
function encodeLocal(s: string): string {
  let out = "";
  for (const byte of new TextEncoder().encode(s.toLowerCase())) {
    const c = String.fromCharCode(byte);
    out += /[a-z0-9._-]/.test(c) ? c : `=${byte.toString(16).padStart(2, "0")}`;
  }
  return out;
}

function decodeLocal(s: string): string {
  const bytes = [...s.matchAll(/=([0-9a-f]{2})|([^=])/g)].map((m) => (m[1] ? parseInt(m[1], 16) : (m[2] ?? "").charCodeAt(0)));
  return new TextDecoder().decode(new Uint8Array(bytes));
}
