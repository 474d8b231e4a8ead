import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseNote, serializeNote } from "@/lib/notes/markdown";
import { ensureContentRepo } from "@/lib/store";
import { git, tempDir } from "@/lib/store/testing";
import { checkFolder, checkRepository } from "./check";

/** The checker an agent that commits with plain git is held to: real folders, real repositories. */

const CONTENT = path.resolve(__dirname, "../../content");
const seedNote = (id: string) => fs.readFileSync(path.join(CONTENT, "notes", `${id}.md`), "utf8");

function edit(id: string, change: (note: ReturnType<typeof parsed>) => void): string {
  const note = parsed(id);
  change(note);
  return serializeNote(note);
}
function parsed(id: string) {
  const r = parseNote(seedNote(id));
  if (!r.ok) throw new Error(id);
  return r.note;
}

describe("content:check on a folder", () => {
  it("passes the seed content", async () => {
    const r = await checkFolder(CONTENT);
    expect(r.findings).toEqual([]);
    expect(r.checked).toBe(31); // 21 notes + 10 phases
  });

  it("reports schema, policy, phase and reference problems with file and line", async () => {
    const dir = tempDir("check-folder");
    fs.cpSync(CONTENT, dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "notes", "AFN-016.md"), seedNote("AFN-016").replace("status: verified-checkpoint", "status: proven"));
    fs.writeFileSync(
      path.join(dir, "notes", "AFN-017.md"),
      edit("AFN-017", (n) => {
        n.sections.evidence = "Logs are in\n/home/andrea/runs/qsa.log";
        n.phase = "7";
        n.related = ["AFN-099"];
      }),
    );
    fs.writeFileSync(
      path.join(dir, "notes", "AFN-018.md"),
      edit("AFN-018", (n) => {
        n.tags = [...n.tags, ".."];
      }),
    );
    const { findings } = await checkFolder(dir);
    const text = findings.map((f) => `${path.basename(f.file)}:${f.line}: ${f.field}: ${f.message}`).join("\n");
    expect(text).toMatch(/AFN-016\.md:5: status: status must be one of/);
    expect(text).toMatch(/AFN-017\.md:\d+: sections\.evidence: local-path/);
    expect(text).toMatch(/AFN-017\.md:\d+: phase: unknown phase "7"/);
    expect(text).toMatch(/AFN-017\.md:\d+: related: related note AFN-099 does not exist/);
    // A tag whose URL form is ".." links the folder above (/tags/.. is /): the sitemap and the export would.
    expect(text).toMatch(/AFN-018\.md:\d+: tags: the tag "\.\." has no page of its own/);
    const tags = findings.find((f) => f.field === "tags");
    expect(fs.readFileSync(path.join(dir, "notes", "AFN-018.md"), "utf8").split("\n")[(tags?.line ?? 0) - 1]).toMatch(/^tags:/);
    const evidence = findings.find((f) => f.field === "sections.evidence");
    const lines = fs.readFileSync(path.join(dir, "notes", "AFN-017.md"), "utf8").split("\n");
    expect(lines[(evidence?.line ?? 0) - 1]).toContain("/home/andrea");
  });
});

