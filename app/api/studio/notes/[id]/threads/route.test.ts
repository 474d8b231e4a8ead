import { getContentStore } from "@/lib/working-copy/content-store";
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answer, noteFields, params, request, studioFixture, type Caller, type Json } from "@/lib/testing/studio";
import { commitPerson } from "@/lib/rules/identity";
import * as list from "../../route";
import * as one from "../route";
import * as transitions from "../transitions/route";
import * as publish from "../publish/route";
import * as threads from "./route";
import * as comments from "./[thread]/comments/route";
import * as comment from "./[thread]/comments/[comment]/route";
import * as resolve from "./[thread]/resolve/route";
import * as reopen from "./[thread]/reopen/route";
import * as verdicts from "../verdicts/route";
import * as inbox from "../../../reviews/route";

/**
 * The review API through its route handlers, against a real content repository: who may comment
 * and give verdicts, what each refusal says, what the status machine and publishing make of it,
 * and that every word ends up on refs/reviews/<id> and nowhere on main.
 */

let f: Awaited<ReturnType<typeof studioFixture>>;
beforeAll(async () => {
  f = await studioFixture();
});
afterAll(() => f.cleanup());

const git = (...args: string[]) => execFileSync("git", ["--git-dir", f.gitdir, ...args], { encoding: "utf8" }).trim();
const base = (id: string) => `/api/studio/notes/${id}`;

const api = {
  read: (c: Caller, id: string) => one.GET(request(c, "GET", base(id)), params({ id })).then(answer),
  review: (c: Caller, id: string) => threads.GET(request(c, "GET", `${base(id)}/threads`), params({ id })).then(answer),
  start: (c: Caller, id: string, body: unknown) => threads.POST(request(c, "POST", `${base(id)}/threads`, body), params({ id })).then(answer),
  reply: (c: Caller, id: string, thread: string, body: unknown) =>
    comments.POST(request(c, "POST", `${base(id)}/threads/${thread}/comments`, body), params({ id, thread })).then(answer),
  edit: (c: Caller, id: string, thread: string, cid: string, body: unknown) =>
    comment.PATCH(request(c, "PATCH", `${base(id)}/threads/${thread}/comments/${cid}`, body), params({ id, thread, comment: cid })).then(answer),
  resolve: (c: Caller, id: string, thread: string) =>
    resolve.POST(request(c, "POST", `${base(id)}/threads/${thread}/resolve`, {}), params({ id, thread })).then(answer),
  reopen: (c: Caller, id: string, thread: string) =>
    reopen.POST(request(c, "POST", `${base(id)}/threads/${thread}/reopen`, {}), params({ id, thread })).then(answer),
  verdicts: (c: Caller, id: string) => verdicts.GET(request(c, "GET", `${base(id)}/verdicts`), params({ id })).then(answer),
  verdict: (c: Caller, id: string, body: unknown) => verdicts.POST(request(c, "POST", `${base(id)}/verdicts`, body), params({ id })).then(answer),
  transition: (c: Caller, id: string, body: unknown) => transitions.POST(request(c, "POST", `${base(id)}/transitions`, body), params({ id })).then(answer),
  publish: (c: Caller, id: string, body: unknown) => publish.POST(request(c, "POST", `${base(id)}/publish`, body), params({ id })).then(answer),
  save: (c: Caller, id: string, body: unknown) => one.PUT(request(c, "PUT", base(id), body), params({ id })).then(answer),
  inbox: (c: Caller) => inbox.GET(request(c, "GET", "/api/studio/reviews"), params({})).then(answer),
};

const EVIDENCE = "- a kernel test that fails when a masked block is loaded\n- a trace of block loads";
const fields = (evidence = EVIDENCE) =>
  noteFields("Skip masked blocks", { sections: { rejectedShortcut: "Masking scores after loading every block.", evidence } });

/** A saved draft proposed as a hypothesis, ready for review: its id and current revision. */
async function hypothesis(): Promise<{ id: string; revision: string }> {
  const created = await list.POST(request(f.author, "POST", "/api/studio/notes", { note: fields() }), params({})).then(answer);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const moved = await api.transition(f.author, created.body.id, { to: "hypothesis", revision: created.body.revision });
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  return { id: created.body.id, revision: moved.body.noteRevision };
}

