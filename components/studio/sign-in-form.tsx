"use client";

import { signIn } from "next-auth/react";
import { useEffect, useRef, useState } from "react";
import { buttonClass } from "@/components/ui/button";
import styles from "./studio.module.css";

/** next-auth's CSRF token (its cookie is set by the same answer), or null when it cannot be had. */
async function csrfToken(): Promise<string | null> {
  try {
    const answer = await fetch("/api/auth/csrf", { credentials: "same-origin" });
    const token = ((await answer.json()) as { csrfToken?: unknown }).csrfToken;
    return typeof token === "string" ? token : null;
  } catch {
    return null;
  }
}

/**
 * The credentials sign-in, as next-auth's `signIn("credentials", { redirect: false })` sends it, but
 * with the CSRF token asked for while the form is being filled in: signIn asked for the provider
 * list and then the token after the click, two round trips before the password was even sent.
 * Answers null when signed in, else the reason next-auth gives (its `error` parameter).
 */
async function credentialsSignIn(token: Promise<string | null>, fields: { name: string; password: string; callbackUrl: string }): Promise<string | null> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const csrf = (attempt === 0 ? await token : null) ?? (await csrfToken());
    if (!csrf) throw new Error("no CSRF token");
    const answer = await fetch("/api/auth/callback/credentials", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...fields, csrfToken: csrf, json: "true" }),
    });
    const url = new URL(((await answer.json()) as { url?: string }).url ?? "", window.location.href);
    // A stale token (its cookie expired meanwhile): next-auth sends us to its own page; once more.
    if (url.searchParams.get("csrf") === "true") continue;
    const error = url.searchParams.get("error");
    return answer.ok && !error ? null : (error ?? "CredentialsSignin");
  }
  throw new Error("the CSRF token was refused twice");
}

/** The studio's own sign-in form: an account and password (next-auth credentials), and any OAuth provider that is switched on. */
export function SignInForm({ callbackUrl, providers, error }: { callbackUrl: string; providers: { id: string; name: string }[]; error: string | null }) {
  const [problem, setProblem] = useState<string | null>(error);
  const [pending, setPending] = useState(false);
  const token = useRef<Promise<string | null> | null>(null);
  useEffect(() => {
    token.current = csrfToken();
  }, []);

  async function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setPending(true);
    setProblem(null);
    try {
      const failed = await credentialsSignIn(token.current ?? csrfToken(), {
        name: String(form.get("name") ?? ""),
        password: String(form.get("password") ?? ""),
        callbackUrl,
      });
      if (!failed) {
        // A full load, so every server component sees the new session cookie.
        window.location.assign(callbackUrl);
        return;
      }
      setProblem(failed === "CredentialsSignin" ? "wrong account name or password" : failed);
    } catch {
      setProblem("the server could not be reached; try again");
    }
    setPending(false);
  }

  return (
    <div className={styles.signIn}>
      <h1>Sign in to the studio</h1>
      <form onSubmit={submit} className={styles.signInForm}>
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
