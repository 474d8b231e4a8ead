// After a warm start's view is loaded: the first requests (answered from disk) go first.
const WARM_UP_AFTER_MS = 1000;

/**
 * Runs once when a server process starts (Next's instrumentation hook), before any request.
 */
export async function register() {
  // Only the Node.js server reads the configuration; the hook also runs for the edge runtime.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { config, ConfigError } = await import("@/lib/env");
  const { warnIfOriginUnpinned } = await import("@/lib/origin");
  try {
    const c = config();
    warnIfOriginUnpinned({ nodeEnv: process.env.NODE_ENV, siteUrl: c.siteUrl, allowedHosts: c.allowedHosts });
  } catch (e) {
    // A bad variable is reported by the first request that reads the configuration, as before.
    if (!(e instanceof ConfigError)) throw e;
    console.error(e.message);
  }
  // With CONTENT_REMOTE / ACCOUNTS_REMOTE: clone or fetch now and start polling, before the first request.
  if (process.env.CONTENT_REMOTE || process.env.ACCOUNTS_REMOTE) {
    const { startRemotes } = await import("@/lib/remote/sync");
    await startRemotes();
  }
  // Two background services: webhook deliveries a stop interrupted go out (lib/webhooks), and commits
  // of main the app did not make (plain git, another host) are announced like its own, once
  // (lib/events). After a warm start, only once the persisted view has loaded (below), not beside
  // that load: their modules' first load held the thread the first answers need (start to first
  // 200 of `/`, warm, 1.4-1.6 s against 1.1-1.3 s), and main's first check parsed every note from git
  // before the view seeded the parsed notes, so the search worker, moved from its saved index by the
  // notes whose objects differ, was sent every note (first search after a warm start 10 s against
  // 2.5 s; bench:read at 10,000 notes, 6 Dec).
  const startServices = () => {
    void import("@/lib/webhooks").then((m) => m.webhookOutbox()).catch((e: Error) => console.error(`webhooks: the delivery queue did not open: ${e.message}`));
    void import("@/lib/events/announce-main").then((m) => m.startMainEvents()).catch((e: Error) => console.error(`events: did not start: ${e.message}`));
  };
  // With SMTP_URL: deliver the notification mail a previous run left in the outbox, and keep delivering.
  if (process.env.SMTP_URL) {
    const { startMailer } = await import("@/lib/notifications/mail-outbox");
    try {
      startMailer();
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e; // reported above
    }
  }
  // The read model persisted by the previous run (lib/read-model) loads now, behind the first
  // requests rather than in front of one: a page kept on disk for main's commit is answered
  // meanwhile. With nothing persisted, the first request builds it, as before: a build from git
  // (10,000 blob reads) would fill the file-system thread pool that every other request needs.
  // A failure here (no main yet, a bad site.yaml) is the first request's to report, as before.
  const { hasPersisted } = await import("@/lib/read-model");
  if (process.env.NODE_ENV !== "production" || !hasPersisted()) startServices();
  else {
    // A timer, not setImmediate: Next also compiles this hook for the edge runtime, which has none.
    setTimeout(() => {
      const view = import("@/lib/content/published").then((m) => m.getPublishedView());
      view.catch(() => undefined).finally(startServices);
      // Meanwhile the search worker loads the index it saved, in its own thread, so the first
      // search finds it loaded rather than waiting for the load.
      void import("@/lib/search").then((m) => m.loadSavedIndex(view)).catch(() => undefined);
      // Then, a moment later, home, the agents' index and one note are rendered once, so the
      // modules behind pages and agent routes (and the section renderer's thread) load now rather
      // than in front of every reader at the first commit (lib/http/page-cache.ts, `warmUp`).
      void view
        .then(async (v) => {
          await new Promise((resolve) => setTimeout(resolve, WARM_UP_AFTER_MS));
          const { warmUp } = await import("@/lib/http/page-cache");
          await warmUp(v.notes[0]?.id ?? null);
        })
        .catch(() => undefined);
    }, 0);
  }
}
