import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answer, noteFields, params, request, studioFixture, type Caller, type Json } from "@/lib/testing/studio";
import * as list from "./route";
import * as one from "./[id]/route";
import * as transitions from "./[id]/transitions/route";
import * as publish from "./[id]/publish/route";
import * as verdicts from "./[id]/verdicts/route";

/**
 * The studio API through its route handlers, against a real content repository: who may do what,
 * what each refusal says and where, and what ends up in git.
 */

let f: Awaited<ReturnType<typeof studioFixture>>;
beforeAll(async () => {
  f = await studioFixture();
});
afterAll(() => f.cleanup());

const git = (...args: string[]) => execFileSync("git", ["--git-dir", f.gitdir, ...args], { encoding: "utf8" }).trim();

const api = {
  list: (c: Caller) => list.GET(request(c, "GET", "/api/studio/notes"), params({})).then(answer),
  create: (c: Caller, body: unknown = {}) => list.POST(request(c, "POST", "/api/studio/notes", body), params({})).then(answer),
  read: (c: Caller, id: string) => one.GET(request(c, "GET", `/api/studio/notes/${id}`), params({ id })).then(answer),
  save: (c: Caller, id: string, body: unknown) => one.PUT(request(c, "PUT", `/api/studio/notes/${id}`, body), params({ id })).then(answer),
  transition: (c: Caller, id: string, body: unknown) =>
    transitions.POST(request(c, "POST", `/api/studio/notes/${id}/transitions`, body), params({ id })).then(answer),
  publish: (c: Caller, id: string, body: unknown) => publish.POST(request(c, "POST", `/api/studio/notes/${id}/publish`, body), params({ id })).then(answer),
};

const filled = (title: string, extra: Partial<Json> = {}) => noteFields(title, { related: ["AFN-016"], ...extra });

async function newDraft(title: string, extra: Partial<Json> = {}): Promise<{ id: string; revision: string }> {
  const created = await api.create(f.author);
  expect(created.status).toBe(201);
  const saved = await api.save(f.author, created.body.id, { revision: created.body.revision, note: filled(title, extra) });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return { id: created.body.id, revision: saved.body.revision };
}

describe("who may do what", () => {
  let id: string;
  let revision: string;
  beforeAll(async () => {
    ({ id, revision } = await newDraft("Matrix note"));
  });

  // Mutations use a fresh note or a stale revision where success would change what later rows see.
  const cases: { caller: () => Caller; expect: Record<string, number> }[] = [
    { caller: () => f.anonymous, expect: { list: 401, create: 401, read: 404, save: 401, transition: 401, publish: 401 } },
    { caller: () => f.revokedToken, expect: { list: 401, create: 401, read: 401, save: 401, transition: 401, publish: 401 } },
    { caller: () => f.reviewer, expect: { list: 200, create: 403, read: 200, save: 403, transition: 403, publish: 403 } },
    { caller: () => f.reviewerToken, expect: { list: 200, create: 403, read: 200, save: 403, transition: 403, publish: 403 } },
    { caller: () => f.author, expect: { list: 200, create: 201, read: 200, save: 200, transition: 422, publish: 422 } },
    { caller: () => f.authorToken, expect: { list: 200, create: 201, read: 200, save: 200, transition: 422, publish: 422 } },
  ];

  for (const row of cases) {
    it(`answers ${Object.entries(row.expect)
      .map(([a, s]) => `${a} ${s}`)
      .join(", ")} to ${row.expect.create === 401 ? "an unauthenticated caller" : "this caller"}`, async () => {
      const c = row.caller();
      const current = (await api.read(f.author, id)).body.revision as string;
      const got = {
        list: (await api.list(c)).status,
        create: (await api.create(c)).status,
        read: (await api.read(c, id)).status,
        save: (await api.save(c, id, { revision: current, note: filled(`Matrix note by ${c.label}`) })).status,
        // Refused by the status machine (no approval) for an author: reaching the machine is the point.
        transition: (await api.transition(c, id, { to: "verified-checkpoint", revision: (await api.read(f.author, id)).body.revision })).status,
        publish: (await api.publish(c, id, { revision: (await api.read(f.author, id)).body.revision })).status,
      };
      expect({ caller: c.label, ...got }).toEqual({ caller: c.label, ...row.expect });
    });
  }

  it("says why, in the body, for 401, 403 and the anonymous 404", async () => {
    expect((await api.save(f.anonymous, id, { revision, note: filled("x") })).body.error).toMatchObject({
      status: 401,
      code: "unauthenticated",
      message: expect.stringMatching(/sign in, or send Authorization: Bearer/),
    });
    expect((await api.save(f.revokedToken, id, { revision, note: filled("x") })).body.error).toMatchObject({
      code: "bad-token",
      message: expect.stringMatching(/unknown or has been revoked/),
    });
    expect((await api.publish(f.reviewer, id, { revision })).body.error).toMatchObject({
      status: 403,
      message: "only authors may do this; rita is signed in as a reviewer",
    });
    const hidden = await api.read(f.anonymous, id);
    expect(hidden.body).toEqual({ error: { status: 404, code: "not-found", message: "there is nothing at this address" } });
    expect(JSON.stringify(hidden.body)).not.toContain("Matrix");
  });

  it("refuses a garbled Authorization header instead of treating it as anonymous", async () => {
    expect((await api.list({ label: "basic", headers: { authorization: "Basic YWRhOnB3" } })).status).toBe(401);
  });
});

