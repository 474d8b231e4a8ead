import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as list from "@/app/api/studio/notes/route";
import * as transitions from "@/app/api/studio/notes/[id]/transitions/route";
import * as threads from "@/app/api/studio/notes/[id]/threads/route";
import * as verdicts from "@/app/api/studio/notes/[id]/verdicts/route";
import { answer, noteFields, params, request, studioFixture } from "@/lib/testing/studio";
import { readNoteWithReview } from "@/lib/studio/read-note";
import { getContentStore } from "@/lib/working-copy/content-store";
import { draftRef, MAIN_REF, reviewRef } from "@/lib/working-copy/layout";

/**
 * A review read or write reads the note's refs (main, its draft, its review) once, through the
 * loader the studio's writes use, so its answer is one state of the repository: the write is
 * decided on, appended to and answered from the review head it read, not a second look that
 * another writer may have moved in between. (The store's resolve is watched, not replaced.)
 */

let f: Awaited<ReturnType<typeof studioFixture>>;
let id: string;
let revision: string;
beforeAll(async () => {
  f = await studioFixture();
  const created = await list.POST(request(f.author, "POST", "/api/studio/notes", { note: noteFields("Read once") }), params({})).then(answer);
  id = created.body.id;
  const moved = await transitions
    .POST(request(f.author, "POST", `/api/studio/notes/${id}/transitions`, { to: "hypothesis", revision: created.body.revision }), params({ id }))
    .then(answer);
  revision = moved.body.noteRevision;
});
afterAll(() => f.cleanup());

async function watched<T>(run: () => Promise<T>): Promise<{ got: T; refs: string[] }> {
  const store = await getContentStore();
  const resolve = vi.spyOn(store, "resolve");
  try {
    const got = await run();
    return { got, refs: resolve.mock.calls.map(([ref]) => ref).sort() };
  } finally {
    resolve.mockRestore();
  }
}

async function refsRead(run: () => Promise<Response>): Promise<{ status: number; body: Record<string, unknown>; refs: string[] }> {
  const { got, refs } = await watched(() => run().then(answer));
  return { ...got, refs };
}

describe("a review request reads the note's refs once", () => {
  const three = () => [draftRef(id), MAIN_REF, reviewRef(id)].sort();

  it("a read of the review", async () => {
    const read = await refsRead(() => threads.GET(request(f.reviewer, "GET", `/api/studio/notes/${id}/threads`), params({ id })));
    expect(read.status).toBe(200);
    expect(read.refs).toEqual(three());
  });

  it("a new thread, answered with the review that holds it", async () => {
    const body = { section: "evidence", revision, text: "Which kernel test?" };
    const wrote = await refsRead(() => threads.POST(request(f.reviewer, "POST", `/api/studio/notes/${id}/threads`, body), params({ id })));
    expect(wrote.status, JSON.stringify(wrote.body)).toBe(201);
    expect(wrote.refs).toEqual(three());
    expect((wrote.body.threads as { id: string }[]).map((t) => t.id)).toContain(wrote.body.thread);
  });

  it("a verdict on a review that already has records", async () => {
    const body = { verdict: "approve", revision };
    const wrote = await refsRead(() => verdicts.POST(request(f.reviewer, "POST", `/api/studio/notes/${id}/verdicts`, body), params({ id })));
    expect(wrote.status, JSON.stringify(wrote.body)).toBe(201);
    expect(wrote.refs).toEqual(three());
    expect(wrote.body).toMatchObject({ verdictState: "approved" });
  });

  it("the review page's note and review, read together, are of the same revision", async () => {
    const { got, refs } = await watched(() => readNoteWithReview({ id: "ada", name: "ada", role: "author" } as never, id));
    expect(refs).toEqual(three());
    expect(got.review.currentRevision).toBe(got.view.noteRevision);
    expect(got.review.verdictState).toBe("approved");
  });
});
