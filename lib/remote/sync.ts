import "server-only";
import { getContentStore } from "@/lib/working-copy/content-store";
import { config } from "@/lib/env";
import { ACCOUNTS_REF, getAccountsStore } from "@/lib/auth/account-file";
import { remoteConfig, RemoteUnavailableError } from "@/lib/store";
import { MAIN_REF } from "@/lib/working-copy/layout";

/**
 * Fetch now from every configured remote (the webhook's work; polling does the same on a timer).
 * Answers what each one's main is after the sync. The read model reads main fresh on every
 * request, so the next request after this returns sees the new commit.
 */
export async function syncRemotes(): Promise<{ content?: string | null; accounts?: string | null }> {
  const { content, accounts } = remoteConfig();
  const out: { content?: string | null; accounts?: string | null } = {};
  const jobs: Promise<void>[] = [];
  if (content) {
    jobs.push(
      (async () => {
        const store = await getContentStore();
        await store.remote?.sync();
        out.content = await store.resolve(MAIN_REF);
      })(),
    );
  }
  if (accounts) {
    jobs.push(
      (async () => {
        const store = await getAccountsStore(config().dataDir);
        await store.remote?.sync();
        out.accounts = await store.resolve(ACCOUNTS_REF);
      })(),
    );
  }
  const results = await Promise.allSettled(jobs);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  return out;
}

/** Open the remotes at server start, so polling runs before the first request arrives. */
export async function startRemotes(): Promise<void> {
  const { content, accounts } = remoteConfig();
  const opening: Promise<unknown>[] = [];
  if (content) opening.push(getContentStore());
  if (accounts) opening.push(getAccountsStore(config().dataDir));
  for (const r of await Promise.allSettled(opening)) {
    // An unreachable remote was reported by the mirror, which polls on and says when it is back.
    if (r.status === "rejected" && !(r.reason instanceof RemoteUnavailableError)) console.error(`git remote: ${(r.reason as Error).message}`);
  }
}
