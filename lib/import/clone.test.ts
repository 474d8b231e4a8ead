import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGitServer, type GitServer } from "@/e2e/support/git-server";
import { ensureContentRepo } from "@/lib/store";
import { fsck, git, tempDir } from "@/lib/store/testing";
import { openContentStore, type ContentStore } from "@/lib/working-copy/content-store";
import { runImport, type ImportOptions } from "./import";
import { sourceRepo } from "./testing";

/**
 * The source as a clone URL: a real smart-HTTP git server (git http-backend, with basic auth)
 * started by the test serves a code repository; the import clones it, and a URL nobody answers is
 * a clear error that writes nothing.
 */

const FIXTURES = path.join(__dirname, "fixtures");
const CONTENT = path.resolve(__dirname, "../../content");
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), "utf8");
const USER = "reader";
const PASSWORD = "s3cret-clone-pass";
const ann = { name: "Ann Example", email: "ann@example.org" };
const bo = { name: "Bo Example", email: "bo@example.org" };

let root: string;
let server: GitServer;
let gitdir: string;
let store: ContentStore;
let sourceLog: string[];

const options = (source: string): ImportOptions => ({
  source,
  prefix: "ADR",
  status: [],
  phase: "Imported decisions",
  branch: "remote",
  plan: false,
  history: true,
  publish: false,
});

/** Every ref of the content repository and what it points at. */
const refs = () => git(gitdir, "for-each-ref", "--format=%(refname) %(objectname)");
/** The import's temporary clones left in `dir`. */
const clones = (dir: string) => fs.readdirSync(dir).filter((n) => n.startsWith("field-notes-import-"));

beforeAll(async () => {
  root = tempDir("import-clone");
  const source = sourceRepo();
  source.commit({ "docs/adr/0002-use-postgres.md": fixture("0002-use-postgres.md") }, ann, "2021-03-08T16:30:00-05:00", "ADR 2: Postgres for orders");
  source.commit({ "docs/adr/0003-use-cockroachdb.md": fixture("0003-use-cockroachdb.md") }, bo, "2022-01-10T08:00:00+02:00", "ADR 3: CockroachDB");
  source.commit(
    { "docs/adr/0003-use-cockroachdb.md": fixture("0003-use-cockroachdb.md").replace("three regions", "four regions") },
    ann,
    "2022-02-10T08:00:00+02:00",
    "ADR 3: a fourth region",
  );
  sourceLog = source.git("log", "--format=%an|%aI", "--", "docs/adr/0003-use-cockroachdb.md").split("\n");
  git(root, "clone", "--quiet", "--bare", source.dir, path.join(root, "repos", "shop.git"));
  server = await startGitServer({ root: path.join(root, "repos"), user: USER, password: PASSWORD });
  gitdir = path.join(root, "content.git");
  await ensureContentRepo(gitdir, CONTENT);
  store = openContentStore(gitdir);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("importing from a clone URL", () => {
  it("clones the repository over HTTP and imports its records with their history, never writing the URL's credentials", async () => {
    const url = `http://${USER}:${PASSWORD}@127.0.0.1:${server.port}/shop.git`;
    const report = await runImport(store, options(url));
    expect(report.source).toBe(`http://127.0.0.1:${server.port}/shop.git`);
    expect(report.plan.records.map((r) => r.id)).toEqual(["ADR-002", "ADR-003"]);
    expect(report.plan.problems).toEqual([]);
    expect(git(gitdir, "log", "--format=%an|%aI", "imports/remote", "--", "notes/ADR-003.md").split("\n")).toEqual(sourceLog);
    const note = await store.readNote("ADR-003", "imports/remote");
    // A URL on loopback is what the archive policy refuses in a note: the note names the repository only.
    expect(note?.ok && note.note.provenance?.detail).toBe("Imported from shop: docs/adr/0003-use-cockroachdb.md");
    // The password reaches no commit, note or message of the content repository.
    expect(git(gitdir, "log", "-p", "--all")).not.toContain(PASSWORD);
    expect(fsck(gitdir)).toBe("");
  }, 60_000);

  it("answers a URL nobody serves with a clear error, and writes nothing", async () => {
    const before = refs();
    const tmp = tempDir("import-clone-tmp");
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      // A repository the server does not have, then a port nothing listens on (the server, stopped).
      const missing = `http://${USER}:${PASSWORD}@127.0.0.1:${server.port}/nothing-here.git`;
      await expect(runImport(store, options(missing))).rejects.toThrow(
        new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/nothing-here\\.git: could not clone the repository \\(.+\\); nothing was imported$`),
      );
      await server.stop();
      const gone = `http://${USER}:${PASSWORD}@127.0.0.1:${server.port}/shop.git`;
      const error = await runImport(store, options(gone)).then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(error?.message).toMatch(/could not clone the repository \(.*(connect|refused).*\); nothing was imported$/i);
      expect(error?.message).not.toContain(PASSWORD);
    } finally {
      process.env.TMPDIR = saved;
      await server.start();
    }
    expect(refs()).toBe(before);
    // The failed clones left no temporary folder behind.
    expect(clones(tmp)).toEqual([]);
  }, 60_000);
});
