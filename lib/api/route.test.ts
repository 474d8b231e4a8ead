import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getContentStore } from "@/lib/working-copy/content-store";
import { MAIN_REF, notePath } from "@/lib/working-copy/layout";
import { answer, params, request, studioFixture } from "@/lib/testing/studio";
import { noteId, route } from "./route";

/**
 * What every studio route answers when the repository does not hold a revision the request names:
 * the store's UnknownRevisionError becomes 422 `unknown-revision` (docs/studio-api.md), with the
 * revision in its message, in the one error mapping all routes share; never a 500 or a 404 that
 * would read as "no such note".
 */

let f: Awaited<ReturnType<typeof studioFixture>>;
beforeAll(async () => {
  f = await studioFixture();
});
afterAll(() => f.cleanup());

// A route as the studio's are written: the note's history up to the revision the caller names, read from the real store.
const noteAt = route({ params: { id: noteId } }, async ({ params, request }) => {
  const revision = new URL(request.url).searchParams.get("revision") ?? "";
  const store = await getContentStore();
  return { id: params.id, revisions: await store.history(notePath(params.id), revision, { limit: 1 }) };
});

describe("a revision the repository does not hold", () => {
  it("answers 422 unknown-revision naming it, for a commit id and for a branch name alike", async () => {
    for (const revision of ["f".repeat(40), "drafts/no-such-branch"]) {
      const got = await noteAt(request(f.author, "GET", `/api/studio/notes/AFN-012?revision=${encodeURIComponent(revision)}`), params({ id: "AFN-012" })).then(
        answer,
      );
      expect(got.status, JSON.stringify(got.body)).toBe(422);
      expect(got.body.error).toMatchObject({ status: 422, code: "unknown-revision", message: expect.stringContaining(revision) });
    }
  });

  it("while a revision it holds is read", async () => {
    const got = await noteAt(request(f.author, "GET", `/api/studio/notes/AFN-012?revision=${MAIN_REF}`), params({ id: "AFN-012" })).then(answer);
    expect(got.status).toBe(200);
    expect(got.body.revisions).toHaveLength(1);
  });
});
