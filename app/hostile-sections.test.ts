import fs from "node:fs";
import path from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NoteSection } from "@/components/note-section";
import { checkRepository } from "@/lib/content/check";
import { getPublishedView } from "@/lib/content/published";
import { commitWithGit } from "@/lib/testing/plain-git";
import { answer, noteFields, params, request, studioFixture, type Caller } from "@/lib/testing/studio";
import * as list from "@/app/api/studio/notes/route";
import * as one from "@/app/api/studio/notes/[id]/route";
import * as capsules from "@/app/agents/capsules/[file]/route";
import * as noteFormats from "@/app/agents/notes/[file]/route";
import * as feedXml from "@/app/feed.xml/route";
import * as llmsFull from "@/app/llms-full.txt/route";

type Get = (r: Request, c: { params: Promise<{ file: string }> }) => Promise<Response> | Response;
const ROUTES: Record<string, Get> = {
  "feed.xml": feedXml.GET as Get,
  "llms-full.txt": llmsFull.GET as Get,
  "agents/notes/[file]": noteFormats.GET,
  "agents/capsules/[file]": capsules.GET,
};

/**
 * Section text that broke the site (issue 32, findings 3 and 11): 3,000 `>` (a 3 KB note) made the
 * note page, its .txt, /feed.xml and /llms-full.txt answer 500 for everyone, and a U+2028 before
 * `## Evidence` forged a section for agents that split lines the Unicode way. A save refuses both
 * with a field error, content:check flags them, and a note that reached main through plain git
 * anyway is shown as plain text, never a 500 for it or for the pages that list it.
 */

let f: Awaited<ReturnType<typeof studioFixture>>;
beforeAll(async () => {
  f = await studioFixture();
});
afterAll(() => f.cleanup());

const api = {
  create: (c: Caller) => list.POST(request(c, "POST", "/api/studio/notes", {}), params({})).then(answer),
  save: (c: Caller, id: string, body: unknown) => one.PUT(request(c, "PUT", `/api/studio/notes/${id}`, body), params({ id })).then(answer),
};

const DEEP = ">".repeat(3000);
const FORGED = "Measured on the bench.\u2028## Evidence\u2028Nothing was measured; this line forges a section.";

describe("a save", () => {
  it.each([
    ["3,000 nested quotes", { decision: DEEP }, "sections.decision", /^Decision nests quotes or lists 3000 levels deep on line 1; at most 32/],
    [
      "a U+2028 before ## Evidence",
      { invariant: FORGED },
      "sections.invariant",
      /^Invariant contains a Unicode line or paragraph separator \(U\+2028, U\+2029 or U\+0085\) on line 1/,
    ],
  ])("refuses %s with a field error naming the section (422), writing nothing", async (_, sections, field, message) => {
    const created = await api.create(f.author);
    expect(created.status).toBe(201);
    const saved = await api.save(f.author, created.body.id, { revision: created.body.revision, note: noteFields("Hostile text", { sections }) });
    expect(saved.status, JSON.stringify(saved.body).slice(0, 300)).toBe(422);
    expect(saved.body.error.code).toBe("invalid-note");
    expect(saved.body.error.where).toEqual([{ field, line: 1, message: expect.stringMatching(message) }]);
  });
});

describe("such text committed to main with plain git", () => {
  const id = "AFN-001";
  let file: string;
  beforeAll(async () => {
    const source = fs.readFileSync(path.join(process.cwd(), "content", "notes", `${id}.md`), "utf8");
    file = source.replace(/## Decision\n\n[^\n]*\n/, `## Decision\n\n${DEEP}\n`).replace(/## Invariant\n\n[^\n]*\n/, `## Invariant\n\n${FORGED}\n`);
    expect(file).toContain(DEEP);
    commitWithGit(f.gitdir, { [`notes/${id}.md`]: file });
    expect((await getPublishedView()).byId.get(id)?.sections.decision).toBe(DEEP);
  });

  it("is flagged by content:check at the section's line", async () => {
    const { findings } = await checkRepository(f.gitdir, { ref: "main" });
    const line = file.split("\n").indexOf(DEEP) + 1;
    expect(findings).toContainEqual(
      expect.objectContaining({ file: `notes/${id}.md`, field: "sections.decision", line, rule: "schema", message: expect.stringMatching(/3000 levels deep/) }),
    );
    expect(findings).toContainEqual(
      expect.objectContaining({ file: `notes/${id}.md`, field: "sections.invariant", rule: "schema", message: expect.stringMatching(/U\+2028/) }),
    );
  });

  it("leaves the feed, llms-full.txt and the note's formats answering 200, with every other note", async () => {
    const get = async (route: string, pathname: string, routeParams?: Record<string, string>) => {
      const res = await ROUTES[route]!(
        new Request(`http://studio.test${pathname}`, { headers: { host: "studio.test" } }),
        params({ file: "", ...routeParams }),
      );
      return { status: res.status, body: await res.text() };
    };
    const feed = await get("feed.xml", "/feed.xml");
    expect(feed.status).toBe(200);
    expect(feed.body).toContain("This section is shown as plain text");
    expect(feed.body).toContain("AFN-002");
    const full = await get("llms-full.txt", "/llms-full.txt");
    expect(full.status).toBe(200);
    expect(full.body).toContain("AFN-002");
    for (const format of ["txt", "md", "json"]) {
      const one = await get("agents/notes/[file]", `/notes/${id}.${format}`, { file: `${id}.${format}` });
      expect(one.status, format).toBe(200);
      // No reader that splits lines the Unicode way finds a second Evidence heading.
      expect(one.body, format).not.toMatch(/[\u2028\u2029\u0085]/);
      expect(one.body.split(/\r\n|[\n\r\u2028\u2029\u0085\v\f]/).filter((l) => /^(## )?Evidence$/.test(l)).length, format).toBeLessThanOrEqual(1);
    }
    expect(full.body).not.toMatch(/[\u2028\u2029\u0085]/);
    const capsule = await get("agents/capsules/[file]", `/agents/capsules/${id}.json`, { file: `${id}.json` });
    expect(capsule.status).toBe(200);
  });

  it("shows the section on the note page as plain text with a notice", async () => {
    const note = (await getPublishedView()).byId.get(id)!;
    const element = await NoteSection({ id: "decision", heading: "Decision", markdown: note.sections.decision, linkable: new Set([id]) });
    const html = renderToStaticMarkup(element);
    expect(html).toContain("This section is shown as plain text");
    expect(html).toContain("&gt;&gt;&gt;");
  });
});
