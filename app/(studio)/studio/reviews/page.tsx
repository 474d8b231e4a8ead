import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentActor } from "@/lib/auth/actor";
import { reviewInbox } from "@/lib/review/inbox";
import ReviewsPageClient from "./page-client";

export const metadata: Metadata = { title: "Review inbox" };

/** /studio/reviews: what waits for the signed-in person (a verdict, a reply); anyone else is sent to sign in. */
export default async function ReviewsPage() {
  const actor = await currentActor();
  if (!actor) redirect("/sign-in?callbackUrl=%2Fstudio%2Freviews");
  return <ReviewsPageClient initial={await reviewInbox(actor)} role={actor.role} />;
}
