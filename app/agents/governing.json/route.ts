import { answerGoverning, postGoverning, queryFromParams } from "@/lib/agents/governing-request";
import { serveAgent } from "@/lib/agents/http";

export const dynamic = "force-dynamic";

/** Which published decisions govern these paths: `?path=src/cache/lru.ts&path=…` (and `component=`). */
export function GET(request: Request) {
  const asked = queryFromParams(new URL(request.url).searchParams);
  return serveAgent(request, { variant: "governing.json", media: "json" }, (ctx) => (asked.ok ? answerGoverning(ctx, asked.query) : { status: 400, error: asked.error }));
}

/** The same question for a unified diff (`git diff | curl --data-binary @- -H 'Content-Type: text/x-diff'`). */
export function POST(request: Request) {
  return postGoverning(request);
}

export function OPTIONS() {
  return new Response(null, {
    status: 204,
    headers: {
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Expose-Headers": "ETag, X-Content-Commit",
      "Access-Control-Allow-Methods": "GET, HEAD, POST, OPTIONS",
      "Access-Control-Allow-Headers": "Accept, Content-Type, If-None-Match",
      "Access-Control-Max-Age": "86400",
      Allow: "GET, HEAD, POST, OPTIONS",
    },
  });
}
