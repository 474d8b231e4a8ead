import { NextRequest, NextResponse } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseLlmsTxt } from "@/e2e/support/agents-llms-txt";
import { getPublishedPhases } from "@/lib/content/phases";
import { getPublishedView } from "@/lib/content/published";
import { withMarkdownLink } from "@/lib/http/markdown-twin";
import { phasePage, tagPage } from "@/lib/public/pages";
import { BASE, params, studioFixture } from "@/lib/testing/studio";
import { getContentStore } from "@/lib/working-copy/content-store";
import * as tagIndex from "@/app/(public)/tags/[tag]/llms.txt/route";
import * as phaseIndex from "@/app/(public)/phases/[phase]/llms.txt/route";
import * as twin from "@/app/agents/twin/[...twin]/route";
import * as noteFormats from "@/app/agents/notes/[file]/route";
import * as capsules from "@/app/agents/capsules/[file]/route";
import * as indexMd from "@/app/agents/index.md/route";
import * as indexJson from "@/app/agents/index.json/route";

/**
 * Per-slice indexes (/tags/<tag>/llms.txt, /phases/<slug>/llms.txt), built by /llms.txt's own
 * builder over the notes the slice's page lists; and `Link: </llms.txt>; rel="describedby"` on every
 * public HTML page and every Markdown answer, so an agent that lands anywhere finds the map.
 */

let f: Awaited<ReturnType<typeof studioFixture>>;
beforeAll(async () => {
  f = await studioFixture();
  await getContentStore(); // creates and seeds the repository (the project's content/)
}, 60_000);
afterAll(() => f.cleanup());

const get = (pathname: string) => new Request(`${BASE}${pathname}`, { headers: { host: "studio.test" } });
const capsuleIds = (text: string, section = "Notes") =>
  (parseLlmsTxt(text).sections.find((s) => s.name === section)?.links ?? []).map((l) => /\/agents\/capsules\/([^/]+)\.md$/.exec(l.url)?.[1]).filter(Boolean);

describe("a tag's index (/tags/<tag>/llms.txt)", () => {
  it("is llms.txt for the notes the tag page lists, linking back to the whole index, its page and its feed", async () => {
    const response = await tagIndex.GET(get("/tags/sparse-attention/llms.txt"), params({ tag: "sparse-attention" }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const text = await response.text();
    const parsed = parseLlmsTxt(text);
    const view = await getPublishedView();
    expect(parsed.title).toBe(`${view.site.title}: Tag: sparse attention`);
    expect(capsuleIds(text).sort()).toEqual(
      tagPage(view, "sparse-attention")!
        .notes.map((n) => n.id)
        .sort(),
    );
    const urls = parsed.sections.flatMap((s) => s.links.map((l) => l.url));
    expect(urls).toContain(`${BASE}/llms.txt`);
    expect(urls).toContain(`${BASE}/tags/sparse-attention.md`);
    expect(urls).toContain(`${BASE}/tags/sparse-attention/feed.xml`);
    expect(parsed.sections.at(-1)?.name).toBe("Optional");
    // Only the phases the tag's notes belong to.
    const phases = parsed.sections.find((s) => s.name === "Phases")?.links.map((l) => l.name) ?? [];
    expect(phases.sort()).toEqual([...new Set(tagPage(view, "sparse-attention")!.notes.map((n) => `Phase ${n.phase}`))].sort());
  });

  it("is a 404 in words for a tag no note has", async () => {
    const response = await tagIndex.GET(get("/tags/no-such-tag/llms.txt"), params({ tag: "no-such-tag" }));
    expect(response.status).toBe(404);
    expect(await response.text()).toContain(`no published note has the tag "no-such-tag"`);
  });
});

describe("a phase's index (/phases/<slug>/llms.txt)", () => {
  it("is llms.txt for the notes the phase page lists, and that phase only", async () => {
    const view = await getPublishedView();
    const page = phasePage(view, (await getPublishedPhases(view)).phases, "5")!;
    const text = await (await phaseIndex.GET(get("/phases/5/llms.txt"), params({ phase: "5" }))).text();
    expect(parseLlmsTxt(text).title).toBe(`${view.site.title}: Phase 5`);
    expect(capsuleIds(text).sort()).toEqual(page.phase.notes.map((n) => n.id).sort());
    expect(
      parseLlmsTxt(text)
        .sections.find((s) => s.name === "Phases")
        ?.links.map((l) => l.name),
    ).toEqual(["Phase 5"]);
  });

  it("is a 404 in words for a phase the archive does not have", async () => {
    const response = await phaseIndex.GET(get("/phases/99/llms.txt"), params({ phase: "99" }));
    expect(response.status).toBe(404);
    expect(await response.text()).toContain(`no phase "99"`);
  });
});

const DESCRIBED_BY = `</llms.txt>; rel="describedby"`;
const links = (response: Response) => (response.headers.get("link") ?? "").split(/,\s*(?=<)/);

describe("Link: </llms.txt>; rel=describedby", () => {
  it("is on every Markdown answer: a page's twin, a note, a capsule, the index", async () => {
    const answers = [
      await twin.GET(get("/agents/twin/tags/sparse-attention.md"), { params: Promise.resolve({ twin: ["tags", "sparse-attention.md"] }) }),
      await twin.GET(get("/agents/twin/index.md"), { params: Promise.resolve({ twin: ["index.md"] }) }),
      await noteFormats.GET(get("/agents/notes/AFN-016.md"), params({ file: "AFN-016.md" })),
      await capsules.GET(get("/agents/capsules/AFN-016.md"), params({ file: "AFN-016.md" })),
      await indexMd.GET(get("/agents/index.md")),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
      expect(links(answer)).toContain(DESCRIBED_BY);
    }
    // A 304 names it too (a cache revalidating keeps the headers it gets).
    const etag = answers[2]!.headers.get("etag")!;
    const again = await noteFormats.GET(
      new Request(`${BASE}/agents/notes/AFN-016.md`, { headers: { host: "studio.test", "if-none-match": etag } }),
      params({ file: "AFN-016.md" }),
    );
    expect(again.status).toBe(304);
    expect(links(again)).toContain(DESCRIBED_BY);
  });

  it("is not on JSON, which names its schema instead", async () => {
    expect(links(await indexJson.GET(get("/agents/index.json")))).not.toContain(DESCRIBED_BY);
    expect(links(await noteFormats.GET(get("/agents/notes/AFN-016.json"), params({ file: "AFN-016.json" })))).not.toContain(DESCRIBED_BY);
  });

  it("is on every public HTML page the proxy passes on, beside the twin; not on the API", () => {
    const html = (path: string) => withMarkdownLink(new NextRequest(`${BASE}${path}`), NextResponse.next());
    for (const path of [
      "/",
      "/?status=hypothesis",
      "/tags/sparse-attention",
      "/phases/5",
      "/notes/AFN-016",
      "/notes/AFN-016/history",
      "/search?q=x",
      "/agents/",
    ]) {
      expect(links(html(path)), path).toContain(DESCRIBED_BY);
      expect(
        links(html(path)).some((l) => l.endsWith(`rel="alternate"; type="text/markdown"`)),
        path,
      ).toBe(true);
    }
    expect(html("/api/studio/notes").headers.get("link")).toBeNull();
  });
});