describe("new note", () => {
  it("allocates the next free id after main and every draft branch, and never the same id twice", async () => {
    const before = git("for-each-ref", "--format=%(refname)", "refs/heads/drafts/").split("\n").filter(Boolean);
    const results = await Promise.all(Array.from({ length: 8 }, () => api.create(f.author)));
    const ids = results.map((r) => r.body.id as string);
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(new Set(ids).size).toBe(8);
    const numbers = ids.map((id) => Number(id.slice(4))).sort((a, b) => a - b);
    const highestBefore = Math.max(21, ...before.map((r) => Number(r.slice(-3))));
    expect(numbers).toEqual(Array.from({ length: 8 }, (_, i) => highestBefore + 1 + i));
    for (const r of results) expect(r.body).toMatchObject({ source: "new", status: "draft", note: null });
  });

  it("can be created with its fields in one request, validated like a save", async () => {
    const created = await api.create(f.authorToken, { note: filled("Created with fields") });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ source: "draft", fields: { title: "Created with fields" } });
    const refused = await api.create(f.authorToken, { note: { title: "" } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.where).toEqual(expect.arrayContaining([{ field: "title", message: "title is empty" }]));
  });

  it("claims the id on the first save: notes created with their content at once get distinct ids, and a refused one claims none", async () => {
    const before = git("for-each-ref", "--format=%(refname)", "refs/heads/drafts/").split("\n").filter(Boolean);
    const refused = await api.create(f.author, { note: { ...filled("Refused first save"), phase: "no such phase" } });
    expect(refused.status).toBe(422);
    expect(git("for-each-ref", "--format=%(refname)", "refs/heads/drafts/").split("\n").filter(Boolean)).toEqual(before);

    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => api.create(f.author, { note: filled(`First save ${i}`) })));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    const ids = results.map((r) => r.body.id as string);
    expect(new Set(ids).size).toBe(6);
    for (const [i, r] of results.entries()) {
      // Each branch starts with the note's own first commit, holding the content it was created with.
      expect(git("rev-parse", `refs/heads/drafts/${ids[i]}`)).toBe(r.body.revision);
      expect(git("show", `refs/heads/drafts/${ids[i]}:notes/${ids[i]}.md`)).toContain(`First save ${i}`);
    }
  });
});

