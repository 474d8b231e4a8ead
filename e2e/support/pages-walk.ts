import type { APIRequestContext } from "@playwright/test";

/**
 * Walks every address /agents/pages.txt lists, as an agent finds them: at the twin's own URL, and at
 * its page's URL asked for with Accept: text/markdown (after a browser's HTML request for the same
 * URL, so a cache in front must keep the two apart). `at` is where to ask (the app, or nginx in
 * front of it); the list's links name the site's origin, so only their path and query are used.
 */

const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
export const MARKDOWN_TYPE = "text/markdown; charset=utf-8";

export type Walk = { twins: URL[]; failed: string[]; fetched: number };

/** The HTML page a twin path is the twin of (the inverse of lib/agents/twin-paths.ts's table). */
export function htmlPathOf(twinPath: string): string {
  if (twinPath === "/index.md") return "/";
  if (twinPath === "/agents.md") return "/agents/";
  return twinPath.replace(/\.md$/, "");
}

export async function walkPagesTxt(request: APIRequestContext, at: string): Promise<Walk> {
  const list = await request.get(`${at}/agents/pages.txt`);
  if (list.status() !== 200) return { twins: [], failed: [`/agents/pages.txt: ${list.status()}`], fetched: 1 };
  const twins = [...(await list.text()).matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].map((m) => new URL(m[1]!));
  const failed: string[] = [];
  let fetched = 0;
  const markdown = async (url: string, accept: string) => {
    const res = await request.get(`${at}${url}`, { headers: { Accept: accept }, maxRedirects: 0 });
    fetched++;
    const type = res.headers()["content-type"] ?? "";
    const body = await res.text();
    if (res.status() !== 200 || type !== MARKDOWN_TYPE || !/\/llms\.txt/.test(body.slice(0, 300)))
      failed.push(`${url} (Accept ${accept}): ${res.status()} ${type}`);
  };
  const one = async (twin: URL) => {
    const html = `${htmlPathOf(twin.pathname)}${twin.search}`;
    await markdown(`${twin.pathname}${twin.search}`, "*/*");
    const page = await request.get(`${at}${html}`, { headers: { Accept: BROWSER }, maxRedirects: 0 });
    fetched++;
    if (page.status() !== 200 || !(page.headers()["content-type"] ?? "").startsWith("text/html")) failed.push(`${html} (HTML): ${page.status()}`);
    await markdown(html, "text/markdown");
  };
  // A few addresses at a time, as a crawling agent would (each address's three requests stay in
  // order): 400 requests one by one took over a minute on a loaded 2-core machine.
  const queue = [...twins];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let twin = queue.shift(); twin; twin = queue.shift()) await one(twin);
    }),
  );
  return { twins, failed: failed.sort(), fetched };
}
