import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as list from "@/app/api/studio/notes/route";
import * as one from "@/app/api/studio/notes/[id]/route";
import * as publish from "@/app/api/studio/notes/[id]/publish/route";
import * as transitions from "@/app/api/studio/notes/[id]/transitions/route";
import * as threads from "@/app/api/studio/notes/[id]/threads/route";
import * as comments from "@/app/api/studio/notes/[id]/threads/[thread]/comments/route";
import * as comment from "@/app/api/studio/notes/[id]/threads/[thread]/comments/[comment]/route";
import * as resolve from "@/app/api/studio/notes/[id]/threads/[thread]/resolve/route";
import * as verdicts from "@/app/api/studio/notes/[id]/verdicts/route";
import * as reviews from "@/app/api/studio/reviews/route";
import { answer, noteFields, params, request, studioFixture, type Json } from "@/lib/testing/studio";
import { MAIN_REF } from "@/lib/working-copy/layout";
import { conflictOf, inboxBody, noteListBody, noteViewBody, publishBody, readErrorBody, reviewBody, reviewWriteBody, savedNoteBody } from "./answers";

/**
 * The studio's client reads the API's answers with these schemas: held here against the answers
 * the route handlers really give (the list, a note, a save, a status change, a publish, a review
 * with threads, edits and verdicts, the inbox; a 409 for a stale save and for main changed under
 * a draft, a 422, a 404), so a change to either side that the client would misread fails here.
 */

let f: Awaited<ReturnType<typeof studioFixture>>;
beforeAll(async () => {
  f = await studioFixture();
});
afterAll(() => f.cleanup());

const save = (who: typeof f.author, id: string, body: unknown) => one.PUT(request(who, "PUT", `/api/studio/notes/${id}`, body), params({ id })).then(answer);

