import { randomUUID } from "node:crypto";
import { headers } from "next/headers";
import { config } from "@/lib/env";
import { FALLBACK_ORIGIN, requestOrigin } from "@/lib/origin";
import { eventsOf, type CommittedWrite } from "./events";
import { webhookOutbox } from "./index";

/**
 * The one place a committed write becomes events: every write path (publish, status change, the
 * review road, phase close) calls `announce` once its commit has landed. The events are queued
 * durably before it resolves and sent later, off the request, by the outbox's lanes, so a receiver
 * that never answers delays no save. Never throws: the write has committed, and a full disk or a
 * bad accounts file must not turn its answer into an error; it is logged instead.
 */
export async function announce(write: CommittedWrite): Promise<void> {
  try {
    const events = eventsOf(write, await eventOrigin(), new Date().toISOString(), randomUUID);
    if (events.length) await (await webhookOutbox()).enqueue(events);
  } catch (e) {
    console.error(`webhooks: could not queue the events of ${write.kind} ${write.commit.slice(0, 12)}: ${(e as Error).message}`);
  }
}

/** SITE_URL; else the origin of the request being answered (as every absolute URL of the site); else http://localhost. */
async function eventOrigin(): Promise<string> {
  const site = config().siteUrl;
  if (site) return site;
  try {
    return requestOrigin(await headers(), null);
  } catch {
    return FALLBACK_ORIGIN; // outside a request (a script, a test)
  }
}
