import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answer, noteFields, params, request, studioFixture, type Caller, type Json } from "@/lib/testing/studio";
import { checkRepository } from "@/lib/content/check";
import * as list from "./notes/route";
import * as one from "./notes/[id]/route";
import * as transitions from "./notes/[id]/transitions/route";
import * as publish from "./notes/[id]/publish/route";
import * as verdicts from "./notes/[id]/verdicts/route";
import * as verdict from "./notes/[id]/verdicts/[verdict]/route";
import * as requests from "./notes/[id]/review-requests/route";
import * as inbox from "./reviews/route";
import * as reviewers from "./reviewers/route";

/**
 * "Verified means reviewed", through the studio API against a real content repository: a verified
 * note does not change without a second person's approval, a request for changes holds a publish
 * back, a review is asked of named people and shows in their inbox, a draft can be discarded, and
 * content:check holds plain git to the same rule.
 */

let f: Awaited<ReturnType<typeof studioFixture>>;
beforeAll(async () => {
  f = await studioFixture();
});
afterAll(() => f.cleanup());

const base = (id: string) => `/api/studio/notes/${id}`;
const api = {
  create: (c: Caller, body: unknown) => list.POST(request(c, "POST", "/api/studio/notes", body), params({})).then(answer),
  read: (c: Caller, id: string) => one.GET(request(c, "GET", base(id)), params({ id })).then(answer),
  save: (c: Caller, id: string, body: unknown) => one.PUT(request(c, "PUT", base(id), body), params({ id })).then(answer),
  discard: (c: Caller, id: string, body: unknown) => one.DELETE(request(c, "DELETE", base(id), body), params({ id })).then(answer),
  transition: (c: Caller, id: string, body: unknown) => transitions.POST(request(c, "POST", `${base(id)}/transitions`, body), params({ id })).then(answer),
  publish: (c: Caller, id: string, body: unknown) => publish.POST(request(c, "POST", `${base(id)}/publish`, body), params({ id })).then(answer),
  verdict: (c: Caller, id: string, body: unknown) => verdicts.POST(request(c, "POST", `${base(id)}/verdicts`, body), params({ id })).then(answer),
  withdraw: (c: Caller, id: string, v: string) =>
    verdict.DELETE(request(c, "DELETE", `${base(id)}/verdicts/${v}`, {}), params({ id, verdict: v })).then(answer),
  ask: (c: Caller, id: string, body: unknown) => requests.POST(request(c, "POST", `${base(id)}/review-requests`, body), params({ id })).then(answer),
  inbox: (c: Caller) => inbox.GET(request(c, "GET", "/api/studio/reviews"), params({})).then(answer),
  reviewers: (c: Caller) => reviewers.GET(request(c, "GET", "/api/studio/reviewers"), params({})).then(answer),
};
const git = (...args: string[]) => execFileSync("git", ["--git-dir", f.gitdir, ...args], { encoding: "utf8" }).trim();

const fields = (decision = "Skip masked blocks in the kernel.") =>
  noteFields("Skip masked blocks", {
    sections: {
      decision,
      rejectedShortcut: "Masking scores after loading every block.",
      evidence: "- a kernel test that fails when a masked block is loaded",
    },
  });

const ok = (r: { status: number; body: Json }, status = 200) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
};

/** create → propose → publish → approve → promote → publish: a published verified checkpoint. */
async function verifiedNote(): Promise<string> {
  const created = ok(await api.create(f.author, { note: fields() }), 201);
  const id = created.id as string;
  const proposed = ok(await api.transition(f.author, id, { to: "hypothesis", revision: created.revision }));
  ok(await api.publish(f.author, id, { revision: proposed.revision }));
  const opened = ok(await api.read(f.author, id));
  ok(await api.verdict(f.reviewer, id, { verdict: "approve", revision: opened.noteRevision }), 201);
  const promoted = ok(await api.transition(f.author, id, { to: "verified-checkpoint", revision: opened.revision }));
  ok(await api.publish(f.author, id, { revision: promoted.revision }));
  expect(ok(await api.read(f.author, id))).toMatchObject({ source: "published", note: { status: "verified-checkpoint" } });
  return id;
}

/** An unpublished revision of `id` whose Decision says `decision`: its draft revision. */
async function changeDecision(id: string, decision: string): Promise<string> {
  const opened = ok(await api.read(f.author, id));
  return ok(await api.save(f.author, id, { revision: opened.revision, note: fields(decision) })).revision;
}

const lists = (body: Json) => ({
  requested: body.requested.map((e: Json) => e.id),
  waiting: body.waiting.map((e: Json) => e.id),
  changed: body.changedSinceReview.map((e: Json) => e.id),
});