describe("who may do what", () => {
  let id: string;
  let revision: string;
  let thread: string;
  beforeAll(async () => {
    ({ id, revision } = await hypothesis());
    thread = (await api.start(f.reviewer, id, { section: "evidence", revision, text: "Which test?" })).body.thread;
  });

  const cases: { caller: () => Caller; expect: Record<string, number> }[] = [
    { caller: () => f.anonymous, expect: { review: 404, start: 401, reply: 401, resolve: 401, verdicts: 404, verdict: 401, inbox: 401 } },
    { caller: () => f.revokedToken, expect: { review: 401, start: 401, reply: 401, resolve: 401, verdicts: 401, verdict: 401, inbox: 401 } },
    { caller: () => f.author, expect: { review: 200, start: 201, reply: 201, resolve: 200, verdicts: 200, verdict: 403, inbox: 200 } },
    { caller: () => f.authorToken, expect: { review: 200, start: 201, reply: 201, resolve: 200, verdicts: 200, verdict: 403, inbox: 200 } },
    { caller: () => f.reviewer, expect: { review: 200, start: 201, reply: 201, resolve: 200, verdicts: 200, verdict: 201, inbox: 200 } },
    { caller: () => f.reviewerToken, expect: { review: 200, start: 201, reply: 201, resolve: 200, verdicts: 200, verdict: 201, inbox: 200 } },
  ];
  for (const row of cases) {
    it(`answers ${Object.entries(row.expect)
      .map(([a, s]) => `${a} ${s}`)
      .join(", ")} to this caller`, async () => {
      const c = row.caller();
      // Each row reopens the thread first, so "resolve" always has something to resolve.
      const open = (await api.review(f.author, id)).body.threads.find((t: Json) => t.id === thread);
      if (open.resolved) expect((await api.reopen(f.author, id, thread)).status).toBe(200);
      const got = {
        review: (await api.review(c, id)).status,
        start: (await api.start(c, id, { section: "decision", revision, text: `from ${c.label}` })).status,
        reply: (await api.reply(c, id, thread, { text: `reply from ${c.label}` })).status,
        resolve: (await api.resolve(c, id, thread)).status,
        verdicts: (await api.verdicts(c, id)).status,
        verdict: (await api.verdict(c, id, { verdict: "approve", revision })).status,
        inbox: (await api.inbox(c)).status,
      };
      expect({ caller: c.label, ...got }).toEqual({ caller: c.label, ...row.expect });
    });
  }

  it("hides a draft's review from anonymous callers without a word of it", async () => {
    const hidden = await api.review(f.anonymous, id);
    expect(hidden.body).toEqual({ error: { status: 404, code: "not-found", message: "there is nothing at this address" } });
    expect((await api.verdict(f.author, id, { verdict: "approve", revision })).body.error.message).toBe(
      "only reviewers may do this; ada is signed in as a author",
    );
  });
});

