import { createElement, type ReactNode } from "react";
import { renderToReadableStream, renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PhaseField } from "@/components/studio/text-fields";
import { editorCatalog } from "@/lib/studio/editor-catalog";
import { noteViewBody } from "@/lib/validations/answers";
import { answer, params, request, studioFixture } from "@/lib/testing/studio";
import { getContentStore } from "@/lib/working-copy/content-store";
import * as rename from "@/app/api/studio/phases/[slug]/rename/route";
import * as studioNote from "@/app/api/studio/notes/[id]/route";
import * as twin from "@/app/agents/twin/[...twin]/route";
import * as noteFormats from "@/app/agents/notes/[file]/route";
import * as llmsFull from "@/app/llms-full.txt/route";
import * as feed from "@/app/feed.xml/route";
import * as phaseFeed from "@/app/(public)/phases/[phase]/feed.xml/route";
import * as indexJson from "@/app/agents/index.json/route";
import * as indexMd from "@/app/agents/index.md/route";
import * as llmsTxt from "@/app/llms.txt/route";
import * as schemaFile from "@/app/agents/schema/[file]/route";
import * as searchJson from "@/app/agents/search.json/route";
import HistoryPage from "@/app/(public)/notes/[id]/history/page";
import { indexSchema, noteDocumentSchema, searchSchema } from "@/lib/agents/schemas";
import { schemaValidator } from "@/lib/agents/schema-validator";
import { commitWithGit } from "@/lib/testing/plain-git";
import { noteFile } from "@/lib/store/testing";
import HomePage, { generateMetadata as homeMetadata } from "@/app/(public)/page";
import NotePage from "@/app/(public)/notes/[id]/page";
import TagPage from "@/app/(public)/tags/[tag]/page";
import PhasePage from "@/app/(public)/phases/[phase]/page";
import SearchPage from "@/app/(public)/search/page";

/**
 * A renamed phase is shown by its new name wherever a person meets a phase, not only on its own
 * page: home's cards, table, groups and phase filter, a note's head, the tag, phase and search
 * pages, the home page's Markdown twin, the editor's phase picker, the agents' index entries, a
 * field diff of a note's phase, and search, which finds the phase's notes by its title (and no longer
 * by a title it had before). Its address and the name notes carry stay (docs/decisions/phase-rename.md).
 */

// Pages mark themselves dynamic with connection(), which needs Next's request scope; outside a server it only has to resolve.
vi.mock("next/server", async (original) => ({ ...(await original<typeof import("next/server")>()), connection: async () => undefined }));

const NAME = "agent operations";
const TITLE = "Agents in operation";
// AFN-009 and AFN-015 name the phase "agent operations".
const NOTE = "AFN-009";

let f: Awaited<ReturnType<typeof studioFixture>>;
beforeAll(async () => {
  f = await studioFixture();
  await getContentStore(); // seeds the content repository from content/
  const renamed = await rename
    .POST(request(f.author, "POST", "/api/studio/phases/agent-operations/rename", { name: TITLE }), params({ slug: "agent-operations" }))
    .then(answer);
  expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
});
afterAll(() => f.cleanup());

/** A page's HTML once every part of it has rendered (a note's sections render asynchronously), without React's text separators. */
async function html(page: ReactNode): Promise<string> {
  const stream = await renderToReadableStream(page);
  await stream.allReady;
  return (await new Response(stream).text()).replaceAll("<!-- -->", "");
}

type Search = Record<string, string>;
const home = async (search: Search) => html(await HomePage({ searchParams: Promise.resolve(search) }));
const phaseLink = `<a class="phase" href="/phases/agent-operations">Phase ${TITLE}</a>`;
/** Every "Phase …" a page shows, in its order. */
const phasesShown = (html: string) => [...html.matchAll(/Phase ([^<]+)</g)].map((m) => m[1]);

