import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentActor } from "@/lib/auth/actor";
import { oauthButtons } from "@/lib/auth/options";
import { SignInForm } from "@/components/studio/sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

type Props = { searchParams: Promise<{ callbackUrl?: string | string[]; error?: string | string[] }> };

const ERRORS: Record<string, string> = {
  NotAllowed: "that identity is not on this site's allow-list (AUTH_ALLOW)",
  AccessDenied: "that identity is not on this site's allow-list (AUTH_ALLOW)",
  OAuthSignin: "the sign-in provider could not be reached",
  OAuthCallback: "the sign-in provider's answer could not be used",
  SessionRequired: "sign in to see that page",
};

export default async function SignInPage({ searchParams }: Props) {
  const params = await searchParams;
  const callbackUrl = localPath(first(params.callbackUrl)) ?? "/studio";
  if (await currentActor()) redirect(callbackUrl);
  const error = first(params.error);
  return <SignInForm callbackUrl={callbackUrl} providers={oauthButtons()} error={error ? (ERRORS[error] ?? error) : null} />;
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Only a path on this site: never an absolute URL or "//host", so sign-in cannot be used to send people elsewhere. */
function localPath(v: string | undefined): string | null {
  return v && v.startsWith("/") && !v.startsWith("//") && !v.startsWith("/\\") ? v : null;
}
