import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentActor } from "@/lib/auth/actor";
import AccountPageClient from "./page-client";

export const metadata: Metadata = { title: "Your name · Studio" };
export const dynamic = "force-dynamic";

/** /studio/account: the name commits, bylines and review threads show for the signed-in person. */
export default async function AccountPage() {
  const actor = await currentActor();
  if (!actor) redirect("/sign-in?callbackUrl=%2Fstudio%2Faccount");
  return <AccountPageClient id={actor.id} displayName={actor.name} local={!actor.id.includes(":")} />;
}
