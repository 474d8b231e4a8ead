import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answer, params, request, studioFixture, type Caller, type Json } from "@/lib/testing/studio";
import { checkRepository } from "@/lib/content/check";
import { getContentStore } from "@/lib/working-copy/content-store";
import { getPublishedPhase } from "@/lib/content/phases";
import * as agentPhases from "@/app/agents/phases.json/route";
import * as twin from "@/app/agents/twin/[...twin]/route";
import * as close from "./[slug]/close/route";
import * as rename from "./[slug]/rename/route";
import * as list from "./route";

/**
 * Renaming a phase through the route handler: one commit to `phases/<slug>.yaml` on main, the slug and
 * the name notes carry unchanged, so no note file is touched; the new name is what people and agents see.
 */

let f: Awaited<ReturnType<typeof studioFixture>>;
beforeAll(async () => {
  f = await studioFixture();
  await getContentStore(); // seeds the content repository from content/
});
afterAll(() => f.cleanup());

const git = (...args: string[]) => execFileSync("git", ["--git-dir", f.gitdir, ...args], { encoding: "utf8" }).trim();
const renameTo = (c: Caller, slug: string, body: unknown) =>
  rename.POST(request(c, "POST", `/api/studio/phases/${slug}/rename`, body), params({ slug })).then(answer);
const get = (url: string) => new Request(`http://studio.test${url}`, { headers: { host: "studio.test" } });

describe("POST /api/studio/phases/<slug>/rename", () => {
  it("changes only the phase file's shown name in one commit; the page, its twin, /agents/phases.json and content:check follow", async () => {
    const before = git("rev-parse", "refs/heads/main");
    const renamed = await renameTo(f.author, "agent-operations", { name: "Agents in operation" });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.phase).toMatchObject({ name: "agent operations", title: "Agents in operation", slug: "agent-operations", status: "open" });
    expect(git("rev-list", "--count", `${before}..refs/heads/main`)).toBe("1");
    expect(git("log", "-1", "--format=%s", "refs/heads/main")).toBe("Rename phase agent operations to Agents in operation");
    // No note rewritten: the only file the commit changes is the phase's own.
    expect(git("diff", "--name-status", before, "refs/heads/main")).toBe("M\tphases/agent-operations.yaml");
    expect(git("show", "refs/heads/main:phases/agent-operations.yaml")).toMatch(
      /^name: agent operations\ntitle: Agents in operation\nslug: agent-operations$/m,
    );

    expect((await getPublishedPhase("agent-operations"))?.phase).toMatchObject({ title: "Agents in operation" });
    const page = await twin.GET(get("/agents/twin/phases/agent-operations.md"), { params: Promise.resolve({ twin: ["phases", "agent-operations.md"] }) });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("# Phase Agents in operation");
    const agents = await agentPhases.GET(get("/agents/phases.json"));
    const listed = (await agents.json()).phases.find((p: Json) => p.slug === "agent-operations");
    expect(listed).toMatchObject({ name: "agent operations", title: "Agents in operation", url: "http://studio.test/phases/agent-operations" });
    expect(listed.notes.length).toBeGreaterThan(0); // its notes still name it
    const studio = await list.GET(request(f.reviewer, "GET", "/api/studio/phases"), params({})).then(answer);
    expect(studio.body.phases.find((p: Json) => p.phase.slug === "agent-operations").phase.title).toBe("Agents in operation");
    expect((await checkRepository(f.gitdir, { ref: "main" })).findings).toEqual([]);

    // Back to the name notes carry: the title goes, still one commit and one file.
    const back = await renameTo(f.author, "agent-operations", { name: "agent operations" });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.phase.title).toBeUndefined();
    expect(git("show", "refs/heads/main:phases/agent-operations.yaml")).not.toContain("title:");
  });

  it("renames a closed phase without touching its closeout record", async () => {
    const why = "The phase measured SSD miss latency only; no decision changed.";
    const closed = await close
      .POST(
        request(f.author, "POST", "/api/studio/phases/8-11-performance-architecture/close", { noDeltaWhy: why }),
        params({ slug: "8-11-performance-architecture" }),
      )
      .then(answer);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const renamed = await renameTo(f.author, "8-11-performance-architecture", { name: "8–11 Performance" });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.phase).toMatchObject({ status: "closed", title: "8–11 Performance", closeout: { kind: "no-delta", why } });
    expect((await checkRepository(f.gitdir, { ref: "main" })).findings).toEqual([]);
  });

  it("refuses another phase's name or title, an empty or unchanged name, a reviewer and an unknown phase, writing nothing", async () => {
    await renameTo(f.author, "2", { name: "Storage" });
    const head = git("rev-parse", "refs/heads/main");
    const taken = await renameTo(f.author, "3", { name: "6 ARCHITECTURE" });
    expect(taken.status).toBe(422);
    expect(taken.body.error).toMatchObject({
      code: "invalid-phase",
      where: [{ field: "name", message: 'there is already a phase "6 architecture" (6-architecture)' }],
    });
    const takenTitle = await renameTo(f.author, "3", { name: "storage" });
    expect(takenTitle.body.error).toMatchObject({ code: "invalid-phase", where: [{ field: "name", message: 'there is already a phase "Storage" (2)' }] });
    const same = await renameTo(f.author, "2", { name: "Storage" });
    expect(same.body.error).toMatchObject({ code: "invalid-phase", where: [{ field: "name", message: 'phase 2 is already called "Storage"' }] });
    expect((await renameTo(f.author, "3", { name: "  " })).body.error).toMatchObject({ status: 400, where: [{ field: "name", message: "name the phase" }] });
    expect((await renameTo(f.author, "3", { name: "x".repeat(121) })).status).toBe(400);
    expect((await renameTo(f.author, "3", { name: "Three", slug: "three" })).status).toBe(400);
    expect((await renameTo(f.reviewer, "3", { name: "Three" })).status).toBe(403);
    expect((await renameTo(f.anonymous, "3", { name: "Three" })).status).toBe(401);
    expect((await renameTo(f.author, "no-such-phase", { name: "Three" })).status).toBe(404);
    expect(git("rev-parse", "refs/heads/main")).toBe(head);
  });

  it("content:check judges a rename made with plain git by the same rule: a title another phase has is refused", async () => {
    const work = await fs.mkdtemp(path.join(os.tmpdir(), "phase-rename-"));
    try {
      const sh = (...args: string[]) => execFileSync("git", args, { cwd: work, encoding: "utf8" });
      sh("clone", "-q", f.gitdir, ".");
      sh("config", "user.name", "ada");
      sh("config", "user.email", "ada@users.field-notes.invalid");
      const file = path.join(work, "phases/4.yaml");
      await fs.writeFile(file, (await fs.readFile(file, "utf8")).replace(/^slug:/m, "title: Four\nslug:"));
      sh("commit", "-qam", "Rename phase 4 to Four");
      sh("push", "-q", "origin", "HEAD:refs/heads/plain-rename");
      expect((await checkRepository(f.gitdir, { ref: "plain-rename" })).findings).toEqual([]);

      await fs.writeFile(file, (await fs.readFile(file, "utf8")).replace("title: Four", "title: Storage"));
      sh("commit", "-qam", "Rename phase 4 to Storage, which phase 2 is called");
      sh("push", "-q", "origin", "HEAD:refs/heads/plain-rename-taken");
      const { findings } = await checkRepository(f.gitdir, { ref: "plain-rename-taken" });
      expect(findings).toEqual([
        expect.objectContaining({ file: "phases/4.yaml", rule: "phase", field: "name", message: 'there is already a phase "Storage" (2)' }),
      ]);
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
  });
});
