import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answer, params, request, studioFixture, type Caller } from "@/lib/testing/studio";
import { checkRepository } from "@/lib/content/check";
import { getPublishedPhase } from "@/lib/content/phases";
import * as notes from "../notes/route";
import * as note from "../notes/[id]/route";
import * as list from "./route";
import * as close from "./[slug]/close/route";
import * as reopen from "./[slug]/reopen/route";

/** Closing and reopening phases through the route handlers, against a real content repository. */

let f: Awaited<ReturnType<typeof studioFixture>>;
beforeAll(async () => {
  f = await studioFixture();
});
afterAll(() => f.cleanup());

const git = (...args: string[]) => execFileSync("git", ["--git-dir", f.gitdir, ...args], { encoding: "utf8" }).trim();
const WHY = "This phase only reorganised tests; no architecture decision changed.";

const api = {
  list: (c: Caller) => list.GET(request(c, "GET", "/api/studio/phases"), params({})).then(answer),
  close: (c: Caller, slug: string, body: unknown = {}) =>
    close.POST(request(c, "POST", `/api/studio/phases/${slug}/close`, body), params({ slug })).then(answer),
  reopen: (c: Caller, slug: string, body: unknown) => reopen.POST(request(c, "POST", `/api/studio/phases/${slug}/reopen`, body), params({ slug })).then(answer),
};

describe("phases in the studio API", () => {
  it("lists every phase with its notes and delta to signed-in people only", async () => {
    expect((await api.list(f.anonymous)).status).toBe(401);
    expect((await api.list(f.revokedToken)).status).toBe(401);
    const { status, body } = await api.list(f.reviewerToken);
    expect(status).toBe(200);
    const six = body.phases.find((p: { phase: { slug: string } }) => p.phase.slug === "6-architecture");
    expect(six.notes.map((n: { id: string }) => n.id).sort()).toEqual(["AFN-016", "AFN-017", "AFN-018"]);
    expect(six.delta).toEqual(["AFN-016", "AFN-017", "AFN-018"]);
    expect(six.closeUnmet).toEqual(["only authors close a phase"]);
  });

  it("refuses anonymous callers, reviewers and unknown phases", async () => {
    expect((await api.close(f.anonymous, "5")).status).toBe(401);
    const reviewer = await api.close(f.reviewer, "5");
    expect(reviewer.status).toBe(403);
    expect((await api.close(f.author, "no-such-phase")).status).toBe(404);
    expect((await api.close(f.author, "5", { noDeltaWhy: 7 })).status).toBe(400);
  });

  it("closes a phase with its decision delta, in one commit by the author, visible on the public view", async () => {
    const { status, body } = await api.close(f.authorToken, "6-architecture");
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.phase.closeout).toMatchObject({ kind: "delta", notes: ["AFN-016", "AFN-017", "AFN-018"], by: "ada" });
    expect(git("log", "-1", "--format=%an|%s", "main")).toBe("ada|Close phase 6 architecture with decision delta AFN-016, AFN-017, AFN-018");
    expect(git("show", "--stat", "--format=", "main")).toMatch(/phases\/6-architecture\.yaml \| /);
    const published = await getPublishedPhase("6-architecture");
    expect(published?.phase.status).toBe("closed");
    expect((await api.close(f.author, "6-architecture")).body.error.unmet).toEqual(["phase 6 architecture is already closed"]);
    // What the app commits passes the same checker a plain-git commit must pass.
    expect((await checkRepository(f.gitdir, { ref: "main" })).findings).toEqual([]);
  });

  it("refuses a close without a delta, listing what is missing, and accepts a worded no-delta record", async () => {
    const refused = await api.close(f.author, "8-11-performance-architecture");
    expect(refused.status).toBe(422);
    expect(refused.body.error.unmet.join()).toMatch(/no decision delta/);
    expect((await api.close(f.author, "8-11-performance-architecture", { noDeltaWhy: "short" })).body.error.unmet.join()).toMatch(/at least 20 characters/);
    const closed = await api.close(f.author, "8-11-performance-architecture", { noDeltaWhy: WHY });
    expect(closed.status).toBe(200);
    expect(closed.body.phase.closeout).toMatchObject({ kind: "no-delta", why: WHY });
    expect(git("log", "-1", "--format=%B", "main")).toContain(WHY);
  });

  it("reopens a closed phase only with a reason", async () => {
    expect((await api.reopen(f.author, "8-11-performance-architecture", { reason: "" })).status).toBe(400);
    expect((await api.reopen(f.reviewer, "8-11-performance-architecture", { reason: "new evidence" })).status).toBe(403);
    const { status, body } = await api.reopen(f.author, "8-11-performance-architecture", { reason: "The SSD traces were re-measured." });
    expect(status).toBe(200);
    expect(body.phase.status).toBe("open");
    expect(body.phase.closeout).toBeUndefined();
    expect(body.phase.reopenings).toEqual([{ by: "ada", at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), reason: "The SSD traces were re-measured." }]);
    expect((await api.reopen(f.author, "5", { reason: "x" })).body.error.unmet).toEqual(["phase 5 is not closed"]);
    expect(execFileSync("git", ["--git-dir", f.gitdir, "fsck", "--strict", "--no-dangling"], { encoding: "utf8" }).trim()).toBe("");
  });
});

describe("a note names one of the phases", () => {
  it("refuses a save with an unknown phase at the phase field, and keeps nothing half-written", async () => {
    const created = await notes.POST(request(f.author, "POST", "/api/studio/notes", {}), params({})).then(answer);
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    expect(created.body.phases).toContain("6 architecture");
    const body = (phase: string) => ({
      revision: created.body.revision,
      note: {
        title: "Phase check",
        summary: "A note in a phase.",
        phase,
        tags: [],
        related: [],
        boundaries: [],
        core: null,
        sections: { decision: "", invariant: "", rejectedShortcut: "", evidence: "", claimBoundary: "", notes: "" },
      },
    });
    const refused = await note.PUT(request(f.author, "PUT", `/api/studio/notes/${id}`, body("7 nowhere")), params({ id })).then(answer);
    expect(refused.status).toBe(422);
    expect(refused.body.error.where).toEqual([
      { field: "phase", message: expect.stringMatching(/unknown phase "7 nowhere"; the phases are: .*6 architecture/) },
    ]);
    expect(git("rev-parse", `refs/heads/drafts/${id}`)).toBe(created.body.revision);
    const saved = await note.PUT(request(f.author, "PUT", `/api/studio/notes/${id}`, body("6 architecture")), params({ id })).then(answer);
    expect(saved.status).toBe(200);
  });
});
