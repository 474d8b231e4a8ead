import fs from "node:fs";
import path from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getPublishedPhases } from "@/lib/content/phases";
import { getPublishedView } from "@/lib/content/published";
import { resetConfig } from "@/lib/env";
import { pageMetadata } from "@/lib/public/meta";
import { phasePage, tagPage } from "@/lib/public/pages";
import { git, noteFile, tempDir } from "@/lib/store/testing";
import { BASE, params, studioFixture } from "@/lib/testing/studio";
import { getContentStore } from "@/lib/working-copy/content-store";
import * as archiveFeed from "./feed.xml/route";
import * as tagFeed from "./(public)/tags/[tag]/feed.xml/route";
import * as phaseFeed from "./(public)/phases/[phase]/feed.xml/route";

/**
 * The feeds of one slice of the archive (a tag, a phase, a status) on a real content repository:
 * each is well-formed Atom holding exactly the notes its page lists, names its own address and its
 * page, refuses a slice the archive does not have in words, and names the WebSub hub when one is set.
 */

let f: Awaited<ReturnType<typeof studioFixture>>;
beforeAll(async () => {
  f = await studioFixture();
  await getContentStore(); // creates and seeds the repository (the project's content/)
  // A tag and a phase full of XML's special characters, committed with plain git.
  const work = tempDir("feeds");
  git(work, "clone", "--quiet", f.gitdir, ".");
  fs.writeFileSync(path.join(work, "notes", "AFN-801.md"), noteFile("AFN-801", "R&D <b>", { tags: [`R&D <"x">`, "sparse attention"], status: "hypothesis" }));
  git(work, "add", "-A");
  git(work, "commit", "--quiet", "-m", "A note with a hostile tag");
  git(work, "push", "--quiet", "origin", "HEAD:refs/heads/main");
  fs.rmSync(work, { recursive: true, force: true });
}, 60_000);
afterAll(() => f.cleanup());
afterEach(() => {
  delete process.env.WEBSUB_HUB;
  resetConfig();
});

const get = (pathname: string) => new Request(`${BASE}${pathname}`, { headers: { host: "studio.test" } });

type Feed = { id: string; title: string; links: { rel: string; href: string }[]; entries: string[] };

/** The feed as a strict XML parser reads it: refused outright unless well-formed. */
async function read(response: Response): Promise<Feed> {
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
  const xml = await response.text();
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", isArray: (name) => name === "entry" || name === "link" }).parse(xml);
  const feed = doc.feed;
  const text = (v: unknown) => (typeof v === "object" && v ? String((v as Record<string, unknown>)["#text"]) : String(v));
  return {
    id: feed.id,
    title: text(feed.title),
    links: feed.link,
    entries: (feed.entry ?? []).map((e: { title: unknown }) => text(e.title).split(":")[0]),
  };
}

const ids = (notes: readonly { id: string }[]) => notes.map((n) => n.id).sort();

describe("a tag's feed (/tags/<tag>/feed.xml)", () => {
  it("holds exactly the notes the tag page lists, and names itself and the page", async () => {
    const feed = await read(await tagFeed.GET(get("/tags/sparse-attention/feed.xml"), params({ tag: "sparse-attention" })));
    const page = tagPage(await getPublishedView(), "sparse-attention");
    expect(feed.entries.sort()).toEqual(ids(page!.notes));
    expect(feed.entries).toContain("AFN-801");
    expect(feed.id).toBe(`${BASE}/tags/sparse-attention`);
    expect(feed.title).toMatch(/: Tag: sparse attention$/);
    expect(feed.links).toContainEqual(expect.objectContaining({ rel: "self", href: `${BASE}/tags/sparse-attention/feed.xml` }));
    expect(feed.links).toContainEqual(expect.objectContaining({ rel: "alternate", href: `${BASE}/tags/sparse-attention` }));
  });

  it("stays well-formed for a tag of XML's special characters, its name said as written", async () => {
    const feed = await read(await tagFeed.GET(get("/tags/r-d-x/feed.xml"), params({ tag: "r-d-x" })));
    expect(feed.entries).toEqual(["AFN-801"]);
    expect(feed.title).toMatch(/: Tag: R&D <"x">$/);
  });

  it("is a 404 in words for a tag no note has", async () => {
    const response = await tagFeed.GET(get("/tags/no-such-tag/feed.xml"), params({ tag: "no-such-tag" }));
    expect(response.status).toBe(404);
    expect(await response.text()).toMatch(/no published note has the tag "no-such-tag"/);
  });
});

