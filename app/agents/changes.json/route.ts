import { changesSince } from "@/lib/agents/changes";
import { preflight, serveAgent } from "@/lib/agents/http";

export const dynamic = "force-dynamic";

/**
 * The published notes changed since a commit main was at (`?since=<commit>`, `&cursor=` for a
 * later page): 400 without a commit id, 410 for a commit main has never been at here. The body's
 * `next_url` names the next page.
 */
export function GET(request: Request) {
  const params = new URL(request.url).searchParams;
  const since = params.get("since");
  const cursor = params.get("cursor");
  const variant = `changes.json.${encodeURIComponent(since ?? "")}.${encodeURIComponent(cursor ?? "")}`;
  return serveAgent(request, { variant, media: "json" }, async ({ view, urls }) => {
    if (!since) return { status: 400, error: "since is missing: ask /agents/changes.json?since=<commit>, the X-Content-Commit (or `commit`) of the last answer you read" };
    const answer = await changesSince(view, urls, since, cursor);
    if (!answer.ok) return { status: answer.status, error: answer.error };
    return { body: answer.doc };
  });
}

export const OPTIONS = preflight;