describe("error bodies as the client reads them", () => {
  it("a stale save's 409 gives the editor their fields, who changed them, the base and the revision to send next", async () => {
    const created = await list.POST(request(f.author, "POST", "/api/studio/notes", {}), params({})).then(answer);
    const id = created.body.id as string;
    const opened = await one.GET(request(f.author, "GET", `/api/studio/notes/${id}`), params({ id })).then(answer);
    const fields = { ...opened.body.fields, title: "Contested note", summary: "Two authors at once.", phase: "6 architecture" };
    const base = await save(f.author, id, { revision: opened.body.revision, note: fields });
    expect(base.status, JSON.stringify(base.body)).toBe(200);
    const theirs = await save(f.secondAuthor, id, { revision: base.body.revision, note: { ...fields, summary: "Their summary." } });
    expect(theirs.status).toBe(200);
    const stale = await save(f.author, id, { revision: base.body.revision, note: { ...fields, summary: "My summary." } });

    expect(stale.status).toBe(409);
    expect(readErrorBody(stale.body)?.error.code).toBe("stale-revision");
    const conflict = conflictOf(stale.status, stale.body);
    expect(conflict).toMatchObject({ by: "grace", revision: theirs.body.revision, main: undefined });
    expect(conflict?.theirs.summary).toBe("Their summary.");
    expect(conflict?.base?.summary).toBe("Two authors at once.");
  });

  it("a publish over a change made on main gives main's fields and the commit to acknowledge", async () => {
    const opened = await one.GET(request(f.author, "GET", "/api/studio/notes/AFN-012"), params({ id: "AFN-012" })).then(answer);
    const saved = await save(f.author, "AFN-012", {
      revision: opened.body.revision,
      note: { ...opened.body.fields, tags: [...opened.body.fields.tags, "studio"] },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const { getContentStore } = await import("@/lib/working-copy/content-store");
    const store = await getContentStore();
    const head = (await store.resolve(MAIN_REF))!;
    const text = (await store.readFile(head, "notes/AFN-012.md"))!.replace(/^## Notes\n/m, "## Notes\n\nA correction made on main.\n");
    const onMain = await store.commit({
      ref: MAIN_REF,
      expected: head,
      author: { name: "Plain Git", email: "git@example.org" },
      message: "Correct AFN-012",
      changes: { "notes/AFN-012.md": text },
    });

    const refused = await publish
      .POST(request(f.author, "POST", "/api/studio/notes/AFN-012/publish", { revision: saved.body.revision }), params({ id: "AFN-012" }))
      .then(answer);
    expect(refused.status).toBe(409);
    const conflict = conflictOf(refused.status, refused.body);
    expect(conflict).toMatchObject({ by: "Plain Git", main: onMain.commit, base: null, revision: undefined });
    expect(conflict?.theirs.sections.notes).toMatch(/^A correction made on main\./);
  });

  it("a refusal keeps its code, status and where; an answer that is not the API's is not read as one", async () => {
    const missing = await one.GET(request(f.author, "GET", "/api/studio/notes/AFN-999"), params({ id: "AFN-999" })).then(answer);
    expect(readErrorBody(missing.body)?.error).toMatchObject({ status: 404, code: "not-found" });
    expect(conflictOf(missing.status, missing.body)).toBeNull();
    const bad = await save(f.author, "AFN-012", { revision: "nope", note: {} });
    expect(readErrorBody(bad.body)?.error.where?.length).toBeGreaterThan(0);
    expect(readErrorBody("<html>502 Bad Gateway</html>")).toBeNull();
    expect(readErrorBody({ error: { status: 418, code: "teapot", message: "?" } })).toBeNull();
  });
});

/** The schema reads the answer whole: nothing refused, nothing dropped (zod drops members it does not know). */
function readWhole(
  schema: { safeParse: (v: unknown) => { success: boolean; data?: unknown; error?: unknown } },
  got: { status: number; body: Json },
  status = 200,
) {
  expect(got.status, JSON.stringify(got.body).slice(0, 500)).toBe(status);
  const parsed = schema.safeParse(got.body);
  expect(parsed.error).toBeUndefined();
  expect(parsed.data).toEqual(got.body);
  return got.body;
}

describe("success bodies as the client reads them", () => {
  it("the list, a note through create, status change, save and publish, read whole by the client's schemas", async () => {
    const listed = readWhole(noteListBody, await list.GET(request(f.author, "GET", "/api/studio/notes"), params({})).then(answer));
    expect(listed.notes.length).toBeGreaterThanOrEqual(21);
    expect(listed.notes.some((n: Json) => n.lastChange?.by)).toBe(true);

    const fields = noteFields("Schemas read whole", { core: { rank: 9, label: "Bodies" }, tags: ["api"] });
    const created = readWhole(noteViewBody, await list.POST(request(f.author, "POST", "/api/studio/notes", { note: fields }), params({})).then(answer), 201);
    const id = created.id as string;
    const proposed = readWhole(
      noteViewBody,
      await transitions
        .POST(request(f.author, "POST", `/api/studio/notes/${id}/transitions`, { to: "hypothesis", revision: created.revision }), params({ id }))
        .then(answer),
    );
    expect(proposed.note).toMatchObject({ status: "hypothesis", core: { rank: 9 } });
    const saved = readWhole(
      savedNoteBody,
      await save(f.author, id, { revision: proposed.revision, note: { ...proposed.fields, summary: "Read whole, every member." } }),
    );
    expect(saved.saved).toBe(true);
    const published = readWhole(
      publishBody,
      await publish.POST(request(f.author, "POST", `/api/studio/notes/${id}/publish`, { revision: saved.revision }), params({ id })).then(answer),
    );
    expect(published.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(published.view.published).toBe(true);
  });

  it("a review with a quoted thread, a reply, an edited comment, a resolution and a verdict, and both people's inboxes", async () => {
    const created = await list.POST(request(f.author, "POST", "/api/studio/notes", { note: noteFields("Under review") }), params({})).then(answer);
    const id = created.body.id as string;
    const moved = await transitions
      .POST(request(f.author, "POST", `/api/studio/notes/${id}/transitions`, { to: "hypothesis", revision: created.body.revision }), params({ id }))
      .then(answer);
    const revision = moved.body.noteRevision as string;
    const base = `/api/studio/notes/${id}/threads`;

    const started = readWhole(
      reviewWriteBody,
      await threads
        .POST(request(f.reviewer, "POST", base, { section: "decision", quote: "masked blocks", revision, text: "Which blocks?" }), params({ id }))
        .then(answer),
      201,
    );
    const thread = started.threads[0].id as string;
    const authorInbox = readWhole(inboxBody, await reviews.GET(request(f.author, "GET", "/api/studio/reviews"), params({})).then(answer));
    expect(authorInbox.awaitingReply).toContainEqual(expect.objectContaining({ id, thread: expect.objectContaining({ id: thread, quote: "masked blocks" }) }));
    const reviewerInbox = readWhole(inboxBody, await reviews.GET(request(f.reviewer, "GET", "/api/studio/reviews"), params({})).then(answer));
    expect(reviewerInbox.waiting.map((n: Json) => n.id)).toContain(id);

    const replied = readWhole(
      reviewWriteBody,
      await comments.POST(request(f.author, "POST", `${base}/${thread}/comments`, { text: "The fully masked ones." }), params({ id, thread })).then(answer),
      201,
    );
    const mine = replied.threads[0].comments[0].id as string;
    const edited = readWhole(
      reviewWriteBody,
      await comment
        .PATCH(request(f.reviewer, "PATCH", `${base}/${thread}/comments/${mine}`, { text: "Which blocks are skipped?" }), params({ id, thread, comment: mine }))
        .then(answer),
    );
    expect(edited.threads[0].comments[0]).toMatchObject({ history: [{ text: "Which blocks?" }], editedAt: expect.any(String) });
    const resolved = readWhole(
      reviewWriteBody,
      await resolve.POST(request(f.reviewer, "POST", `${base}/${thread}/resolve`, {}), params({ id, thread })).then(answer),
    );
    expect(resolved.threads[0].resolutions).toHaveLength(1);
    const approved = readWhole(
      reviewWriteBody,
      await verdicts
        .POST(request(f.reviewer, "POST", `/api/studio/notes/${id}/verdicts`, { verdict: "approve", revision, summary: "Clear." }), params({ id }))
        .then(answer),
      201,
    );
    expect(approved).toMatchObject({
      verdictState: "approved",
      verdicts: [{ verdict: "approve", summary: "Clear." }],
      state: { verdicts: [{ reviewer: "rita" }] },
    });
    readWhole(reviewBody, await threads.GET(request(f.author, "GET", base), params({ id })).then(answer));
  });

  it("an answer that is not the shape the client reads is refused, saying where", () => {
    expect(noteListBody.safeParse({ notes: [{ id: "AFN-001", title: "No status" }] }).error?.issues[0]?.path).toEqual(["notes", 0, "status"]);
    expect(reviewBody.safeParse({ threads: "none" }).success).toBe(false);
    expect(inboxBody.safeParse("<html>200 OK</html>").success).toBe(false);
  });
});
