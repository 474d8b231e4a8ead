import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answer, noteFields, params, request, studioFixture, type Caller, type Json } from "@/lib/testing/studio";
import { checkRepository } from "@/lib/content/check";
import { getContentStore } from "@/lib/working-copy/content-store";
import { getPublishedPhase } from "@/lib/content/phases";
import * as agentPhases from "@/app/agents/phases.json/route";
import * as notes from "../notes/route";
import * as list from "./route";

/** Creating a phase through the route handler: one commit on main, then known everywhere main is read. */

let f: Awaited<ReturnType<typeof studioFixture>>;
beforeAll(async () => {
  f = await studioFixture();
  await getContentStore(); // seeds the content repository from content/
});
afterAll(() => f.cleanup());

const git = (...args: string[]) => execFileSync("git", ["--git-dir", f.gitdir, ...args], { encoding: "utf8" }).trim();
const create = (c: Caller, body: unknown) => list.POST(request(c, "POST", "/api/studio/phases", body), params({})).then(answer);

describe("POST /api/studio/phases", () => {
  it("creates an open phase in one commit by the author, known to the public view, /agents/phases.json, new notes and content:check", async () => {
    const before = git("rev-parse", "refs/heads/main");
    const created = await create(f.author, { name: "12 Retrieval memory", description: "Where long context is kept." });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.phase).toMatchObject({
      name: "12 Retrieval memory",
      slug: "12-retrieval-memory",
      status: "open",
      description: "Where long context is kept.",
    });
    expect(git("rev-list", "--count", `${before}..refs/heads/main`)).toBe("1");
    expect(git("log", "-1", "--format=%an <%ae>|%s", "refs/heads/main")).toBe("ada <ada@users.field-notes.invalid>|Create phase 12 Retrieval memory");
    expect(git("diff", "--name-status", before, "refs/heads/main")).toBe("A\tphases/12-retrieval-memory.yaml");

    expect((await getPublishedPhase("12-retrieval-memory"))?.phase).toMatchObject({ name: "12 Retrieval memory", status: "open" });
    const agents = await agentPhases.GET(new Request("http://studio.test/agents/phases.json", { headers: { host: "studio.test" } }));
    expect(agents.status).toBe(200);
    const listed = JSON.stringify(await agents.json());
    expect(listed).toContain("12-retrieval-memory");
    expect(listed).toContain("12 Retrieval memory");
    const studio = await list.GET(request(f.reviewer, "GET", "/api/studio/phases"), params({})).then(answer);
    expect(studio.body.phases.map((p: Json) => p.phase.slug)).toContain("12-retrieval-memory");

    // A note may now name it, and content:check knows it on main and on the note's draft.
    const note = await notes
      .POST(request(f.author, "POST", "/api/studio/notes", { note: noteFields("Keep retrieval keys", { phase: "12 Retrieval memory" }) }), params({}))
      .then(answer);
    expect(note.status, JSON.stringify(note.body)).toBe(201);
    expect((await checkRepository(f.gitdir, { ref: "main" })).findings).toEqual([]);
    expect((await checkRepository(f.gitdir, { ref: `drafts/${note.body.id}` })).findings).toEqual([]);
  });

  it("refuses a duplicate name or slug, a name with no URL form, a reviewer and a bad body, writing nothing", async () => {
    const head = git("rev-parse", "refs/heads/main");
    const duplicate = await create(f.author, { name: "6 Architecture" });
    expect(duplicate.status).toBe(422);
    expect(duplicate.body.error).toMatchObject({
      code: "invalid-phase",
      where: [{ field: "name", message: 'there is already a phase "6 architecture" (6-architecture)' }],
    });
    const sameSlug = await create(f.author, { name: "6 ARCHITECTURE!" });
    expect(sameSlug.status).toBe(422);
    expect(sameSlug.body.error.where[0].field).toBe("name");
    const noSlug = await create(f.author, { name: "!!!" });
    expect(noSlug.status).toBe(422);
    expect(noSlug.body.error).toMatchObject({ code: "invalid-phase", where: [{ field: "name", message: expect.stringContaining("has no URL form") }] });
    expect((await create(f.reviewer, { name: "13 Reviewers' phase" })).status).toBe(403);
    expect((await create(f.author, { name: "" })).body.error).toMatchObject({ status: 400, where: [{ field: "name", message: "name the phase" }] });
    expect((await create(f.author, { name: "14 Extra", slug: "x" })).status).toBe(400);
    expect((await create(f.anonymous, { name: "15 Nobody" })).status).toBe(401);
    expect(git("rev-parse", "refs/heads/main")).toBe(head);
  });
});
