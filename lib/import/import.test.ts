import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { checkRepository } from "@/lib/content/check";
import type { Note } from "@/lib/notes/schema";
import { ensureContentRepo } from "@/lib/store";
import { fsck, git, tempDir } from "@/lib/store/testing";
import { openContentStore, type ContentStore } from "@/lib/working-copy/content-store";
import { runImport, type ImportOptions, type ImportReport } from "./import";
import { sourceRepo, type SourceRepo } from "./testing";

/**
 * The import end to end: a code repository whose records were written over two years by three
 * people (made by native git here), imported into a content repository seeded like the app's.
 */

const FIXTURES = path.join(__dirname, "fixtures");
const CONTENT = path.resolve(__dirname, "../../content");
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), "utf8");
const ann = { name: "Ann Example", email: "ann@example.org" };
const bo = { name: "Bo Example", email: "bo@example.org" };
const cy = { name: "Cy Example", email: "cy@example.org" };
const adr = (f: string) => `docs/adr/${f}`;

function buildSource(): SourceRepo {
  const s = sourceRepo();
  s.commit({ "README.md": "# Shop\n" }, ann, "2021-02-01T09:00:00+01:00", "Start the shop");
  s.commit(
    { [adr("0001-record-architecture-decisions.md")]: fixture("0001-record-architecture-decisions.md"), [adr("README.md")]: fixture("README.md") },
    ann,
    "2021-03-01T10:00:00+01:00",
    "Record architecture decisions",
  );
  s.commit({ [adr("0002-use-postgres.md")]: fixture("0002-use-postgres.md") }, bo, "2021-03-08T16:30:00-05:00", "ADR 2: Postgres for orders");
  s.commit({ "src/app.ts": "export {};\n" }, cy, "2021-06-01T12:00:00+00:00", "Code, not a record");
  const superseded2 = fixture("0002-use-postgres.md").replace("\nAccepted\n", "\nSuperseded by [3. Use CockroachDB](0003-use-cockroachdb.md)\n");
  s.commit(
    { [adr("0003-use-cockroachdb.md")]: fixture("0003-use-cockroachdb.md"), [adr("0002-use-postgres.md")]: superseded2 },
    ann,
    "2022-01-10T08:00:00+02:00",
    "ADR 3 supersedes ADR 2",
  );
  s.commit({ [adr("0005-api-style.md")]: fixture("0005-api-style.md") }, cy, "2022-02-01T11:00:00+09:00", "Propose an API style");
  s.commit({ [adr("0005-use-rest-apis.md")]: { from: adr("0005-api-style.md") } }, bo, "2022-02-03T11:00:00+00:00", "Rename ADR 5");
  s.commit(
    { [adr("0005-use-rest-apis.md")]: fixture("0005-api-style.md").replace("# API style", "# Use REST APIs") },
    cy,
    "2022-02-04T11:00:00+00:00",
    "Retitle ADR 5",
  );
  s.commit({ [adr("0006-cache-sessions.md")]: fixture("0006-cache-sessions.md") }, bo, "2022-03-01T10:00:00+00:00", "Cache sessions");
  s.commit({ [adr("0006-queue-jobs.md")]: fixture("0006-queue-jobs.md") }, ann, "2022-03-02T10:00:00+00:00", "Queue jobs (same number, another branch)");
  s.commit({ [adr("0007-logging.md")]: fixture("0007-logging.md") }, cy, "2022-04-01T10:00:00+00:00", "Logging, no status yet");
  const superseded3 = fixture("0003-use-cockroachdb.md").replace("* Status: accepted", "* Status: superseded by [ADR-0004](0004-use-spanner.md)");
  s.commit(
    { [adr("0004-use-spanner.md")]: fixture("0004-use-spanner.md"), [adr("0003-use-cockroachdb.md")]: superseded3 },
    bo,
    "2023-05-02T10:00:00+02:00",
    "ADR 4 supersedes ADR 3",
  );
  s.commit(
    {
      [adr("0001-record-architecture-decisions.md")]: fixture("0001-record-architecture-decisions.md").replace(
        "on this project.",
        "on this project, with who and when.",
      ),
    },
    bo,
    "2023-06-01T10:00:00+00:00",
    "Clarify ADR 1",
  );
  return s;
}