describe("threads", () => {
  let id: string;
  let revision: string;
  beforeAll(async () => {
    ({ id, revision } = await hypothesis());
  });

  it("start on a quoted passage, get replies, and record each action as a commit by its actor on refs/reviews/<id>", async () => {
    const started = await api.start(f.reviewer, id, { section: "evidence", quote: "a trace of block loads", revision, text: "Attach the trace." });
    expect(started.status).toBe(201);
    const t = started.body.thread as string;
    expect(started.body.threads).toContainEqual(
      expect.objectContaining({ id: t, section: "evidence", quote: "a trace of block loads", revision, resolved: false, outdated: false }),
    );
    expect((await api.reply(f.authorToken, id, t, { text: "Attached as trace.json." })).status).toBe(201);
    const review = (await api.review(f.reviewer, id)).body;
    expect(review.threads[0].comments.map((c: Json) => `${c.by.id}: ${c.text}`)).toEqual(["rita: Attach the trace.", "ada: Attached as trace.json."]);
    expect(git("log", "--format=%an|%s", `refs/reviews/${id}`).split("\n")).toEqual([
      `ada|${id}: reply on Evidence: Attached as trace.json.`,
      `rita|${id}: comment on Evidence ("a trace of block loads"): Attach the trace.`,
    ]);
    expect(() => git("grep", "-q", "Attach the trace", "refs/heads/main", `refs/heads/drafts/${id}`)).toThrow();
  });

  it("lets only the writer edit a comment, keeping the earlier text", async () => {
    const t = (await api.start(f.reviewer, id, { section: "decision", revision, text: "Why the kernel?" })).body.thread as string;
    const refused = await api.edit(f.author, id, t, t, { text: "Fine as is." });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "not-your-comment", message: "only rita edits this comment; reply instead" });
    const edited = await api.edit(f.reviewer, id, t, t, { text: "Why in the kernel and not the scheduler?" });
    expect(edited.status).toBe(200);
    const c = edited.body.threads.find((x: Json) => x.id === t).comments[0];
    expect(c.text).toBe("Why in the kernel and not the scheduler?");
    expect(c.history.map((h: Json) => h.text)).toEqual(["Why the kernel?"]);
  });

  it("resolve and reopen, refusing to resolve twice", async () => {
    const t = (await api.start(f.author, id, { section: "invariant", revision, text: "Is this strong enough?" })).body.thread as string;
    expect((await api.resolve(f.reviewer, id, t)).body.threads.find((x: Json) => x.id === t).resolved).toBe(true);
    expect((await api.resolve(f.reviewer, id, t)).body.error).toMatchObject({ status: 409, code: "already-resolved" });
    expect((await api.reopen(f.author, id, t)).body.threads.find((x: Json) => x.id === t).resolved).toBe(false);
  });

  it("are outdated once the draft changes the anchored section, and keep what they were about", async () => {
    const t = (await api.start(f.reviewer, id, { section: "claimBoundary", revision, text: "Which backends?" })).body.thread as string;
    const current = (await api.read(f.author, id)).body;
    const saved = await api.save(f.author, id, {
      revision: current.revision,
      note: { ...current.fields, sections: { ...current.fields.sections, claimBoundary: "Holds on CUDA only." } },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const thread = (await api.review(f.reviewer, id)).body.threads.find((x: Json) => x.id === t);
    expect(thread).toMatchObject({ outdated: true, anchor: "Says nothing about speed on other backends.", revision });
  });

  it("say what is wrong with a bad request, and where", async () => {
    const noQuote = await api.start(f.reviewer, id, { section: "evidence", quote: "not in the text", revision, text: "?" });
    expect(noQuote.status).toBe(422);
    expect(noQuote.body.error).toMatchObject({ code: "quote-not-found", where: [{ field: "quote" }] });
    const bad = await api.start(f.reviewer, id, { section: "appendix", revision: "abc", text: "" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.where.map((w: Json) => w.field).sort()).toEqual(["revision", "section", "text"]);
    expect((await api.start(f.reviewer, id, { section: "evidence", revision: "f".repeat(40), text: "?" })).body.error).toMatchObject({
      status: 422,
      code: "unknown-revision",
    });
    expect((await api.reply(f.reviewer, id, "0123456789ab", { text: "?" })).body.error).toMatchObject({ status: 404 });
    expect((await api.reply(f.reviewer, id, "nonsense", { text: "?" })).status).toBe(404);
    expect((await api.review(f.reviewer, "AFN-999")).status).toBe(404);
  });
});

describe("verdicts", () => {
  it("count for the current revision only: an earlier one is 409, and a new save makes a verdict stale", async () => {
    const { id, revision } = await hypothesis();
    expect((await api.verdict(f.reviewer, id, { verdict: "approve", revision, summary: "Evidence is enough." })).status).toBe(201);
    const current = (await api.read(f.author, id)).body;
    const saved = await api.save(f.author, id, { revision: current.revision, note: { ...current.fields, summary: "Masks do not make attention sparse." } });
    const later = saved.body.noteRevision as string;
    const stale = await api.verdict(f.reviewer, id, { verdict: "approve", revision });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: { code: "stale-revision" }, currentRevision: later });
    const listed = (await api.verdicts(f.author, id)).body;
    expect(listed).toMatchObject({
      currentRevision: later,
      verdictState: "awaiting",
      verdicts: [{ revision, verdict: "approve", stale: true, summary: "Evidence is enough." }],
    });
    const refused = await api.transition(f.author, id, { to: "verified-checkpoint", revision: saved.body.revision });
    expect(refused.status).toBe(422);
    expect(refused.body.error.unmet.join("\n")).toMatch(/does not cover/);
  });

  it("refuse a reviewer who wrote a revision of the note", async () => {
    const { id } = await hypothesis();
    const store = await getContentStore();
    const head = (await store.resolve(`refs/heads/drafts/${id}`))!;
    const text = (await store.readFile(head, `notes/${id}.md`))!;
    // rita edits the draft with plain git (the studio would not let a reviewer save).
    const edited = await store.commit({
      ref: `refs/heads/drafts/${id}`,
      expected: head,
      author: commitPerson({ id: "rita", name: "rita" }),
      message: "tweak",
      changes: { [`notes/${id}.md`]: text.replace("No masked key is ever loaded.", "No masked key is loaded, ever.") },
    });
    const self = await api.verdict(f.reviewerToken, id, { verdict: "approve", revision: edited.commit });
    expect(self.status).toBe(403);
    expect(self.body.error).toMatchObject({ code: "self-verdict", message: expect.stringMatching(/rita wrote a revision of/) });
  });

  it("decide promotion and publishing: request changes blocks both, approval of the current revision allows them", async () => {
    const { id, revision } = await hypothesis();
    const promote = () => api.transition(f.author, id, { to: "verified-checkpoint", revision });
    expect((await promote()).body.error.unmet).toContain(`no approval of revision ${revision.slice(0, 7)} by a reviewer other than its authors`);

    expect((await api.verdict(f.reviewer, id, { verdict: "request-changes", revision, summary: "Attach the trace." })).status).toBe(201);
    const blockedPublish = await api.publish(f.author, id, { revision });
    expect(blockedPublish.status).toBe(422);
    const standing = `rita requested changes on revision ${revision.slice(0, 7)} and has not approved a later revision or withdrawn the request; make the changes and ask rita for a review, or ask them to withdraw it`;
    expect(blockedPublish.body.error.unmet).toContain(`publishing waits: ${standing}`);
    expect((await promote()).body.error.unmet).toContain(standing);

    expect((await api.verdict(f.reviewer, id, { verdict: "approve", revision })).body.verdictState).toBe("approved");
    const promoted = await promote();
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
    expect(promoted.body.status).toBe("verified-checkpoint");
    const published = await api.publish(f.author, id, { revision: promoted.body.revision });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(git("show", `refs/heads/main:notes/${id}.md`)).toMatch(/status: verified-checkpoint/);
    // Every word of the review is on its own ref, none on main.
    expect(git("grep", "-c", "Attach the trace.", `refs/reviews/${id}`)).toMatch(/:1$/);
    expect(() => git("grep", "-q", "Attach the trace", "refs/heads/main")).toThrow();
  });

  it("show up in the reviewer's inbox until given", async () => {
    const { id, revision } = await hypothesis();
    const before = (await api.inbox(f.reviewer)).body;
    expect(before.waiting.map((s: Json) => s.id)).toContain(id);
    const t = (await api.start(f.reviewer, id, { section: "evidence", revision, text: "Which kernel test?" })).body.thread;
    await api.reply(f.author, id, t, { text: "test_masked_blocks." });
    await api.verdict(f.reviewer, id, { verdict: "approve", revision });
    const after = (await api.inbox(f.reviewer)).body;
    expect([...after.requested, ...after.waiting, ...after.changedSinceReview].map((s: Json) => s.id)).not.toContain(id);
    expect(after.awaitingReply).toContainEqual(
      expect.objectContaining({
        id,
        thread: expect.objectContaining({ id: t, section: "evidence" }),
        last: expect.objectContaining({ by: "ada", text: "test_masked_blocks." }),
      }),
    );
    expect(after.notes).toContainEqual(expect.objectContaining({ id, openThreads: 1, verdictState: "approved" }));
    const mine = (await api.inbox(f.author)).body;
    expect([mine.requested, mine.waiting, mine.changedSinceReview]).toEqual([[], [], []]);
  });
});
