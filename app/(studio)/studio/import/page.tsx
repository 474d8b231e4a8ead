import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { currentActor } from "@/lib/auth/actor";
import { config } from "@/lib/env";
import { ZIP_LIMITS } from "@/lib/import/zip";
import ImportPageClient from "./page-client";

export const metadata: Metadata = { title: "Import · Studio" };
export const dynamic = "force-dynamic";

/** /studio/import: bring an ADR archive in (a repository URL or a zip of the folder), see the plan, run it (authors). */
export default async function ImportPage() {
  const actor = await currentActor();
  if (!actor) redirect("/sign-in?callbackUrl=%2Fstudio%2Fimport");
  if (actor.role !== "author") notFound();
  return <ImportPageClient allowLocal={config().importAllowLocal} maxZipBytes={ZIP_LIMITS.maxBytes} />;
}