describe("saving a draft", () => {
  it("commits as the signed-in person with a message naming what changed", async () => {
    const { id, revision } = await newDraft("Authored note");
    const next = filled("Authored note", { sections: { ...filled("").sections, evidence: "- a kernel trace with no masked loads" } });
    const saved = await api.save(f.secondAuthor, id, { revision, note: next });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ saved: true, source: "draft", lastChange: { author: { name: "grace", email: "grace@users.field-notes.invalid" } } });
    expect(git("log", "-1", "--format=%an <%ae>|%s", `refs/heads/drafts/${id}`)).toBe(`grace <grace@users.field-notes.invalid>|${id}: edit Evidence`);
    expect(git("log", "--format=%an", `refs/heads/drafts/${id}`, "--", `notes/${id}.md`).split("\n")).toEqual(["grace", "ada"]);
    expect(saved.body.revisionAuthors).toEqual(["grace", "ada"]);
  });

  it("answers an unchanged save without a commit", async () => {
    const { id, revision } = await newDraft("Unchanged note");
    const again = await api.save(f.author, id, { revision, note: filled("Unchanged note") });
    expect(again.body).toMatchObject({ saved: false, revision });
  });

  it("refuses an invalid note with messages at each field (422), writing nothing", async () => {
    const { id, revision } = await newDraft("Valid first");
    const bad = filled("", {
      summary: "two\nlines",
      tags: ["a", "A"],
      related: ["nope"],
      core: { rank: 0, label: "" },
      sections: { ...filled("").sections, decision: "## Heading" },
    });
    const { status, body } = await api.save(f.author, id, { revision, note: bad });
    expect(status).toBe(422);
    expect(body.error.code).toBe("invalid-note");
    const fields = body.error.where.map((w: Json) => w.field);
    expect(fields).toEqual(expect.arrayContaining(["title", "summary", "tags", "related", "core.rank", "core.label", "sections.decision"]));
    expect(body.error.where).toContainEqual({ field: "title", message: "title is empty" });
    expect(git("rev-parse", `refs/heads/drafts/${id}`)).toBe(revision);
  });

  it("refuses archive-policy findings at the field and line (422)", async () => {
    const { id, revision } = await newDraft("Policy note");
    const leaky = filled("Policy note", { sections: { ...filled("").sections, evidence: "- trace captured\n- see /home/someone/x/trace.json" } });
    const { status, body } = await api.save(f.author, id, { revision, note: leaky });
    expect(status).toBe(422);
    expect(body.error.code).toBe("policy");
    expect(body.error.where).toEqual([
      expect.objectContaining({ field: "sections.evidence", line: 2, rule: "local-path", excerpt: expect.stringContaining("/home/someone/x") }),
    ]);
    expect(git("rev-parse", `refs/heads/drafts/${id}`)).toBe(revision);
  });

  it("refuses a Mermaid diagram too large to draw, naming the section, the line and the limit (422), writing nothing", async () => {
    const { id, revision } = await newDraft("Diagram note");
    const fan = `${Array.from({ length: 30 }, (_, i) => `a${i}`).join(" & ")} --> ${Array.from({ length: 30 }, (_, i) => `b${i}`).join(" & ")}`;
    const evidence = `Who reads what:\n\n\`\`\`mermaid\nflowchart LR\n${fan}\n\`\`\``;
    const { status, body } = await api.save(f.author, id, { revision, note: filled("Diagram note", { sections: { ...filled("").sections, evidence } }) });
    expect(status).toBe(422);
    expect(body.error.code).toBe("write-refused");
    expect(body.error.where).toEqual([
      {
        field: "sections.evidence",
        line: 3,
        message:
          "Evidence: the Mermaid diagram on line 3 is too large to draw: it draws 900 links, more than the 120 a page draws (an arrow between & groups draws a link from every node of one to every node of the other); split it into smaller diagrams",
      },
    ]);
    expect(git("rev-parse", `refs/heads/drafts/${id}`)).toBe(revision);
    // The same diagram in pieces a page draws is saved.
    const pieces = `\`\`\`mermaid\nflowchart LR\na0 & a1 & a2 --> b0 & b1\n\`\`\``;
    const saved = await api.save(f.author, id, { revision, note: filled("Diagram note", { sections: { ...filled("").sections, evidence: pieces } }) });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  });

  it("answers a stale save with 409 and both versions, and keeps theirs", async () => {
    const { id, revision } = await newDraft("Contested note");
    const theirs = filled("Contested note", { sections: { ...filled("").sections, decision: "Their decision." } });
    const first = await api.save(f.secondAuthor, id, { revision, note: theirs });
    expect(first.status).toBe(200);
    const mine = filled("Contested note", { sections: { ...filled("").sections, evidence: "My evidence." } });
    const { status, body } = await api.save(f.author, id, { revision, note: mine });
    expect(status).toBe(409);
    expect(body.error).toMatchObject({
      code: "stale-revision",
      message: expect.stringMatching(/changed since revision \w{7} was opened: .*last change by grace/),
    });
    expect(body.theirs).toMatchObject({ revision: first.body.revision, fields: { sections: { decision: "Their decision.", evidence: "" } } });
    expect(body.yours.sections.evidence).toBe("My evidence.");
    expect(body.base.sections).toMatchObject({ decision: "Skip masked blocks in the kernel.", evidence: "" });
    expect(git("rev-parse", `refs/heads/drafts/${id}`)).toBe(first.body.revision);
  });

  it("refuses a status change sent with a save (a forged promotion) and read-only fields", async () => {
    const { id, revision } = await newDraft("Forged note");
    const forged = await api.save(f.author, id, { revision, note: { ...filled("Forged note"), status: "verified-checkpoint" } });
    expect(forged.status).toBe(422);
    expect(forged.body.error.where).toEqual([
      { field: "status", message: expect.stringMatching(/status changes only through POST \/api\/studio\/notes\/.*\/transitions/) },
    ]);
    const order = await api.save(f.author, id, { revision, note: { ...filled("Forged note"), superseded_by: "AFN-001" } });
    expect(order.status).toBe(422);
    expect(git("rev-parse", `refs/heads/drafts/${id}`)).toBe(revision);
    expect(git("show", `refs/heads/drafts/${id}:notes/${id}.md`)).toContain("status: draft");
  });

  it("answers bad requests with 400 and where, and unknown notes with 404", async () => {
    const { id, revision } = await newDraft("Request shapes");
    const badJson = await api.save(f.author, id, "{not json");
    expect(badJson).toMatchObject({ status: 400, body: { error: { code: "bad-json" } } });
    const unknownKey = await api.save(f.author, id, { revision, note: { ...filled("x"), colour: "red" } });
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.body.error.where[0].field).toBe("note");
    const noRevision = await api.save(f.author, id, { note: filled("x") });
    expect(noRevision.body.error.where).toEqual([{ field: "revision", message: expect.stringMatching(/40-character commit id/) }]);
    expect((await api.read(f.author, "AFN-999")).status).toBe(404);
    expect((await api.read(f.author, "../../etc")).status).toBe(404);
    expect((await api.read(f.author, "%E0%A4%A")).status).toBe(404);
    const huge = await api.save(f.author, id, { revision, note: filled("x", { sections: { ...filled("").sections, notes: "x".repeat(2_100_000) } }) });
    expect(huge).toMatchObject({ status: 413, body: { error: { code: "too-large" } } });
    expect((await api.transition(f.author, id, { to: "famous", revision })).status).toBe(400);
  });
});

