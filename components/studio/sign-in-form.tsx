"use client";

import { signIn } from "next-auth/react";
import { useState } from "react";
import { buttonClass } from "@/components/ui/button";
import styles from "./studio.module.css";

/** The studio's own sign-in form: an account and password (next-auth credentials), and any OAuth provider that is switched on. */
export function SignInForm({ callbackUrl, providers, error }: { callbackUrl: string; providers: { id: string; name: string }[]; error: string | null }) {
  const [problem, setProblem] = useState<string | null>(error);
  const [pending, setPending] = useState(false);

  async function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setPending(true);
    setProblem(null);
    try {
      const result = await signIn("credentials", { redirect: false, name: form.get("name"), password: form.get("password"), callbackUrl });
      if (result?.ok && !result.error) {
        // A full load, so every server component sees the new session cookie.
        window.location.assign(callbackUrl);
        return;
      }
      setProblem(result?.error === "CredentialsSignin" || !result?.error ? "wrong account name or password" : result.error);
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
