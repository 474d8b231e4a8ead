"use client";

import { signIn } from "next-auth/react";
import { useEffect, useRef, useState } from "react";
import { buttonClass } from "@/components/ui/button";
import styles from "./studio.module.css";

const CSRF = "/api/auth/csrf";
const CALLBACK = "/api/auth/callback/credentials";

/**
 * The studio's own sign-in form: an account and password (next-auth credentials), and any OAuth provider that is switched on.
 *
 * The password goes through next-auth's documented REST endpoints (GET /api/auth/csrf, POST
 * /api/auth/callback/credentials) rather than `signIn()` from next-auth/react, which asks for the
 * providers, then the CSRF token, and after the answer the session: three round trips of waiting
 * between "Sign in" and the studio. Here the token is asked for while the form shows, and sending
 * it is one request. The form is also a plain POST to the same endpoint, so a press before the
 * page's script runs never puts the password in an address (next-auth refuses a post without the
 * token and sends the browser back to this page).
 */
export function SignInForm({ callbackUrl, providers, error }: { callbackUrl: string; providers: { id: string; name: string }[]; error: string | null }) {
  const [problem, setProblem] = useState<string | null>(error);
  const [pending, setPending] = useState(false);
  const token = useRef<Promise<string> | null>(null);
  const csrfToken = () => (token.current ??= fetch(CSRF, { cache: "no-store" }).then(async (r) => ((await r.json()) as { csrfToken: string }).csrfToken));
  useEffect(() => {
    void csrfToken().catch(() => (token.current = null));
  }, []);

  /** next-auth's answer: where it would send the browser; a refusal names its reason in ?error= (or ?csrf=true). */
  async function send(name: string, password: string): Promise<URL> {
    const body = new URLSearchParams({ csrfToken: await csrfToken(), name, password, callbackUrl, json: "true" });
    const answer = await fetch(CALLBACK, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body });
    return new URL(((await answer.json()) as { url: string }).url, window.location.href);
  }

  async function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const [name, password] = [String(form.get("name") ?? ""), String(form.get("password") ?? "")];
    setPending(true);
    setProblem(null);
    try {
      let url = await send(name, password);
      // The token's cookie was gone (another tab signed out, cookies cleared): a fresh token, once.
      if (url.searchParams.get("csrf") === "true") {
        token.current = null;
        url = await send(name, password);
      }
      const refused = url.searchParams.get("error") ?? (url.searchParams.get("csrf") === "true" ? "the form expired; try again" : null);
      if (!refused) {
        // A full load, so every server component sees the new session cookie.
        window.location.assign(callbackUrl);
        return;
      }
      setProblem(refused === "CredentialsSignin" ? "wrong account name or password" : refused);
    } catch {
      token.current = null;
      setProblem("the server could not be reached; try again");
    }
    setPending(false);
  }

  return (
    <div className={styles.signIn}>
      <h1>Sign in to the studio</h1>
      <form method="post" action={CALLBACK} onSubmit={submit} className={styles.signInForm}>
        <input type="hidden" name="callbackUrl" value={callbackUrl} />
        <label htmlFor="sign-in-name">Account</label>
        <input id="sign-in-name" name="name" type="text" autoComplete="username" autoCapitalize="none" spellCheck={false} required />
        <label htmlFor="sign-in-password">Password</label>
        <input id="sign-in-password" name="password" type="password" autoComplete="current-password" required />
        <button type="submit" className={buttonClass("primary")} disabled={pending}>
          {pending ? "Signing in…" : "Sign in"}
        </button>
        <p role="alert" className={styles.error}>
          {problem ? `Not signed in: ${problem}.` : null}
        </p>
      </form>
      {providers.length ? (
        <div className={styles.oauth}>
          <p>Or sign in with</p>
          {providers.map((p) => (
            <button key={p.id} type="button" onClick={() => void signIn(p.id, { callbackUrl })}>
              {p.name}
            </button>
          ))}
        </div>
      ) : null}
      <p className={styles.hint}>
        No account yet? Whoever runs this site adds one with <code>npm run user -- add &lt;name&gt; --role author</code>.
      </p>
    </div>
  );
}
