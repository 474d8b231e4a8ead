import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { encode } from "next-auth/jwt";
import { resetConfig } from "@/lib/env";
import { addAccount } from "@/lib/auth/accounts";
import { sessionSecret } from "@/lib/auth/secret";
import { sessionClaims } from "@/lib/auth/sessions";
import { issueToken } from "@/lib/auth/tokens";

/**
 * Route tests of the studio API: a fresh DATA_DIR (accounts file, generated session secret,
 * embedded content repository seeded from content/), real accounts and tokens, and requests made
 * the way a browser (session cookie) or an agent (bearer token) makes them.
 */

export const BASE = "http://studio.test";

export type Caller = { label: string; headers: Record<string, string> };

export async function studioFixture() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "field-notes-studio-"));
  process.env.DATA_DIR = dataDir;
  delete process.env.CONTENT_REPO;
  process.env.SITE_URL = BASE;
  resetConfig();
  await addAccount("ada", "author", "ada's long password");
  await addAccount("grace", "author", "grace's long password");
  await addAccount("rita", "reviewer", "rita's long password");
  await addAccount("sam", "reviewer", "sam's long password");
  const adaToken = (await issueToken("ada")).token;
  const ritaToken = (await issueToken("rita")).token;
  const revoked = await issueToken("ada");
  const { revokeTokens } = await import("@/lib/auth/tokens");
  await revokeTokens(revoked.id);

  // The cookie next-auth's sign-in would set (the claims of lib/auth/sessions.ts), without a password check per test file.
  const session = async (name: string): Promise<Caller> => {
    const jwt = await encode({ token: { name, ...(await sessionClaims(name)) }, secret: sessionSecret() });
    return { label: `${name} (session)`, headers: { cookie: `next-auth.session-token=${jwt}` } };
  };
  const bearer = (label: string, token: string): Caller => ({ label, headers: { authorization: `Bearer ${token}` } });

  return {
    dataDir,
    gitdir: path.join(dataDir, "content.git"),
    anonymous: { label: "anonymous", headers: {} } as Caller,
    author: await session("ada"),
    secondAuthor: await session("grace"),
    reviewer: await session("rita"),
    secondReviewer: await session("sam"),
    authorToken: bearer("ada (token)", adaToken),
    reviewerToken: bearer("rita (token)", ritaToken),
    revokedToken: bearer("revoked token", revoked.token),
    cleanup: () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** A request as a route handler receives it. */
export function request(caller: Caller, method: string, pathname: string, body?: unknown): Request {
  const headers: Record<string, string> = { ...caller.headers, host: "studio.test" };
  if (body !== undefined) headers["content-type"] = "application/json";
  return new Request(`${BASE}${pathname}`, { method, headers, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) });
}

export const params = <T extends Record<string, string>>(p: T) => ({ params: Promise.resolve(p) });

/** A JSON answer, read the way a client reads it. */
export type Json = any;

export async function answer(response: Response): Promise<{ status: number; body: Json }> {
  return { status: response.status, body: await response.json() };
}

/**
 * A note's fields as the editor sends them, filled so that a save passes every rule (a known phase,
 * an invariant and a claim boundary): a test names only what it is about, `change` replacing fields
 * and, one by one, sections.
 */
export function noteFields(title: string, change: { sections?: Record<string, string>; [field: string]: unknown } = {}): Json {
  const { sections, ...fields } = change;
  return {
    title,
    summary: "A sparse mask does not make attention sparse.",
    phase: "6 architecture",
    tags: ["sparse attention"],
    related: [],
    boundaries: [],
    core: null,
    ...fields,
    sections: {
      decision: "Skip masked blocks in the kernel.",
      invariant: "No masked key is ever loaded.",
      rejectedShortcut: "",
      evidence: "",
      claimBoundary: "Says nothing about speed on other backends.",
      notes: "",
      ...sections,
    },
  };
}