describe("status changes", () => {
  it("refuses a proposal whose invariant or claim boundary is empty, with every reason (422)", async () => {
    const { id, revision } = await newDraft("Incomplete", { sections: { ...filled("").sections, invariant: "", claimBoundary: "  " } });
    const { status, body } = await api.transition(f.author, id, { to: "hypothesis", revision });
    expect(status).toBe(422);
    expect(body.error.code).toBe("transition-refused");
    expect(body.error.unmet).toEqual(["the Invariant section is empty", "the Claim boundary section is empty"]);
  });

  it("checks the stored draft, so a forged jump to verified is refused with the machine's reasons", async () => {
    const { id, revision } = await newDraft("Jumper");
    const jump = await api.transition(f.author, id, { to: "verified-checkpoint", revision });
    expect(jump.status).toBe(422);
    expect(jump.body.error.unmet.join(" ")).toMatch(/propose it as a hypothesis first/);
    const byReviewer = await api.transition(f.reviewer, id, { to: "hypothesis", revision });
    expect(byReviewer.status).toBe(403);
  });

  it("proposes as hypothesis, then refuses verification without a reviewer's approval", async () => {
    const { id, revision } = await newDraft("Proposed");
    const proposed = await api.transition(f.author, id, { to: "hypothesis", revision });
    expect(proposed.status).toBe(200);
    expect(proposed.body.status).toBe("hypothesis");
    expect(git("log", "-1", "--format=%an|%s", `refs/heads/drafts/${id}`)).toBe(`ada|${id}: draft → hypothesis`);
    const stale = await api.transition(f.author, id, { to: "verified-checkpoint", revision });
    expect(stale.status).toBe(409);
    const verify = await api.transition(f.author, id, { to: "verified-checkpoint", revision: proposed.body.revision });
    expect(verify.status).toBe(422);
    expect(verify.body.error.unmet).toEqual(
      expect.arrayContaining(["the Rejected shortcut section is empty", "the Evidence section is empty", expect.stringMatching(/^no approval of revision/)]),
    );
  });
});