describe("the public pages show a renamed phase by its title", () => {
  it("home's cards and table link it by its address and name it by its title; its filter offers the title", async () => {
    for (const view of ["cards", "table"]) {
      const html = await home(view === "table" ? { view } : {});
      expect(html.split(phaseLink).length - 1, view).toBe(2);
      expect(phasesShown(html), view).not.toContain(NAME);
      expect(html).toContain(`<option value="agent-operations">Phase ${TITLE}</option>`);
    }
  });

  it("home grouped by phase heads the group with the title, and a phase filter's page is titled by it", async () => {
    const grouped = await home({ group: "phase", view: "table" });
    expect(grouped).toMatch(new RegExp(`<h3 id="group-agent-operations" class="phase-group__heading">Phase ${TITLE} <span class="count">2</span></h3>`));
    const filtered = await home({ phase: "agent-operations" });
    expect(filtered).toContain(`<h1>Phase ${TITLE}</h1>`);
    expect((await homeMetadata({ searchParams: Promise.resolve({ phase: "agent-operations" }) })).title).toBe(`Phase ${TITLE}`);
    const markdown = await twin.GET(
      new Request("http://studio.test/agents/twin/index.md?phase=agent-operations&group=phase", { headers: { host: "studio.test" } }),
      {
        params: Promise.resolve({ twin: ["index.md"] }),
      },
    );
    const text = await markdown.text();
    expect(text).toMatch(new RegExp(`^# Phase ${TITLE}$`, "m"));
    expect(text).toMatch(new RegExp(`^### Phase ${TITLE}$`, "m"));
    expect(text).not.toContain(`Phase ${NAME}`);
  });

  it("a note of the phase names it by its title in its head; the tag, phase and search pages' lists do too", async () => {
    const note = await html(await NotePage({ params: Promise.resolve({ id: NOTE }), searchParams: Promise.resolve({}) }));
    expect(note).toContain(phaseLink);
    const tag = await html(await TagPage({ params: Promise.resolve({ tag: "recovery-packet" }), searchParams: Promise.resolve({}) }));
    expect(tag).toContain(phaseLink);
    const phase = await html(await PhasePage({ params: Promise.resolve({ phase: "agent-operations" }), searchParams: Promise.resolve({}) }));
    expect(phase.split(phaseLink).length - 1).toBe(2);
    const search = await html(await SearchPage({ searchParams: Promise.resolve({}) }));
    expect(search).toContain(`<a href="/phases/agent-operations">Phase ${TITLE}</a>`);
    for (const html of [note, tag, phase, search]) expect(phasesShown(html)).not.toContain(NAME);
  });
});

describe("the feeds", () => {
  it("label a note's phase category with the title, its term still the phase's address; the phase's own feed is titled by it", async () => {
    const get = (url: string) => new Request(`http://studio.test${url}`, { headers: { host: "studio.test" } });
    const all = await (await feed.GET(get("/feed.xml"))).text();
    const category = `<category scheme="http://studio.test/phases/" term="agent-operations" label="${TITLE}"/>`;
    expect(all.split(category).length - 1).toBe(2);
    expect(all).not.toContain(`label="${NAME}"`);
    const own = await (await phaseFeed.GET(get("/phases/agent-operations/feed.xml"), { params: Promise.resolve({ phase: "agent-operations" }) })).text();
    expect(own).toMatch(new RegExp(`<title type="text">[^<]*: Phase ${TITLE}</title>`));
  });
});