describe("a verified note changes only with a second person's approval", () => {
  it("refuses to publish a changed Decision without one (422, naming the rule and what to do), and publishes it with one", async () => {
    const id = await verifiedNote();
    const revision = await changeDecision(id, "Load every block; mask the scores afterwards.");
    const refused = await api.publish(f.author, id, { revision });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe("publish-refused");
    expect(refused.body.error.message).toMatch(new RegExp(`${id} is verified, and this changes its Decision`));
    expect(refused.body.error.message).toMatch(/Ask a reviewer for a review of this revision, or publish the change as a new hypothesis that supersedes/);
    expect(git("show", `main:notes/${id}.md`)).toContain("Skip masked blocks in the kernel.");

    ok(await api.verdict(f.reviewer, id, { verdict: "approve", revision }), 201);
    const published = ok(await api.publish(f.author, id, { revision }));
    expect(published.view.note).toMatchObject({ status: "verified-checkpoint" });
    expect(git("show", `main:notes/${id}.md`)).toContain("Load every block; mask the scores afterwards.");
    // The approval is in the commit, where git and content:check read it.
    const trailers = git("log", "-1", "--format=%(trailers:only)", "main");
    expect(trailers).toMatch(new RegExp(`Draft-revision: ${revision}`));
    expect(trailers).toMatch(/Approved-by: rita [0-9a-f]{12}/);
    expect((await checkRepository(f.gitdir, { all: true })).findings.filter((x) => x.file.includes(id))).toEqual([]);
  });

  it("counts what the note governs (affects) as substance: agents ask which notes govern a diff and act on it", async () => {
    const id = await verifiedNote();
    const opened = ok(await api.read(f.author, id));
    const saved = ok(await api.save(f.author, id, { revision: opened.revision, note: { ...fields(), affects: ["src/cache/**"] } }));
    const refused = await api.publish(f.author, id, { revision: saved.revision });
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toMatch(new RegExp(`${id} is verified, and this changes its Governs`));
    ok(await api.verdict(f.reviewer, id, { verdict: "approve", revision: saved.revision }), 201);
    ok(await api.publish(f.author, id, { revision: saved.revision }));
  });

  it("lets an editorial change (tags) through without one", async () => {
    const id = await verifiedNote();
    const opened = ok(await api.read(f.author, id));
    const saved = ok(await api.save(f.author, id, { revision: opened.revision, note: { ...fields(), tags: ["sparse attention", "kernels"] } }));
    ok(await api.publish(f.author, id, { revision: saved.revision }));
  });

  it("content:check flags the same change made with plain git, with file, line and rule, and --since takes main~1", async () => {
    const id = await verifiedNote();
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "fn-plain-git-"));
    try {
      execFileSync("git", ["clone", "-q", f.gitdir, work]);
      const file = path.join(work, "notes", `${id}.md`);
      fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("Skip masked blocks in the kernel.", "Load every block after all."));
      const run = (...args: string[]) => execFileSync("git", ["-C", work, "-c", "user.name=Plain Git", "-c", "user.email=plain@example.org", ...args]);
      run("commit", "-qam", `${id}: change the decision`);
      run("push", "-q", "origin", "HEAD:main");
      const source = fs.readFileSync(file, "utf8").split("\n");
      const decisionLine = source.findIndex((l) => l === "Load every block after all.") + 1;

      for (const opts of [{ all: true }, { since: "main~1" }, {}]) {
        const flagged = (await checkRepository(f.gitdir, opts)).findings.filter((x) => x.rule === "verified-change");
        expect(flagged, JSON.stringify(opts)).toEqual([
          expect.objectContaining({
            file: `notes/${id}.md`,
            line: decisionLine,
            field: "sections.decision",
            message: expect.stringMatching(/is verified, and this changes its Decision/),
          }),
        ]);
      }
      // An abbreviated id names the same commit as main~1 does.
      const short = git("rev-parse", "--short=8", "main~1");
      expect((await checkRepository(f.gitdir, { since: short })).checked).toBe(1);
      // Undone with plain git, as a team would: the studio publishes on main again (lib/studio/main-state.ts).
      run("revert", "--no-edit", "HEAD");
      run("push", "-q", "origin", "HEAD:main");
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});

