import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as list from "@/app/api/studio/notes/route";
import * as one from "@/app/api/studio/notes/[id]/route";
import * as publish from "@/app/api/studio/notes/[id]/publish/route";
import { answer, params, request, studioFixture } from "@/lib/testing/studio";
import { MAIN_REF } from "@/lib/working-copy/layout";
import { conflictOf, readErrorBody } from "./bodies";

/**
 * The studio's client reads the API's error answers with these schemas: held here against the
 * answers the route handlers really give (a 409 for a stale save and for main changed under a
 * draft, a 422, a 404), so a change to either side that the editor would misread fails here.
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
