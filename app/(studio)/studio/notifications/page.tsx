import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentActor } from "@/lib/auth/actor";
import { notificationsOf } from "@/lib/notifications/notifications";
import NotificationsPageClient from "./page-client";

export const metadata: Metadata = { title: "Notifications" };

/** /studio/notifications: the signed-in person's notifications; anyone else is sent to sign in. */
export default async function NotificationsPage() {
  const actor = await currentActor();
  if (!actor) redirect("/sign-in?callbackUrl=%2Fstudio%2Fnotifications");
  return <NotificationsPageClient initial={await notificationsOf(actor.id)} />;
}
