import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NoteSection } from "@/components/note-section";
import { NextRequest } from "next/server";
import { pageCacheUrl } from "@/lib/http/page-query";
import { pinnedPath } from "@/lib/http/pinned-path";
import { parseNote, serializeNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";
import { commitWithGit } from "@/lib/testing/plain-git";

/**
 * Stable citations: `?rev=<commit>` answers a note as published at that commit of main after main
 * has changed it, 404 for a commit where it was not published or that is not main's (a draft's);
 * every section has a stable anchor; the page cache keys on rev.
 */

const SITE = "http://notes.test:3000";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-pinned-"));
process.env.DATA_DIR = dataDir;
process.env.SITE_URL = SITE;
const gitdir = path.join(dataDir, "content.git");
const head = (ref = "main") => execFileSync("git", ["--git-dir", gitdir, "rev-parse", ref]).toString().trim();

type Handler = (request: Request, ctx: { params: Promise<{ file: string }> }) => Promise<Response>;
let note: Handler;
let capsule: Handler;
const get = (handler: Handler, url: string, file: string) =>
  handler(new Request(`${SITE}${url}`, { headers: { host: "notes.test:3000" } }), { params: Promise.resolve({ file }) });

const seed = (id: string): Note => {
  const parsed = parseNote(fs.readFileSync(path.resolve(__dirname, "../../content/notes", `${id}.md`), "utf8"));
  if (!parsed.ok) throw new Error(id);
  return parsed.note;
};
let before = "";
let after = "";

beforeAll(async () => {
  note = (await import("@/app/agents/notes/[file]/route")).GET;
  capsule = (await import("@/app/agents/capsules/[file]/route")).GET;
  await get(note, "/notes/AFN-021.md", "AFN-021.md"); // seeds the repository
  before = head();
  // A hypothesis: plain git may change it (an edit of a verified note needs an approval, and a commit
  // the rules refuse is not served), and the new note is one too.
  const original = seed("AFN-021");
  commitWithGit(gitdir, {
    "notes/AFN-021.md": serializeNote({ ...original, sections: { ...original.sections, decision: "The decision as main says it now." } }),
    "notes/AFN-099.md": serializeNote({ ...original, id: "AFN-099", order: 99, core: undefined }),
  });
  after = head();
  // A draft revision on its own branch: never a published commit.
  commitWithGit(gitdir, { "notes/AFN-021.md": serializeNote({ ...original, status: "draft", title: "Draft title" }) }, "drafts/AFN-021");
});

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("?rev=<commit> on a note's twins", () => {
  it("answers the text of that commit after main changed the note, in every format", async () => {
    const live = await (await get(note, "/notes/AFN-021.md", "AFN-021.md")).text();
    expect(live).toContain("The decision as main says it now.");
    const pinned = await get(note, `/notes/AFN-021.md?rev=${before}`, "AFN-021.md");
    expect(pinned.status).toBe(200);
    const md = await pinned.text();
    expect(md).toContain(seed("AFN-021").sections.decision);
    expect(md).not.toContain("The decision as main says it now.");
    expect(md).toContain(`commit: ${before}`);
    expect(md).toContain(`pinned: ${SITE}/notes/AFN-021?rev=${before}`);
    expect(md).toContain("#decision, #invariant, #rejected-shortcut, #evidence, #claim-boundary, #notes");
    const json = await (await get(note, `/notes/AFN-021.json?rev=${before.slice(0, 10)}`, "AFN-021.json")).json();
    expect(json.sections.decision).toBe(seed("AFN-021").sections.decision);
    expect(json.cite.sections.claimBoundary).toBe(`${SITE}/notes/AFN-021?rev=${before}#claim-boundary`);
    const txt = await (await get(note, `/notes/AFN-021.txt?rev=${before}`, "AFN-021.txt")).text();
    expect(txt).toContain(`Pinned: ${SITE}/notes/AFN-021?rev=${before}`);
  });

  it("answers 404 for a commit where the note was not published, a draft's commit, and a rev that is not a commit", async () => {
    const notYet = await get(note, `/notes/AFN-099.md?rev=${before}`, "AFN-099.md");
    expect(notYet.status).toBe(404);
    expect(await notYet.text()).toMatch(/AFN-099 was not published at/);
    expect((await get(note, `/notes/AFN-099.md?rev=${after}`, "AFN-099.md")).status).toBe(200);
    const draft = head("drafts/AFN-021");
    expect((await get(note, `/notes/AFN-021.md?rev=${draft}`, "AFN-021.md")).status).toBe(404);
    expect((await get(note, `/notes/AFN-021.json?rev=${draft.slice(0, 8)}`, "AFN-021.json")).status).toBe(404);
    expect((await get(note, "/notes/AFN-021.md?rev=main", "AFN-021.md")).status).toBe(404);
    expect((await get(note, `/notes/AFN-021.md?rev=${"0".repeat(40)}`, "AFN-021.md")).status).toBe(404);
  });

  it("gives live and pinned URLs in the capsule, and the pinned one answers", async () => {
    const c = await (await get(capsule, "/agents/capsules/AFN-021.json", "AFN-021.json")).json();
    expect(c.cite).toEqual({ live: `${SITE}/notes/AFN-021`, pinned: `${SITE}/notes/AFN-021?rev=${after}` });
    expect(c.evidence.url).toBe(`${SITE}/notes/AFN-021#evidence`);
    const rev = new URL(c.cite.pinned).searchParams.get("rev") ?? "";
    expect((await get(note, `/notes/AFN-021.md?rev=${rev}`, "AFN-021.md")).status).toBe(200);
  });
});

describe("the path form /notes/<id>@<commit>", () => {
  const at = (url: string, method = "GET") => pinnedPath(new NextRequest(`${SITE}${url}`, { method, headers: { host: "notes.test:3000" } }));
  const location = (r: Response | null) => {
    const to = new URL(r?.headers.get("location") ?? "", SITE);
    return `${to.pathname}${to.search}`;
  };

  it("redirects (308) a unique prefix of a commit of main to the canonical ?rev= URL of the full id, which answers that revision", async () => {
    const page = await at(`/notes/AFN-021@${before.slice(0, 7)}`);
    expect(page?.status).toBe(308);
    expect(location(page)).toBe(`/notes/AFN-021?rev=${before}`);
    for (const format of ["md", "txt", "json"]) {
      const twin = await at(`/notes/AFN-021@${before.slice(0, 10)}.${format}`);
      expect(twin?.status, format).toBe(308);
      expect(location(twin), format).toBe(`/notes/AFN-021.${format}?rev=${before}`);
    }
    expect(location(await at(`/notes/AFN-021@${before}.md`, "HEAD"))).toBe(`/notes/AFN-021.md?rev=${before}`);
    const followed = await get(note, location(await at(`/notes/AFN-021@${before.slice(0, 7)}.md`)), "AFN-021.md");
    expect(followed.status).toBe(200);
    expect(await followed.text()).toContain(seed("AFN-021").sections.decision);
  });

  it("answers 404 saying why for a draft's commit, a commit main never had, and what is not a commit prefix; never the draft", async () => {
    const draft = head("drafts/AFN-021");
    for (const [url, words] of [
      [`/notes/AFN-021@${draft.slice(0, 8)}`, `no commit main has been at starts with ${draft.slice(0, 8)}`],
      [`/notes/AFN-021@${draft}.md`, `main has never been at commit ${draft}`],
      ["/notes/AFN-021@main.txt", `"main" is not a commit: give 7 to 40 hex digits`],
      [`/notes/AFN-021@${before.slice(0, 6)}`, `"${before.slice(0, 6)}" is not a commit`],
      [`/notes/AFN-021@${before.toUpperCase().slice(0, 8)}`, "is not a commit"],
    ] as const) {
      const answer = await at(url);
      expect(answer?.status, url).toBe(404);
      const text = (await answer?.text()) ?? "";
      expect(text, url).toContain(words);
      expect(text, url).toContain("/notes/AFN-021/history");
      expect(text, url).not.toContain("Draft title");
    }
    const json = await at(`/notes/AFN-021@${draft.slice(0, 8)}.json`);
    expect(json?.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await json?.json()).toMatchObject({ status: 404, error: expect.stringContaining("no commit main has been at") });
  });

  it("leaves every other path and method to the app", async () => {
    for (const url of ["/notes/AFN-021", "/notes/AFN-021.md", `/notes/AFN-021?rev=${before}`, "/notes/AFN-021/history", `/tags/x@${before}`])
      expect(await at(url), url).toBeNull();
    expect(await at(`/notes/AFN-021@${before}`, "POST")).toBeNull();
  });

  it("a published note's 404 at a commit where it was not published says so (the redirect's target)", async () => {
    const notYet = await get(note, location(await at(`/notes/AFN-099@${before.slice(0, 7)}.md`)), "AFN-099.md");
    expect(notYet.status).toBe(404);
    expect(await notYet.text()).toContain(`AFN-099 was not published at commit ${before.slice(0, 12)}`);
  });
});

describe("a commit the rules refuse", () => {
  it("is neither served nor pinned: an unapproved edit of a verified note answers 404 at its rev", async () => {
    const verified = seed("AFN-016");
    commitWithGit(gitdir, { "notes/AFN-016.md": serializeNote({ ...verified, sections: { ...verified.sections, decision: "Changed without an approval." } }) });
    const refused = head();
    expect(await (await get(note, "/notes/AFN-016.md", "AFN-016.md")).text()).not.toContain("Changed without an approval.");
    expect((await get(note, `/notes/AFN-016.md?rev=${refused}`, "AFN-016.md")).status).toBe(404);
    expect((await get(note, `/notes/AFN-016.md?rev=${after}`, "AFN-016.md")).status).toBe(200);
  });
});

describe("stable anchors and the page cache", () => {
  it("puts each section's anchor on the page's section", async () => {
    const html = renderToStaticMarkup(await NoteSection({ id: "claimBoundary", heading: "Claim boundary", markdown: "Only this.", linkable: new Set() }));
    expect(html).toMatch(/<section class="note-section" id="claim-boundary"/);
  });

  it("keys a note page and its twins on rev, and on nothing else", () => {
    expect(pageCacheUrl("/notes/AFN-021", new URLSearchParams(`q=x&rev=${before}`))).toBe(`/notes/AFN-021?rev=${before}`);
    expect(pageCacheUrl("/notes/AFN-021.md", new URLSearchParams(`rev=${before}`))).toBe(`/notes/AFN-021.md?rev=${before}`);
    expect(pageCacheUrl("/notes/AFN-021", new URLSearchParams("q=x"))).toBe("/notes/AFN-021");
  });
});
