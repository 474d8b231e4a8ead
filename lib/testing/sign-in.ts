import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/options";

/**
 * Signing in and out through next-auth's own handler with the app's options, as a browser does:
 * fetch a CSRF token, post the form, keep the cookies it sets. The handler is called in its
 * pages-router form ({ query, body, cookies } in, a response object out): its app-router form
 * reads `next/headers`, which exists only inside a request Next is serving. Both forms hand the
 * same request to the same core (next-auth/core), which is what decides.
 */

export const SESSION_COOKIE = "next-auth.session-token";

type Jar = Record<string, string>;

async function nextAuth(method: "GET" | "POST", action: string[], jar: Jar, body?: Record<string, string>) {
  const headers: Record<string, string> = { host: "studio.test", "x-forwarded-for": "192.0.2.10" };
  if (body) headers["content-type"] = "application/x-www-form-urlencoded";
  let sent: unknown;
  let status = 200;
  const out: Record<string, string | string[]> = {};
  const res = {
    status(code: number) {
      status = code;
      return res;
    },
    getHeader: (name: string) => out[name.toLowerCase()],
    setHeader(name: string, value: string | string[]) {
      out[name.toLowerCase()] = value;
      return res;
    },
    end: () => undefined,
    json: (value: unknown) => void (sent = value),
    send: (value: unknown) => void (sent = value),
  };
  const req = { method, query: { nextauth: action }, headers, cookies: { ...jar }, body: body ? { ...body, json: "true" } : undefined };
  await NextAuth(req as never, res as never, authOptions());
  // Keep what the handler set, and drop what it expired, as a browser would.
  for (const line of [out["set-cookie"] ?? []].flat()) {
    const [pair = "", ...attributes] = line.split(";");
    const i = pair.indexOf("=");
    const name = pair.slice(0, i).trim();
    const value = decodeURIComponent(pair.slice(i + 1).trim());
    if (attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "") delete jar[name];
    else jar[name] = value;
  }
  return { status, body: sent as Record<string, string> | undefined };
}

async function csrf(jar: Jar): Promise<string> {
  const { body } = await nextAuth("GET", ["csrf"], jar);
  if (!body?.csrfToken) throw new Error("next-auth gave no CSRF token");
  return body.csrfToken;
}

/** The `cookie` header of a browser that has just signed in with this name and password (throws when refused). */
export async function signInWithPassword(name: string, password: string): Promise<string> {
  const jar: Jar = {};
  const csrfToken = await csrf(jar);
  const { body } = await nextAuth("POST", ["callback", "credentials"], jar, { csrfToken, name, password });
  if (!jar[SESSION_COOKIE]) throw new Error(`sign-in of ${name} refused: ${body?.url ?? "no answer"}`);
  return `${SESSION_COOKIE}=${encodeURIComponent(jar[SESSION_COOKIE])}`;
}

/** Press "Sign out" in the browser holding this session cookie; answers whether next-auth cleared the cookie. */
export async function signOut(cookie: string): Promise<boolean> {
  const jar: Jar = Object.fromEntries(
    cookie.split(";").map((part) => [part.slice(0, part.indexOf("=")).trim(), decodeURIComponent(part.slice(part.indexOf("=") + 1).trim())]),
  );
  const csrfToken = await csrf(jar);
  await nextAuth("POST", ["signout"], jar, { csrfToken });
  return !jar[SESSION_COOKIE];
}
