import type { ContentStore } from "@/lib/working-copy/content-store";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureContentRepo } from "@/lib/store/api";
import { openContentStore } from "@/lib/working-copy/content-store";
import { fsck, git, tempDir } from "@/lib/store/testing";
import { commitPerson } from "@/lib/rules/identity";
import { deriveReviewState } from "./derive";
import { LOG_FILE, type ReviewRecord } from "./records";
import { appendRecord, newRecordId, readReviewLog, reviewRef } from "./review-log";

/** Review records in a real content repository: racing writers all land, and plain git carries every word. */

let dir: string;
let gitdir: string;
let store: ContentStore;
let revision: string;

beforeAll(async () => {
  dir = tempDir("review-log");
  gitdir = path.join(dir, "content.git");
  await ensureContentRepo(gitdir, path.resolve("content"));
  store = openContentStore(gitdir);
  revision = (await store.resolve("refs/heads/main"))!;
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const ID = "AFN-016";
const person = (name: string) => commitPerson({ id: name, name });
const record = (by: string, fields: Record<string, unknown>) =>
  ({ v: 1, id: newRecordId(), at: new Date().toISOString(), by: { id: by, name: by }, ...fields }) as ReviewRecord;

describe("appending review records", () => {
  let threadId: string;

  it("starts refs/reviews/<id> as its own history, apart from main", async () => {
    const { record: t, head } = await appendRecord(store, ID, person("rita"), () => ({
      record: record("rita", { kind: "thread", section: "evidence", revision, anchor: "x", text: "Which test?" }),
      message: `${ID}: comment on Evidence`,
    }));
    threadId = t.id;
    expect(git(dir, "--git-dir", gitdir, "rev-list", "--count", head)).toBe("1");
    expect(git(dir, "--git-dir", gitdir, "log", "-1", "--format=%an <%ae>", reviewRef(ID))).toBe("rita <rita@users.field-notes.invalid>");
    expect(git(dir, "--git-dir", gitdir, "ls-tree", "-r", "--name-only", reviewRef(ID))).toBe(
      `${LOG_FILE}\nthreads/${t.id}/${t.at.replace(/[-:.]/g, "")}-${t.id}.json`,
    );
  });

  it("lands all of 20 concurrent comments on one note, each as a commit by its writer", async () => {
    const writers = Array.from({ length: 20 }, (_, i) => `reviewer${i}`);
    const started = Date.now();
    await Promise.all(
      writers.map((w) =>
        appendRecord(store, ID, person(w), () => ({
          record: record(w, { kind: "reply", thread: threadId, text: `reply from ${w}` }),
          message: `${ID}: reply by ${w}`,
        })),
      ),
    );
    const elapsed = Date.now() - started;
    const log = await readReviewLog(store, ID);
    const review = deriveReviewState(log.records, { currentRevision: revision, currentNote: null });
    const replies = review.threads[0]!.comments.slice(1).map((c) => c.text);
    expect(replies.sort()).toEqual(writers.map((w) => `reply from ${w}`).sort());
    expect(log.problems).toEqual([]);
    // 21 commits in a line, 21 files, one per record.
    expect(git(dir, "--git-dir", gitdir, "rev-list", "--count", reviewRef(ID))).toBe("21");
    const authors = git(dir, "--git-dir", gitdir, "log", "--format=%an", reviewRef(ID)).split("\n");
    expect(new Set(authors)).toEqual(new Set(["rita", ...writers]));
    expect(
      git(dir, "--git-dir", gitdir, "ls-tree", "-r", "--name-only", reviewRef(ID))
        .split("\n")
        .filter((p) => p.endsWith(".json")),
    ).toHaveLength(21);
    console.info(`20 concurrent review comments landed in ${elapsed} ms`);
  });

  it("leaves a repository git fsck --strict accepts, whose mirror clone carries the review", () => {
    expect(fsck(gitdir)).toBe("");
    const mirror = path.join(dir, "mirror.git");
    git(dir, "clone", "--quiet", "--mirror", gitdir, mirror);
    expect(git(dir, "--git-dir", mirror, "rev-parse", reviewRef(ID))).toBe(git(dir, "--git-dir", gitdir, "rev-parse", reviewRef(ID)));
    const logText = git(dir, "--git-dir", mirror, "show", `${reviewRef(ID)}:${LOG_FILE}`);
    expect(logText.split("\n")).toHaveLength(21);
    expect(git(dir, "--git-dir", mirror, "grep", "-c", "reply from reviewer7", reviewRef(ID))).toMatch(/:1$/);
  });

  it("never touches main: the published notes do not carry a word of the review", () => {
    expect(git(dir, "--git-dir", gitdir, "rev-parse", "refs/heads/main")).toBe(revision);
    expect(() => git(dir, "--git-dir", gitdir, "grep", "-q", "Which test?", "refs/heads/main")).toThrow();
  });

  it("reads a broken record as a problem, not a crash", async () => {
    const head = await store.resolve(reviewRef(ID));
    const listed = await store.readFile(head!, LOG_FILE);
    await store.commit({
      ref: reviewRef(ID),
      expected: head,
      author: person("plain"),
      message: "hand edit",
      changes: { [LOG_FILE]: `${listed}threads/${threadId}/bad.json\n`, [`threads/${threadId}/bad.json`]: "{ not json" },
    });
    const log = await readReviewLog(store, ID);
    expect(log.records).toHaveLength(21);
    expect(log.problems).toEqual([expect.stringMatching(/bad\.json is not JSON/)]);
  });
});
