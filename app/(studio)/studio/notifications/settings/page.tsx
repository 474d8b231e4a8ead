import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentActor } from "@/lib/auth/actor";
import { notificationSettings } from "@/lib/notifications/settings";
import NotificationSettingsClient from "./page-client";

export const metadata: Metadata = { title: "Notification settings" };

/** /studio/notifications/settings: the signed-in person's mail choices and feed address; anyone else is sent to sign in. */
export default async function NotificationSettingsPage() {
  const actor = await currentActor();
  if (!actor) redirect("/sign-in?callbackUrl=%2Fstudio%2Fnotifications%2Fsettings");
  return <NotificationSettingsClient initial={await notificationSettings(actor.id)} />;
}