describe("publishing", () => {
  it("refuses a draft that is still a draft, and a reviewer", async () => {
    const { id, revision } = await newDraft("Not yet");
    const refused = await api.publish(f.author, id, { revision });
    expect(refused.status).toBe(422);
    expect(refused.body.error.unmet).toEqual(["a draft is not published: propose it as a hypothesis first"]);
  });

  it("puts the note on main in one commit touching only its file, removes the draft, and shows it publicly", async () => {
    const { id, revision } = await newDraft("Published through the API");
    const proposed = await api.transition(f.authorToken, id, { to: "hypothesis", revision });
    const mainBefore = git("rev-parse", "refs/heads/main");
    const published = await api.publish(f.authorToken, id, { revision: proposed.body.revision });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body).toMatchObject({ draftKept: false, view: { source: "published", status: "hypothesis", published: true } });
    expect(git("rev-parse", `${published.body.commit}^`)).toBe(mainBefore);
    expect(git("diff-tree", "--no-commit-id", "--name-only", "-r", published.body.commit)).toBe(`notes/${id}.md`);
    expect(git("log", "-1", "--format=%an <%ae>|%s", "refs/heads/main")).toBe(`ada <ada@users.field-notes.invalid>|Publish ${id}: Published through the API`);
    expect(git("for-each-ref", `refs/heads/drafts/${id}`)).toBe("");
    const { getPublishedNote } = await import("@/lib/content/published");
    expect((await getPublishedNote(id))?.title).toBe("Published through the API");
    // Publishing again without a draft has nothing to publish.
    expect((await api.publish(f.authorToken, id, { revision: published.body.view.revision })).status).toBe(422);
  });

  it("refuses policy findings at publish even when the draft was committed around the studio", async () => {
    const { id, revision } = await newDraft("Leaked later");
    const proposed = await api.transition(f.author, id, { to: "hypothesis", revision });
    // A plain-git edit of the draft branch slips a local path in.
    const { getContentStore } = await import("@/lib/working-copy/content-store");
    const store = await getContentStore();
    const text = (await store.readFile(proposed.body.revision, `notes/${id}.md`))!.replace(
      "Skip masked blocks in the kernel.",
      "Copied from C:\\Users\\someone\\kernel.cu",
    );
    const leaked = await store.commit({
      ref: `refs/heads/drafts/${id}`,
      expected: proposed.body.revision,
      author: { name: "Plain Git", email: "git@example.org" },
      message: "edit",
      changes: { [`notes/${id}.md`]: text },
    });
    const { status, body } = await api.publish(f.author, id, { revision: leaked.commit });
    expect(status).toBe(422);
    expect(body.error.where).toEqual([expect.objectContaining({ field: "sections.decision", line: 1, rule: "local-path" })]);
    expect(git("ls-tree", "refs/heads/main", `notes/${id}.md`)).toBe("");
  });

  it("starts a draft when a published note is edited, and guards its boundaries", async () => {
    const opened = await api.read(f.author, "AFN-016");
    expect(opened.body).toMatchObject({ source: "published", published: true, status: "verified-checkpoint" });
    const fields = opened.body.fields;
    const edit = await api.save(f.author, "AFN-016", { revision: opened.body.revision, note: { ...fields, tags: [...fields.tags, "kernels"] } });
    expect(edit.status).toBe(200);
    expect(edit.body.source).toBe("draft");
    expect(git("log", "-1", "--format=%s", "refs/heads/drafts/AFN-016")).toBe("AFN-016: edit tags");
    // main is untouched until the draft is published.
    expect(git("show", "refs/heads/main:notes/AFN-016.md")).not.toContain("kernels");
    // AFN-013 says "pinned, not supported": dropping that limit needs a reason readers will see.
    const bounded = await api.read(f.author, "AFN-013");
    expect(bounded.body.fields.boundaries).toEqual(["pinned-not-supported"]);
    const drop = { revision: bounded.body.revision, note: { ...bounded.body.fields, boundaries: [] } };
    const dropped = await api.save(f.author, "AFN-013", drop);
    expect(dropped.status).toBe(422);
    expect(dropped.body.error).toMatchObject({
      code: "boundary-removed",
      where: [{ field: "boundaries", message: 'removing the "pinned, not supported" boundary needs a reason' }],
    });
    const withReason = await api.save(f.author, "AFN-013", { ...drop, reason: "the pinned reference is now a supported path" });
    expect(withReason.status).toBe(200);
    expect(git("log", "-1", "--format=%B", "refs/heads/drafts/AFN-013")).toContain(
      "Boundary removed: pinned, not supported (why: the pinned reference is now a supported path)",
    );
  });
});

