import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getPublishedView } from "@/lib/content/published";
import { lastChanges } from "@/lib/content/last-change";
import { git, noteFile, tempDir } from "@/lib/store/testing";
import { BASE, studioFixture } from "@/lib/testing/studio";
import { getContentStore } from "@/lib/working-copy/content-store";
import { atomFeed } from "@/lib/public/atom";
import * as pagesTxt from "./agents/pages.txt/route";
import sitemap from "./sitemap";

/**
 * A tag of dots alone ("..") committed to main with plain git, where the studio would refuse it
 * (content:check reports it): its address /tags/.. is the site's root, so the sitemap, the agents'
 * page list and the feed must not name it as a page (issue 32; `npm run export` followed it).
 */

vi.mock("next/headers", () => ({ headers: async () => new Headers({ host: "studio.test" }) }));

let f: Awaited<ReturnType<typeof studioFixture>>;
beforeAll(async () => {
  f = await studioFixture();
  await getContentStore(); // creates and seeds the repository
  const work = tempDir("tag-links");
  git(work, "clone", "--quiet", f.gitdir, ".");
  fs.writeFileSync(
    path.join(work, "notes", "AFN-801.md"),
    noteFile("AFN-801", "Tagged with dots.", { tags: ["..", "dotted storage"], phase: "6 architecture" }),
  );
  git(work, "add", "-A");
  git(work, "commit", "--quiet", "-m", "A note tagged '..'");
  git(work, "push", "--quiet", "origin", "HEAD:refs/heads/main");
  fs.rmSync(work, { recursive: true, force: true });
}, 60_000);
afterAll(() => f.cleanup());

describe("a tag without a page of its own", () => {
  it("is left out of the sitemap, the agents' page list and the feed's tag pages; its note's other tags stay", async () => {
    const urls = (await sitemap()).map((e) => e.url);
    expect(urls).toContain(`${BASE}/notes/AFN-801`);
    expect(urls).toContain(`${BASE}/tags/dotted-storage`);
    expect(urls.filter((u) => /\/tags\/\.\.?$/.test(u))).toEqual([]);

    const list = await (await pagesTxt.GET(new Request(`${BASE}/agents/pages.txt`, { headers: { host: "studio.test" } }))).text();
    expect(list).toContain("/tags/dotted-storage.md");
    expect(list).not.toMatch(/\/tags\/\.\.\.?md/);

    const view = await getPublishedView();
    const feed = await atomFeed({ view, origin: BASE, changes: await lastChanges(view), titles: {} });
    expect(feed).toContain('<category term=".."/>');
    expect(feed).not.toMatch(/scheme="[^"]*\/tags\/" term="\.\."/);
  });
});