describe("a request for changes holds the publish back", () => {
  it("until that reviewer approves a later revision, however many saves come between, naming the reviewer", async () => {
    const id = await verifiedNote();
    const first = await changeDecision(id, "A first rewrite.");
    ok(await api.verdict(f.secondReviewer, id, { verdict: "request-changes", revision: first, summary: "Say why." }), 201);
    const second = await changeDecision(id, "A second rewrite, with the reason.");
    ok(await api.verdict(f.reviewer, id, { verdict: "approve", revision: second }), 201);
    const refused = await api.publish(f.author, id, { revision: second });
    expect(refused.status).toBe(422);
    expect(refused.body.error.unmet).toContainEqual(
      expect.stringMatching(new RegExp(`^publishing waits: sam requested changes on revision ${first.slice(0, 7)}`)),
    );

    ok(await api.verdict(f.secondReviewer, id, { verdict: "approve", revision: second }), 201);
    ok(await api.publish(f.author, id, { revision: second }));
  });

  it("and holds a plain-git landing back the same way: trailers naming another reviewer's approval do not get past it", async () => {
    const id = await verifiedNote();
    const first = await changeDecision(id, "A first rewrite.");
    ok(await api.verdict(f.secondReviewer, id, { verdict: "request-changes", revision: first, summary: "Say why." }), 201);
    const second = await changeDecision(id, "A second rewrite, with the reason.");
    const record = ok(await api.verdict(f.reviewer, id, { verdict: "approve", revision: second }), 201).verdict as string;
    const served = git("rev-parse", "main");
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "fn-plain-git-"));
    try {
      execFileSync("git", ["clone", "-q", f.gitdir, work]);
      // Dated a few seconds on, as a push a moment later would be: the review as it stands then is sam's request.
      const date = new Date(Date.now() + 5_000).toISOString();
      const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
      const run = (...args: string[]) => execFileSync("git", ["-C", work, "-c", "user.name=Plain Git", "-c", "user.email=plain@example.org", ...args], { env });
      fs.writeFileSync(path.join(work, "notes", `${id}.md`), execFileSync("git", ["--git-dir", f.gitdir, "show", `${second}:notes/${id}.md`]));
      run("commit", "-qam", `${id}: the second rewrite`, "-m", `Draft-revision: ${second}\nApproved-by: rita ${record}`);
      run("push", "-q", "origin", "HEAD:main");
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
    const { acceptedMain } = await import("@/lib/content/accepted-main");
    const { getContentStore } = await import("@/lib/working-copy/content-store");
    const judged = await acceptedMain(await getContentStore(), git("rev-parse", "main"));
    expect(judged.served).toBe(served);
    expect(judged.refusal?.message).toMatch(/publishing waits: sam requested changes/);
    // content:check says the same of that commit.
    const found = (await checkRepository(f.gitdir, { since: "main~1" })).findings.filter((x) => x.file === `notes/${id}.md`);
    expect(found).toContainEqual(expect.objectContaining({ rule: "review", message: expect.stringMatching(/publishing waits: sam requested changes/) }));
    git("update-ref", "refs/heads/main", served);
  });

  it("or withdraws the request; only its reviewer can, and only once", async () => {
    const id = await verifiedNote();
    const revision = await changeDecision(id, "A rewrite.");
    const asked = ok(await api.verdict(f.secondReviewer, id, { verdict: "request-changes", revision }), 201);
    ok(await api.verdict(f.reviewer, id, { verdict: "approve", revision }), 201);
    expect((await api.publish(f.author, id, { revision })).status).toBe(422);
    expect((await api.withdraw(f.reviewer, id, asked.verdict)).status).toBe(403);
    expect((await api.withdraw(f.author, id, asked.verdict)).status).toBe(403);
    expect(ok(await api.withdraw(f.secondReviewer, id, asked.verdict)).verdictState).toBe("approved");
    expect((await api.withdraw(f.secondReviewer, id, asked.verdict)).body.error.code).toBe("already-withdrawn");
    ok(await api.publish(f.author, id, { revision }));
  });
});

