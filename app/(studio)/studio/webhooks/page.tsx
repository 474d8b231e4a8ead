import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { currentActor } from "@/lib/auth/actor";
import { webhooksView } from "@/lib/webhooks/studio";
import WebhooksPageClient from "./page-client";

export const metadata: Metadata = { title: "Webhooks · Studio" };
export const dynamic = "force-dynamic";

/** /studio/webhooks: who is told of published notes, reviews and closed phases, and how each delivery went (authors). */
export default async function WebhooksPage() {
  const actor = await currentActor();
  if (!actor) redirect("/sign-in?callbackUrl=%2Fstudio%2Fwebhooks");
  if (actor.role !== "author") notFound();
  return <WebhooksPageClient view={await webhooksView()} />;
}