describe("content:check on a repository", () => {
  let bare: string;
  let work: string;
  beforeAll(async () => {
    bare = path.join(tempDir("check-repo"), "content.git");
    await ensureContentRepo(bare, CONTENT);
    work = tempDir("check-work");
    git(work, "clone", "--quiet", bare, ".");
  });

  /** Commit with plain git on a branch from main, and check that one commit. */
  function commitOnBranch(branch: string, files: Record<string, string>, message = "A change made with plain git") {
    git(work, "checkout", "--quiet", "-B", branch, "origin/main");
    for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(work, file), text);
    git(work, "add", "-A");
    git(work, "commit", "--quiet", "-m", message);
    git(work, "push", "--quiet", "--force", "origin", `HEAD:refs/heads/${branch}`);
    return checkRepository(bare, { ref: `refs/heads/${branch}` });
  }

  it("passes the seeded main (the import commit is not a transition)", async () => {
    expect((await checkRepository(bare, { ref: "main" })).findings).toEqual([]);
  });

  it("closes a phase with its decision delta", async () => {
    const phase = fs.readFileSync(path.join(CONTENT, "phases", "4.yaml"), "utf8").replace("status: open", "status: closed\nclosed: 2026-12-02\ncloseout:\n  kind: delta\n  notes: [AFN-005, AFN-006]\n  by: ada\n  at: 2026-12-02");
    expect((await commitOnBranch("close-4", { "phases/4.yaml": phase })).findings).toEqual([]);
  });

  it("closes a phase with a worded no-delta record", async () => {
    const phase = fs.readFileSync(path.join(CONTENT, "phases", "8-11-performance-architecture.yaml"), "utf8").replace("status: open", "status: closed\nclosed: 2026-12-02\ncloseout:\n  kind: no-delta\n  by: ada\n  at: 2026-12-02\n  why: The phase only measured; the hypothesis in AFN-019 still stands untested.");
    expect((await commitOnBranch("close-8-11", { "phases/8-11-performance-architecture.yaml": phase })).findings).toEqual([]);
  });

  it("rejects a phase closed without a delta: a hypothesis is not one, and no record is no close", async () => {
    const file = "phases/8-11-performance-architecture.yaml";
    const base = fs.readFileSync(path.join(CONTENT, file), "utf8");
    const withHypothesis = base.replace("status: open", "status: closed\nclosed: 2026-12-02\ncloseout:\n  kind: delta\n  notes: [AFN-019]\n  by: ada\n  at: 2026-12-02");
    const r1 = await commitOnBranch("close-bad-1", { [file]: withHypothesis });
    expect(r1.findings.map((f) => f.message).join()).toMatch(/AFN-019 as its delta, but that note did not become verified/);
    const r2 = await commitOnBranch("close-bad-2", { [file]: base.replace("status: open", "status: closed\nclosed: 2026-12-02") });
    expect(r2.findings.map((f) => f.message).join()).toMatch(/closed phase needs its closed date and its closeout record/);
  });

  it("holds status changes to the status machine, with a Reason: trailer for a retraction", async () => {
    const promoted = edit("AFN-019", (n) => void (n.status = "verified-checkpoint"));
    const r = await commitOnBranch("promote", { "notes/AFN-019.md": promoted });
    expect(r.findings.map((f) => f.message).join("\n")).toMatch(/hypothesis → verified-checkpoint: .*approv/);

    const retracted = edit("AFN-014", (n) => void (n.status = "retracted"));
    expect((await commitOnBranch("retract-bare", { "notes/AFN-014.md": retracted })).findings.map((f) => f.message).join()).toMatch(/reason/i);
    expect((await commitOnBranch("retract-why", { "notes/AFN-014.md": retracted }, "Retract AFN-014\n\nReason: the provenance label was applied to the wrong fixture set.")).findings).toEqual([]);
  });

  it("flags an editorial order another note already holds, made with plain git", async () => {
    const moved = edit("AFN-014", (n) => void (n.order = 5));
    const r = await commitOnBranch("order-twin", { "notes/AFN-014.md": moved });
    expect(r.findings.map((f) => `${path.basename(f.file)}:${f.line}: ${f.rule}: ${f.message}`)).toEqual([
      expect.stringMatching(/^AFN-014\.md:\d+: order: order 5 is AFN-005's place in the editorial order/),
    ]);
    const line = fs.readFileSync(path.join(work, "notes", "AFN-014.md"), "utf8").split("\n")[r.findings[0]!.line - 1];
    expect(line).toBe("order: 5");
    // A note keeping its own order is not flagged, whatever else changes.
    expect((await commitOnBranch("order-kept", { "notes/AFN-014.md": edit("AFN-014", (n) => void n.tags.push("kept")) })).findings).toEqual([]);
  });

  it("is a command that prints file:line and exits 1 on a bad commit, 0 on a good one", async () => {
    await commitOnBranch("cli-bad", { "notes/AFN-016.md": seedNote("AFN-016").replace("## Evidence", "## Evidense") });
    const tsx = path.resolve("node_modules/.bin/tsx");
    const bad = spawnSync(tsx, ["scripts/content-check.ts", bare, "--ref", "cli-bad"], { encoding: "utf8" });
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/notes\/AFN-016\.md:\d+: sections: unknown section "Evidense"/);
    const good = execFileSync(tsx, ["scripts/content-check.ts", bare, "--ref", "main"], { encoding: "utf8" });
    expect(good).toMatch(/ok: 1 commit\(s\)/);
  });
});
