import { RemoteUnavailableError, remoteConfig } from "@/lib/store";
import { verifyWebhook } from "@/lib/web/webhook-signature";
import { syncRemotes } from "@/lib/remote/sync";

/**
 * POST /api/hooks/git: a git host says a repository changed (a push by an agent with plain git, a
 * merge on the host). Signed with HMAC-SHA256 and CONTENT_WEBHOOK_SECRET (GitHub's
 * X-Hub-Signature-256, Gitea's X-Gitea-Signature); anything unsigned or wrongly signed is 401 and
 * changes nothing. A signed one fetches every configured remote (content and accounts) before it
 * answers, so the next request reads the new commit. The body is only authenticated, not trusted
 * for what changed: the fetch asks the remote itself.
 */

export const dynamic = "force-dynamic";

const MAX_BODY = 5_000_000;

const answer = (status: number, body: unknown) => Response.json(body, { status, headers: { "cache-control": "no-store" } });

export async function POST(request: Request): Promise<Response> {
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY) {
    return answer(413, { error: { status: 413, code: "too-large", message: `a webhook body is at most ${MAX_BODY / 1_000_000} MB` } });
  }
  const body = Buffer.from(await request.arrayBuffer());
  if (body.length > MAX_BODY)
    return answer(413, { error: { status: 413, code: "too-large", message: `a webhook body is at most ${MAX_BODY / 1_000_000} MB` } });
  const verdict = verifyWebhook(body, request.headers, remoteConfig().webhookSecret);
  if (!verdict.ok) {
    console.warn(`webhook refused: ${verdict.why}`);
    return answer(401, { error: { status: 401, code: "bad-signature", message: verdict.why } });
  }
  try {
    const synced = await syncRemotes();
    return answer(200, { synced });
  } catch (e) {
    if (e instanceof RemoteUnavailableError) return answer(503, { error: { status: 503, code: "remote-unavailable", message: e.message } });
    throw e;
  }
}