describe("a phase's feed (/phases/<slug>/feed.xml)", () => {
  it("holds exactly the notes the phase page lists", async () => {
    const view = await getPublishedView();
    const page = phasePage(view, (await getPublishedPhases(view)).phases, "5");
    const feed = await read(await phaseFeed.GET(get("/phases/5/feed.xml"), params({ phase: "5" })));
    expect(page!.phase.notes.length).toBeGreaterThan(0);
    expect(feed.entries.sort()).toEqual(ids(page!.phase.notes));
    expect(feed.title).toMatch(/: Phase 5$/);
    expect(feed.links).toContainEqual(expect.objectContaining({ rel: "self", href: `${BASE}/phases/5/feed.xml` }));
  });

  it("is a 404 in words for a phase the archive does not have", async () => {
    const response = await phaseFeed.GET(get("/phases/99/feed.xml"), params({ phase: "99" }));
    expect(response.status).toBe(404);
    expect(await response.text()).toMatch(/no phase "99"/);
  });
});

describe("a status's feed (/feed.xml?status=…, the home page's status filter)", () => {
  it("holds exactly the notes of that status; without a status, every note", async () => {
    const view = await getPublishedView();
    const feed = await read(await archiveFeed.GET(get("/feed.xml?status=hypothesis")));
    expect(feed.entries.sort()).toEqual(ids(view.notes.filter((n) => n.status === "hypothesis")));
    expect(feed.id).toBe(`${BASE}/?status=hypothesis`);
    expect(feed.links).toContainEqual(expect.objectContaining({ rel: "self", href: `${BASE}/feed.xml?status=hypothesis` }));
    const all = await read(await archiveFeed.GET(get("/feed.xml")));
    expect(all.entries.sort()).toEqual(ids(view.notes));
    expect(all.id).toBe(`${BASE}/`);
  });

  it("is a 404 in words for a status that is not a published one (a draft is never a feed)", async () => {
    for (const status of ["draft", "nonsense"]) {
      const response = await archiveFeed.GET(get(`/feed.xml?status=${status}`));
      expect(response.status).toBe(404);
      expect(await response.text()).toContain(`no published status "${status}"`);
    }
  });
});

describe("WebSub discovery", () => {
  it("names the hub and the topic in the feed and its Link header when WEBSUB_HUB is set, and nothing without it", async () => {
    const plain = await tagFeed.GET(get("/tags/sparse-attention/feed.xml"), params({ tag: "sparse-attention" }));
    expect(plain.headers.get("link")).toBeNull();
    expect((await read(plain)).links.map((l) => l.rel)).not.toContain("hub");

    process.env.WEBSUB_HUB = "https://hub.example.org/";
    resetConfig();
    const response = await tagFeed.GET(get("/tags/sparse-attention/feed.xml"), params({ tag: "sparse-attention" }));
    expect(response.headers.get("link")).toBe(`<https://hub.example.org/>; rel="hub", <${BASE}/tags/sparse-attention/feed.xml>; rel="self"`);
    const feed = await read(response);
    expect(feed.links).toContainEqual(expect.objectContaining({ rel: "hub", href: "https://hub.example.org/" }));
    expect(feed.links).toContainEqual(expect.objectContaining({ rel: "self", href: `${BASE}/tags/sparse-attention/feed.xml` }));
  });
});

describe("the pages name their feed", () => {
  it("as the first Atom alternate, before the whole archive's", () => {
    const meta = pageMetadata({ title: "Tag: x", description: "", path: "/tags/x", feed: { url: "/tags/x/feed.xml", title: "Tag: x" } });
    expect(meta.alternates?.types?.["application/atom+xml"]).toEqual([
      { url: "/tags/x/feed.xml", title: "Tag: x" },
      { url: "/feed.xml", title: "Every note" },
    ]);
  });
});
