import { getPublishedNote } from "@/lib/content/published";
import { config } from "@/lib/env";
import { originFor } from "@/lib/origin";
import type { Note } from "@/lib/notes/schema";
import { tagHasPage } from "@/lib/web/urls";
import { feedUrl } from "./slices";

/**
 * WebSub (W3C Recommendation, 2018) for the archive's feeds. With WEBSUB_HUB set, every feed names
 * the hub and itself (lib/public/feeds.ts), and a publish tells the hub which feeds changed: one
 * `POST hub.mode=publish&hub.url=<feed>` per feed, so the hub fetches them and pushes them to its
 * subscribers. The ping runs after the publish has answered; a hub that is down or slow costs the
 * author nothing, and a failure is logged (docs/decisions/websub-on-publish.md).
 */

// A hub that does not answer in this long is given up on (logged); the feed is still correct.
const PING_TIMEOUT_MS = 10_000;

/**
 * The feeds whose content a published note's change touches, as site paths: the whole archive's,
 * and the status, tag and phase feeds of the note before and after (a tag dropped changes that
 * tag's feed too). `before` is the note as main had it (null: first published).
 */
export function affectedFeeds(before: Note | null, after: Note | null): string[] {
  const notes = [before, after].filter((n): n is Note => n !== null);
  const feeds = [
    feedUrl.archive(),
    ...notes.map((n) => feedUrl.status(n.status)),
    ...notes.flatMap((n) => n.tags.filter(tagHasPage).map(feedUrl.tag)),
    ...notes.map((n) => feedUrl.phase(n.phase)),
  ];
  return [...new Set(feeds)];
}

export type PingOutcome = { topic: string; ok: boolean; status?: number; error?: string };

/** Tells `hub` that each topic (an absolute feed URL) changed; never throws, logs each failure. */
export async function pingHub(hub: string, topics: readonly string[]): Promise<PingOutcome[]> {
  return Promise.all(
    topics.map(async (topic): Promise<PingOutcome> => {
      try {
        const response = await fetch(hub, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ "hub.mode": "publish", "hub.url": topic }),
          signal: AbortSignal.timeout(PING_TIMEOUT_MS),
          redirect: "error",
        });
        await response.body?.cancel();
        if (response.ok) return { topic, ok: true, status: response.status };
        console.warn(`websub: the hub ${hub} answered ${response.status} to the publish of ${topic}`);
        return { topic, ok: false, status: response.status };
      } catch (e) {
        const error = (e as Error).name === "TimeoutError" ? `no answer in ${PING_TIMEOUT_MS / 1000} s` : (e as Error).message;
        console.warn(`websub: the hub ${hub} could not be told of ${topic}: ${error}`);
        return { topic, ok: false, error };
      }
    }),
  );
}

/**
 * Around a publish: reads the note as main has it now (only when a hub is set), and returns what
 * to call once the publish has landed, which starts the pings and returns at once.
 */
export async function beforePublish(id: string, request: Request): Promise<(published: boolean) => void> {
  const hub = config().websubHub;
  if (!hub) return () => {};
  // The feeds' own origin: SITE_URL, else the one this request reached (the feeds' self links agree).
  const origin = originFor(request);
  const before = await getPublishedNote(id).catch(() => null);
  return (published) => {
    if (!published) return;
    void (async () => {
      const after = await getPublishedNote(id);
      await pingHub(
        hub,
        affectedFeeds(before, after).map((path) => `${origin}${path}`),
      );
    })().catch((e: Error) => console.warn(`websub: the feeds of ${id} could not be announced: ${e.message}`));
  };
}
