import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptedNoteFile, commitWithGit } from "@/lib/testing/plain-git";

/**
 * The paged compact index names its next page in a `Link: <…>; rel="next"` header, and says so on
 * every answer: the first one, which builds the page, and each one after it served from the bytes
 * kept for the commit (lib/agents/answer-bytes.ts), whose headers are the route's too. Real routes over a
 * real repository with more notes than a page of either index.
 */

const SITE = "http://notes.test:3000";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-index-link-"));
process.env.DATA_DIR = dataDir;
process.env.SITE_URL = SITE;

type Handler = (request: Request) => Promise<Response>;
let json: Handler;
let md: Handler;
const get = (handler: Handler, url: string, headers: Record<string, string> = {}) =>
  handler(new Request(`${SITE}${url}`, { headers: { host: "notes.test:3000", ...headers } }));
const links = (r: Response) => r.headers.get("link") ?? "";

beforeAll(async () => {
  json = (await import("@/app/agents/index.json/route")).GET;
  md = (await import("@/app/agents/index.md/route")).GET;
  await get(json, "/agents/index.json"); // seeds the repository from content/
  // 21 seed notes and 100 more: two pages of the Markdown index (100 a page), five of the JSON one (30).
  const files: Record<string, string> = {};
  for (let n = 200; n < 300; n++) files[`notes/AFN-${n}.md`] = acceptedNoteFile(`AFN-${n}`);
  commitWithGit(path.join(dataDir, "content.git"), files);
}, 60_000);

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('rel="next" on the paged compact index', () => {
  it.each([
    ["index.json", () => json, "/agents/index.json"],
    ["index.md", () => md, "/agents/index.md"],
  ] as const)("%s: the first page and the same page again, served from the kept bytes, carry the same Link to the next page", async (_, handler, url) => {
    const first = await get(handler(), url);
    expect(first.status).toBe(200);
    const next = /<([^>]+)>; rel="next"/.exec(links(first))?.[1] ?? "";
    expect(next).toMatch(new RegExp(`^${SITE}${url.replace(".", "\\.")}\\?cursor=AFN-\\d+$`));

    const again = await get(handler(), url);
    expect(again.headers.get("x-content-commit")).toBe(first.headers.get("x-content-commit"));
    expect(links(again)).toBe(links(first));

    // The next page, twice: its own Link again on the second answer (the last page has none).
    const cursor = new URL(next).search;
    const second = await get(handler(), `${url}${cursor}`);
    const secondAgain = await get(handler(), `${url}${cursor}`);
    expect(second.status).toBe(200);
    expect(links(secondAgain)).toBe(links(second));
    if (url.endsWith(".md")) expect(links(second)).not.toContain('rel="next"');
    else expect(links(second)).toMatch(/rel="next"/);
  });

  it("keeps the Markdown index's covering-index link beside rel=next", async () => {
    for (let i = 0; i < 2; i++) {
      const answer = await get(md, "/agents/index.md");
      expect(links(answer)).toContain('</llms.txt>; rel="describedby"');
      expect(links(answer)).toMatch(/rel="next"/);
    }
  });
});