describe("review requests and the inbox", () => {
  it("lists the reviewers an author can ask", async () => {
    expect(ok(await api.reviewers(f.author)).reviewers).toEqual([
      { id: "rita", name: "rita", displayName: "rita" },
      { id: "sam", name: "sam", displayName: "sam" },
    ]);
  });

  it("a request of a named reviewer is in that reviewer's 'requested from you' and in no one else's", async () => {
    const created = ok(await api.create(f.author, { note: fields() }), 201);
    const id = created.id as string;
    const asked = ok(await api.ask(f.author, id, { revision: created.revision, reviewers: ["sam"], text: "Is the evidence enough?" }), 201);
    expect(asked.requests).toEqual([expect.objectContaining({ reviewers: [{ id: "sam", name: "sam" }], purpose: "publish", text: "Is the evidence enough?" })]);
    const sam = ok(await api.inbox(f.secondReviewer));
    expect(lists(sam).requested).toContain(id);
    expect(sam.requested.find((e: Json) => e.id === id)).toMatchObject({ request: { by: "ada", named: true }, changed: null, since: null });
    // A note still in draft status is not put up for anyone else until it is proposed.
    expect(lists(ok(await api.inbox(f.reviewer)))).toEqual(
      expect.objectContaining({ requested: expect.not.arrayContaining([id]), waiting: expect.not.arrayContaining([id]) }),
    );
    expect(lists(ok(await api.inbox(f.author)))).toEqual({ requested: [], waiting: [], changed: [] });
  });

  it("refuses to ask an author, someone unknown, or on a stale revision, saying which", async () => {
    const created = ok(await api.create(f.author, { note: fields() }), 201);
    const refused = await api.ask(f.author, created.id, { revision: created.revision, reviewers: ["grace", "nobody"] });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe("not-a-reviewer");
    expect(refused.body.error.where.map((w: Json) => w.message)).toEqual([
      "grace is not a reviewer (signed in as author)",
      "nobody is not an account of this archive",
    ]);
    expect((await api.ask(f.author, created.id, { revision: "0".repeat(40), reviewers: [] })).status).toBe(409);
    expect((await api.ask(f.reviewer, created.id, { revision: created.revision, reviewers: [] })).status).toBe(403);
  });

  it("a published hypothesis put up for verification waits for any reviewer; a new revision after a verdict is 'changed since your last review'", async () => {
    const created = ok(await api.create(f.author, { note: fields() }), 201);
    const id = created.id as string;
    const proposed = ok(await api.transition(f.author, id, { to: "hypothesis", revision: created.revision }));
    ok(await api.publish(f.author, id, { revision: proposed.revision }));
    expect(lists(ok(await api.inbox(f.reviewer))).waiting).not.toContain(id);
    const opened = ok(await api.read(f.author, id));
    ok(await api.ask(f.author, id, { revision: opened.noteRevision, reviewers: [] }), 201);
    const rita = ok(await api.inbox(f.reviewer));
    expect(lists(rita).waiting).toContain(id);
    expect(rita.waiting.find((e: Json) => e.id === id)).toMatchObject({ draft: false, request: { named: false, purpose: "verify" } });

    ok(await api.verdict(f.reviewer, id, { verdict: "request-changes", revision: opened.noteRevision }), 201);
    expect(lists(ok(await api.inbox(f.reviewer)))).toEqual(
      expect.objectContaining({ waiting: expect.not.arrayContaining([id]), changed: expect.not.arrayContaining([id]) }),
    );
    const saved = ok(await api.save(f.author, id, { revision: opened.revision, note: fields("Skip masked blocks, measured on two kernels.") }));
    expect(saved.source).toBe("draft");
    const after = ok(await api.inbox(f.reviewer));
    expect(lists(after).changed).toContain(id);
    expect(after.changedSinceReview.find((e: Json) => e.id === id)).toMatchObject({
      since: { kind: "your-verdict", verdict: "request-changes" },
      changed: ["Decision"],
    });
  });
});

describe("retract and discard", () => {
  it("a draft never published cannot be retracted; it is discarded, its id never given again, its review kept", async () => {
    const created = ok(await api.create(f.author, { note: fields() }), 201);
    const id = created.id as string;
    const proposed = ok(await api.transition(f.author, id, { to: "hypothesis", revision: created.revision }));
    const retract = await api.transition(f.author, id, { to: "retracted", revision: proposed.revision, reason: "Wrong idea." });
    expect(retract.status).toBe(422);
    expect(retract.body.error.unmet).toContainEqual(`${id} was never published, so no reader needs to be told: discard the draft instead`);
    ok(await api.ask(f.author, id, { revision: proposed.revision, reviewers: ["rita"] }), 201);

    expect((await api.discard(f.reviewer, id, { revision: proposed.revision })).status).toBe(403);
    expect((await api.discard(f.author, id, { revision: created.revision })).status).toBe(409);
    expect(ok(await api.discard(f.author, id, { revision: proposed.revision }))).toEqual({ id, discarded: proposed.revision, published: false });
    expect((await api.read(f.author, id)).status).toBe(404);
    expect(git("rev-parse", `refs/discarded/${id}/${proposed.revision}`)).toBe(proposed.revision);
    expect(git("for-each-ref", "--format=%(refname)", `refs/reviews/${id}`)).toBe(`refs/reviews/${id}`);
    expect(lists(ok(await api.inbox(f.reviewer))).requested).not.toContain(id);
    const next = ok(await api.create(f.author, { note: fields() }), 201);
    expect(Number(next.id.slice(4))).toBeGreaterThan(Number(id.slice(4)));
    execFileSync("git", ["--git-dir", f.gitdir, "fsck", "--strict"], { stdio: "pipe" });
  });

  it("a published note's unpublished edit can be discarded; the published version stays", async () => {
    const id = await verifiedNote();
    const revision = await changeDecision(id, "Second thoughts.");
    expect(ok(await api.discard(f.author, id, { revision }))).toEqual({ id, discarded: revision, published: true });
    expect(ok(await api.read(f.author, id))).toMatchObject({ source: "published", note: { sections: { decision: "Skip masked blocks in the kernel." } } });
    expect((await api.discard(f.author, id, { revision })).body.error.code).toBe("not-discardable");
  });
});