describe("the repository afterwards", () => {
  it("passes git fsck --strict", () => {
    expect(
      execFileSync("git", ["--git-dir", f.gitdir, "fsck", "--strict", "--no-dangling"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim(),
    ).toBe("");
  });

  it("lists drafts and published notes with status and who changed them last", async () => {
    const { status, body } = await api.list(f.reviewer);
    expect(status).toBe(200);
    const draft = body.notes.find((n: Json) => n.id === "AFN-016");
    expect(draft).toMatchObject({
      draft: true,
      status: "verified-checkpoint",
      publishedStatus: "verified-checkpoint",
      lastChange: { author: { name: "ada" } },
    });
    expect(body.notes.find((n: Json) => n.id === "AFN-002")).toMatchObject({
      draft: false,
      status: expect.any(String),
      lastChange: { author: { name: expect.any(String) } },
    });
  });
});

describe("publishing an edited published note", () => {
  it("updates the public note and its history, in the editor's name", async () => {
    const opened = await api.read(f.author, "AFN-010");
    const note = { ...opened.body.fields, sections: { ...opened.body.fields.sections, notes: "Clarified in the studio." } };
    const saved = await api.save(f.author, "AFN-010", { revision: opened.body.revision, note });
    expect(saved.status).toBe(200);
    // AFN-010 is verified: its text changes only with a reviewer's approval of this revision.
    expect((await api.publish(f.author, "AFN-010", { revision: saved.body.revision })).body.error.code).toBe("publish-refused");
    const approve = { verdict: "approve", revision: saved.body.noteRevision };
    const approved = await verdicts.POST(request(f.reviewer, "POST", "/api/studio/notes/AFN-010/verdicts", approve), params({ id: "AFN-010" }));
    expect(approved.status).toBe(201);
    const published = await api.publish(f.author, "AFN-010", { revision: saved.body.revision });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const { getPublishedHistory, getPublishedNote } = await import("@/lib/content/published");
    expect((await getPublishedNote("AFN-010"))?.sections.notes).toBe("Clarified in the studio.");
    const history = await getPublishedHistory("AFN-010");
    expect(history[0]).toMatchObject({ commit: published.body.commit, author: { name: "ada" } });
    expect(history.length).toBeGreaterThan(1);
    // Its editorial place is kept: only new notes go to the top.
    expect(git("show", "refs/heads/main:notes/AFN-010.md")).toContain(`order: ${opened.body.note.order}\n`);
  });

  it("refuses to overwrite a change made on main after the draft began (409), until the author has seen it", async () => {
    const opened = await api.read(f.author, "AFN-011");
    const saved = await api.save(f.author, "AFN-011", {
      revision: opened.body.revision,
      note: { ...opened.body.fields, tags: [...opened.body.fields.tags, "studio"] },
    });
    expect(saved.status).toBe(200);
    // Meanwhile someone commits to main with plain git tools.
    const { getContentStore } = await import("@/lib/working-copy/content-store");
    const store = await getContentStore();
    const mainHead = git("rev-parse", "refs/heads/main");
    const text = (await store.readFile(mainHead, "notes/AFN-011.md"))!.replace(/^## Notes\n/m, "## Notes\n\nA correction made on main.\n");
    const onMain = await store.commit({
      ref: "refs/heads/main",
      expected: mainHead,
      author: { name: "Plain Git", email: "git@example.org" },
      message: "Correct AFN-011",
      changes: { "notes/AFN-011.md": text },
    });

    const refused = await api.publish(f.author, "AFN-011", { revision: saved.body.revision });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      error: { code: "main-changed" },
      main: onMain.commit,
      theirs: { source: "main", fields: { sections: { notes: expect.stringMatching(/^A correction made on main\./) } } },
    });
    expect(git("rev-parse", "refs/heads/main")).toBe(onMain.commit);

    // The author merges main's correction into the draft, then publishes, acknowledging that main commit.
    const merged = await api.save(f.author, "AFN-011", {
      revision: saved.body.revision,
      note: { ...saved.body.fields, sections: { ...saved.body.fields.sections, notes: refused.body.theirs.fields.sections.notes } },
    });
    const published = await api.publish(f.author, "AFN-011", { revision: merged.body.revision, main: onMain.commit });
    expect(published.status).toBe(200);
    const file = git("show", "refs/heads/main:notes/AFN-011.md");
    expect(file).toContain("A correction made on main.");
    expect(file).toContain("- studio");
  });
});