const options = (source: string, extra: Partial<ImportOptions> = {}): ImportOptions => ({
  source,
  prefix: "ADR",
  status: [],
  phase: "Imported decisions",
  branch: "shop",
  plan: false,
  history: true,
  publish: false,
  ...extra,
});

let source: SourceRepo;
let gitdir: string;
let store: ContentStore;
let report: ImportReport;

const noteAt = async (ref: string, id: string): Promise<Note> => {
  const stored = await store.readNote(id, ref);
  if (!stored?.ok) throw new Error(`${id} at ${ref}: ${JSON.stringify(stored)}`);
  return stored.note;
};
/** `author|date` per commit, newest first, as git log shows it. */
const sourceLog = (file: string) => source.git("log", "--follow", "--format=%an|%aI", "--", adr(file)).split("\n");
const contentLog = (ref: string, id: string) => git(gitdir, "log", "--format=%an|%aI", ref, "--", `notes/${id}.md`).split("\n");

beforeAll(async () => {
  source = buildSource();
  gitdir = path.join(tempDir("import-content"), "content.git");
  await ensureContentRepo(gitdir, CONTENT);
  store = openContentStore(gitdir);
  report = await runImport(store, options(source.dir, { publish: true }));
}, 60_000);

describe("importing a repository of decision records", () => {
  it("brings every record in, reports the file that is not one, and publishes when content:check is clean", async () => {
    expect(report.folder).toBe("docs/adr");
    expect(report.plan.records.map((r) => [r.id, r.file, r.format])).toEqual([
      ["ADR-001", adr("0001-record-architecture-decisions.md"), "nygard"],
      ["ADR-002", adr("0002-use-postgres.md"), "nygard"],
      ["ADR-003", adr("0003-use-cockroachdb.md"), "madr"],
      ["ADR-005", adr("0005-use-rest-apis.md"), "log4brains"],
      ["ADR-006", adr("0006-cache-sessions.md"), "front-matter"],
      ["ADR-008", adr("0006-queue-jobs.md"), "front-matter"],
      ["ADR-007", adr("0007-logging.md"), "front-matter"],
      ["ADR-004", adr("0004-use-spanner.md"), "front-matter"],
    ]);
    expect(report.plan.records.find((r) => r.id === "ADR-008")?.renumbered).toMatch(/number 6 is also claimed by docs\/adr\/0006-cache-sessions.md/);
    expect(report.plan.skipped).toEqual([expect.objectContaining({ file: adr("README.md"), message: expect.stringMatching(/not a decision record/) })]);
    expect(report.plan.problems).toEqual([]);
    expect(report.published).toBe(true);
    expect(report.publishFindings).toEqual([]);
    expect((await checkRepository(gitdir, { all: true })).findings).toEqual([]);
    expect(fsck(gitdir)).toBe("");
  });

  it("maps statuses by the table and never past what the status machine allows", async () => {
    const status = Object.fromEntries(report.plan.records.map((r) => [r.id, r.status]));
    // Accepted asks for verified; an import is nobody's review, so it lands as a hypothesis and says why.
    expect(status["ADR-004"]).toMatchObject({ word: "✅ Accepted", asked: "verified-structural", landed: "hypothesis" });
    expect(status["ADR-004"]?.why.join(" ")).toMatch(/no approval/);
    // Accepted without an invariant cannot even be a hypothesis: it lands as a draft, on its own draft branch.
    expect(status["ADR-001"]).toMatchObject({ asked: "verified-structural", landed: "draft" });
    expect(status["ADR-001"]?.why.join(" ")).toMatch(/Invariant section is empty/);
    expect(status["ADR-007"]).toMatchObject({ word: null, landed: "draft" });
    expect(report.drafts.sort()).toEqual(["ADR-001", "ADR-007"]);
    expect((await noteAt("drafts/ADR-001", "ADR-001")).status).toBe("draft");
    expect(await store.readNote("ADR-001", "main")).toBeNull();
    expect((await noteAt("main", "ADR-005")).status).toBe("hypothesis");
  });

  it("resolves the supersede chain across three records to the new ids", async () => {
    const [two, three, four] = await Promise.all([noteAt("main", "ADR-002"), noteAt("main", "ADR-003"), noteAt("main", "ADR-004")]);
    expect(two).toMatchObject({ status: "superseded", superseded_by: "ADR-003" });
    expect(three).toMatchObject({ status: "superseded", superseded_by: "ADR-004" });
    expect(four.status).toBe("hypothesis");
    expect(four.related).toEqual(["ADR-003"]);
    expect(four.sections.notes).toContain("[ADR 3](/notes/ADR-003)");
    expect(two.sections.notes).toContain("Superseded by [3. Use CockroachDB](/notes/ADR-003)");
  });

  it("fills the note's fields from the sections and keeps every other text in Notes", async () => {
    const three = await noteAt("main", "ADR-003");
    expect(three.title).toBe("Use CockroachDB for orders");
    expect(three.summary).toBe("Orders now arrive in three regions, and one primary adds 200 ms for two of them.");
    expect(three.sections.decision).toMatch(/^Chosen option: "CockroachDB"/);
    expect(three.sections.decision).toContain("### Consequences\n\n* Good, because writes stay local.");
    expect(three.sections.invariant).toBe("An order and its lines are written in one transaction, in the region that took the order.");
    expect(three.sections.rejectedShortcut).toContain("* Postgres with logical replication");
    expect(three.sections.rejectedShortcut).toContain("### Pros and Cons of the Options\n\n### Postgres with logical replication");
    expect(three.sections.claimBoundary).toBe("Says nothing about analytics, which keep their own store.");
    for (const text of [
      "Technical Story: orders outgrew one region.",
      "### Decision Drivers",
      "* latency in every region",
      "- Deciders: Ann Example, Bo Example",
      "- Date: 2022-01-10",
    ]) {
      expect(three.sections.notes).toContain(text);
    }
    // Every section of every source record is found, verbatim, in its note.
    for (const file of ["0003-use-cockroachdb.md", "0005-api-style.md", "0006-cache-sessions.md"]) {
      const rec = report.plan.records.find((r) => r.names.includes(adr(file)))!;
      const note = await noteAt(rec.status.landed === "draft" ? `drafts/${rec.id}` : "main", rec.id);
      const all = [note.title, ...Object.values(note.sections)].join("\n");
      for (const block of fixture(file)
        .split(/\n(?=## )/)
        .slice(1)) {
        const text = block.replace(/^## .*\n/, "").trim();
        if (!/\]\(/.test(text)) expect(all).toContain(text);
      }
    }
    const four = await noteAt("main", "ADR-004");
    expect(four.tags).toEqual(["storage", "orders"]);
    expect(four.sections.notes).toContain("```mermaid\ngraph LR\n  A[Checkout] --> B[Spanner]\n```");
  });

  it("gives each note the history of its record: one commit per source commit, with its author, date and subject", async () => {
    const cases: [string, string, string][] = [
      ["ADR-002", "0002-use-postgres.md", "main"],
      ["ADR-003", "0003-use-cockroachdb.md", "main"],
      ["ADR-005", "0005-use-rest-apis.md", "main"],
      ["ADR-001", "0001-record-architecture-decisions.md", "drafts/ADR-001"],
    ];
    for (const [id, file, ref] of cases) expect(contentLog(ref, id), id).toEqual(sourceLog(file));
    expect(sourceLog("0005-use-rest-apis.md")).toHaveLength(3); // added, renamed, retitled
    const subjects = git(gitdir, "log", "--format=%s%n%(trailers:key=Imported-from,valueonly)", "main", "--", "notes/ADR-005.md").split("\n").filter(Boolean);
    const shas = source.git("log", "--follow", "--format=%s%n%H", "--", adr("0005-use-rest-apis.md")).split("\n");
    expect(subjects).toEqual(shas);
  });

  it("imports nothing on a second run", async () => {
    const again = await runImport(store, options(source.dir));
    expect(again.written).toBe(0);
    expect(again.plan.commits).toEqual([]);
    expect(again.alreadyImported).toBeGreaterThan(0);
  });

  it("brings new source commits on a re-run, and reports a record edited in Field Notes since as a conflict", async () => {
    const main = (await store.resolve("main"))!;
    const edited = (await store.readFile(main, "notes/ADR-005.md"))!.replace("Every endpoint is described", "Every public endpoint is described");
    await store.commit({
      ref: "refs/heads/main",
      expected: main,
      author: { name: "Dee Editor", email: "dee@example.org" },
      message: "Sharpen ADR-005",
      changes: { "notes/ADR-005.md": edited },
    });
    source.commit(
      { [adr("0005-use-rest-apis.md")]: fixture("0005-api-style.md").replace("# API style", "# Use REST APIs everywhere") },
      cy,
      "2024-01-01T10:00:00+00:00",
      "Retitle ADR 5 again",
    );
    source.commit(
      { [adr("0006-cache-sessions.md")]: fixture("0006-cache-sessions.md").replace("one-hour", "two-hour") },
      bo,
      "2024-01-02T10:00:00+00:00",
      "Longer sessions",
    );
    const next = await runImport(store, options(source.dir));
    expect(next.conflicts).toEqual(["ADR-005"]);
    expect(next.plan.problems.map((p) => p.message)).toEqual([expect.stringMatching(/^conflict: ADR-005 was edited in Field Notes/)]);
    expect(next.plan.commits.map((c) => [...c.notes.keys()])).toEqual([["ADR-006"]]);
    expect((await noteAt("imports/shop", "ADR-006")).sections.decision).toContain("two-hour");
    expect((await noteAt("imports/shop", "ADR-005")).sections.invariant).toContain("Every public endpoint");
    expect(fsck(gitdir)).toBe("");
  });
});

describe("a plan", () => {
  it("changes nothing", async () => {
    const dir = path.join(tempDir("import-plan"), "content.git");
    await ensureContentRepo(dir, CONTENT);
    const fresh = openContentStore(dir);
    const before = git(dir, "for-each-ref");
    const plan = await runImport(fresh, options(buildSource().dir, { plan: true, prefix: null }));
    expect(plan.plan.records.map((r) => r.id)).toEqual(["AFN-022", "AFN-023", "AFN-024", "AFN-025", "AFN-026", "AFN-027", "AFN-028", "AFN-029"]);
    expect(git(dir, "for-each-ref")).toBe(before);
  }, 30_000);

  it("with --no-history, imports the tip in one commit that names the source's head", async () => {
    const dir = path.join(tempDir("import-tip"), "content.git");
    await ensureContentRepo(dir, CONTENT);
    const tip = buildSource();
    const r = await runImport(openContentStore(dir), options(tip.dir, { history: false }));
    expect(r.plan.commits).toHaveLength(1);
    expect(git(dir, "log", "--format=%(trailers:key=Imported-from,valueonly)", "-1", "imports/shop")).toBe(tip.git("rev-parse", "HEAD"));
    expect(
      git(dir, "ls-tree", "--name-only", "imports/shop", "notes/")
        .split("\n")
        .filter((f) => f.includes("ADR")),
    ).toEqual(["ADR-002", "ADR-003", "ADR-004", "ADR-005", "ADR-006", "ADR-008"].map((id) => `notes/${id}.md`));
  }, 30_000);
});