describe("a note's agent formats", () => {
  const format = async (file: string) =>
    (
      await noteFormats.GET(new Request(`http://studio.test/agents/notes/${file}`, { headers: { host: "studio.test" } }), { params: Promise.resolve({ file }) })
    ).text();

  it("keep the name as `phase` and say the title beside it; a phase never renamed is as before", async () => {
    const line = `Phase: ${TITLE} (the note's phase field says "${NAME}")`;
    expect((await format(`${NOTE}.txt`)).split("\n")).toContain(line);
    const md = await format(`${NOTE}.md`);
    expect(md).toMatch(new RegExp(`^phase: ${NAME}$`, "m"));
    expect(md).toMatch(new RegExp(`^phase_title: ${TITLE}$`, "m"));
    expect(md).toMatch(/^# Read-only, added for agents \(remove commit, status_meaning, flags, limits, cite, phase_title before/m);
    const json = noteDocumentSchema.parse(JSON.parse(await format(`${NOTE}.json`)));
    expect(json).toMatchObject({ phase: NAME, phase_title: TITLE });
    const full = await (await llmsFull.GET(new Request("http://studio.test/llms-full.txt", { headers: { host: "studio.test" } }))).text();
    expect(full.split(line).length - 1).toBe(2); // AFN-009 and AFN-015

    // AFN-001's phase keeps its name: nothing is added.
    expect(await format("AFN-001.txt")).toMatch(/^Phase: [^(\n]+$/m);
    const plain = await format("AFN-001.md");
    expect(plain).not.toContain("phase_title");
    expect(plain).toMatch(/remove commit, status_meaning, flags, limits, cite before/);
  });
});

describe("the studio editor's phase picker", () => {
  it("shows the title and sends the name notes carry", async () => {
    const got = await studioNote.GET(request(f.author, "GET", `/api/studio/notes/${NOTE}`), params({ id: NOTE })).then(answer);
    expect(got.status).toBe(200);
    // Read as the browser reads it (lib/validations/answers.ts).
    const view = noteViewBody.parse(got.body);
    expect(view.fields.phase).toBe(NAME);
    expect(view.phaseTitles).toEqual({ [NAME]: TITLE });
    expect((await editorCatalog()).phaseTitles).toEqual({ [NAME]: TITLE });
    const picker = renderToStaticMarkup(
      createElement(PhaseField, {
        value: view.fields.phase,
        phases: view.phases,
        titles: view.phaseTitles,
        problems: [],
        readOnly: false,
        onChange: () => {},
        onBlur: () => {},
      }),
    );
    expect(picker).toContain(`<option value="${NAME}" selected="">Phase ${TITLE}</option>`);
    expect(picker).not.toContain("not a phase on main");
    expect(phasesShown(picker)).not.toContain(NAME);
  });
});

/** An agent route's answer as a reader gets it. */
const get = (url: string) => new Request(`http://studio.test${url}`, { headers: { host: "studio.test" } });

describe("the agents' compact index", () => {
  it("gives each entry of a renamed phase its `phase_title` beside `phase`, valid by the published schema; a phase never renamed gets none", async () => {
    const doc = indexSchema.parse(await (await indexJson.GET(get("/agents/index.json"))).json());
    const schema = await (await schemaFile.GET(get("/agents/schema/index.json"), { params: Promise.resolve({ file: "index.json" }) })).json();
    expect(schemaValidator(schema)(doc)).toEqual([]);
    const renamed = doc.entries.filter((e) => e.phase === NAME);
    expect(renamed.map((e) => e.id).sort()).toEqual(["AFN-009", "AFN-015"]);
    for (const entry of renamed) expect(entry.phase_title).toBe(TITLE);
    const other = doc.entries.find((e) => e.id === "AFN-001")!;
    expect(other).not.toHaveProperty("phase_title");
  });

  it("/agents/index.md and /llms.txt name the phase by its title, where they name it at all", async () => {
    const md = await (await indexMd.GET(get("/agents/index.md"))).text();
    const llms = await (await llmsTxt.GET(get("/llms.txt"))).text();
    for (const text of [md, llms]) expect(text).not.toContain(`Phase ${NAME}`);
    expect(llms).toContain(`[Phase ${TITLE}](http://studio.test/phases/agent-operations.md)`);
  });
});

describe("a field diff of a note's phase", () => {
  // A note of another phase, moved into the renamed one by plain git (a hypothesis: main accepts it).
  const ID = "AFN-090";
  beforeAll(() => {
    commitWithGit(f.gitdir, { [`notes/${ID}.md`]: noteFile(ID, undefined, { status: "hypothesis", phase: "6 architecture" }) });
    commitWithGit(f.gitdir, { [`notes/${ID}.md`]: noteFile(ID, undefined, { status: "hypothesis", phase: NAME }) });
  });

  it("shows the phase's title with the name the note carries, on the history page and its Markdown twin", async () => {
    const said = `${TITLE} (the note's phase field says "${NAME}")`;
    const page = await html(await HistoryPage({ params: Promise.resolve({ id: ID }) }));
    // The page's words as a reader sees them after the change: no struck-out text, no screen-reader marks.
    const after = page
      .replace(/<del>.*?<\/del>|<span class="visually-hidden">[^<]*<\/span>|<[^>]+>/g, "")
      .replaceAll("&quot;", '"')
      .replaceAll("&#x27;", "'");
    expect(after).toContain(said);
    const twinText = await (
      await twin.GET(get(`/agents/twin/notes/${ID}/history.md`), { params: Promise.resolve({ twin: ["notes", ID, "history.md"] }) })
    ).text();
    const phaseDiff = twinText.split("### Phase changed")[1]?.split("\n\n")[1] ?? "";
    expect(phaseDiff.replace(/\{\+|\+\}|\[-[^\]]*-\]/g, "")).toBe(said);
  });
});

describe("search", () => {
  const search = async (q: string) => {
    const answer = await searchJson.GET(get(`/agents/search.json?q=${encodeURIComponent(q)}&limit=10`));
    expect(answer.status).toBe(200);
    return searchSchema.parse(await answer.json()).results;
  };
  const renameTo = async (name: string) => {
    const renamed = await rename
      .POST(request(f.author, "POST", "/api/studio/phases/agent-operations/rename", { name }), params({ slug: "agent-operations" }))
      .then(answer);
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
  };
  // The phase's notes by now: the seed's two and the one moved into it above.
  const PHASE_NOTES = ["AFN-009", "AFN-015", "AFN-090"];

  it("finds a renamed phase's notes by its title, first, matched in their phase; after another rename, by the new title and not the old", async () => {
    await renameTo("Runbook custody");
    const found = await search("runbook custody");
    expect(
      found
        .slice(0, 3)
        .map((r) => r.id)
        .sort(),
    ).toEqual(PHASE_NOTES);
    for (const r of found.slice(0, 3)) {
      expect(r).toMatchObject({ field: "phase", phase: NAME, phase_title: "Runbook custody" });
      expect(r.passage).toBe(`Phase Runbook custody (${NAME})`);
    }
    // One word of it finds them too.
    expect((await search("custody")).map((r) => r.id).sort()).toEqual(PHASE_NOTES);

    await renameTo("Pilot ledger");
    expect(await search("runbook custody")).toEqual([]);
    expect(
      (await search("pilot ledger"))
        .slice(0, 3)
        .map((r) => r.id)
        .sort(),
    ).toEqual(PHASE_NOTES);
    // The public search page too; and the name notes carry still finds them.
    const page = await html(await SearchPage({ searchParams: Promise.resolve({ q: "pilot ledger" }) }));
    for (const id of PHASE_NOTES) expect(page).toContain(`href="/notes/${id}"`);
    expect(
      (await search(NAME))
        .slice(0, 3)
        .map((r) => r.id)
        .sort(),
    ).toEqual(PHASE_NOTES);
  });
});
