import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureContentRepo } from "@/lib/store";
import { git, tempDir } from "@/lib/store/testing";
import { openContentStore, type ContentStore } from "@/lib/working-copy/content-store";
import { runImport, type ImportOptions } from "./import";
import { RECORD_MAX_BYTES } from "./plan";
import { sourceRepo, type SourceRepo } from "./testing";

/** Bad input: each problem named with its file and line, the rest imported; a failure midway leaves every ref as it was. */

const CONTENT = path.resolve(__dirname, "../../content");
const ann = { name: "Ann Example", email: "ann@example.org" };
const record = (n: number, title: string, decision: string) =>
  `# ${n}. ${title}\n\n## Status\n\nProposed\n\n## Decision\n\n${decision}\n\n## Invariant\n\nIt holds.\n\n## Consequences\n\nSays nothing else.\n`;

const options = (source: string): ImportOptions => ({
  source,
  prefix: "ADR",
  status: [],
  phase: "Imported decisions",
  branch: "bad",
  plan: false,
  history: true,
  publish: false,
});

let source: SourceRepo;
let gitdir: string;
let store: ContentStore;

beforeAll(async () => {
  source = sourceRepo("adr-bad");
  source.commit({ "adr/0001-good.md": record(1, "Good", "Keep it.") }, ann, "2022-01-01T10:00:00+00:00", "A good record");
  source.commit(
    {
      "adr/0002-latin1.md": Buffer.concat([Buffer.from("# 2. Caf"), Buffer.from([0xe9]), Buffer.from("\n\n## Status\n\nProposed\n")]),
      "adr/0003-huge.md": record(3, "Huge", "x".repeat(RECORD_MAX_BYTES)),
      "adr/0004-bad-front.md": "---\nstatus: accepted\ntags: [a\n---\n# Bad\n\n## Decision\n\nd\n",
      "adr/0005-secret.md": record(5, "Secret", "Read the notes.\nThey are in /home/ann/private/notes.txt on my laptop."),
      "adr/0006-links.md": record(6, "Links", "See ![Flow](images/flow.png) and [the old one](0099-gone.md), and [the good one](0001-good.md)."),
    },
    ann,
    "2022-01-02T10:00:00+00:00",
    "Five more",
  );
  gitdir = path.join(tempDir("import-bad"), "content.git");
  await ensureContentRepo(gitdir, CONTENT);
  store = openContentStore(gitdir);
}, 60_000);

describe("bad input", () => {
  it("names each problem with file and line, and imports the rest", async () => {
    const r = await runImport(store, options(source.dir));
    const problems = r.plan.problems.map((p) => `${p.file}:${p.line}: ${p.message}`);
    expect(problems).toEqual([
      "adr/0002-latin1.md:1: the file is not UTF-8 text",
      expect.stringMatching(/^adr\/0003-huge\.md:1: the record is \d+ bytes, over the limit of 524288$/),
      expect.stringMatching(/^adr\/0006-links\.md:9: the image images\/flow\.png is not in the source at this commit; the note names it in words$/),
      expect.stringMatching(/^adr\/0006-links\.md:9: broken link: 0099-gone\.md is not a record of the source/),
      expect.stringMatching(/^adr\/0005-secret\.md:3: ADR-005: local file path: .*; this version is not imported$/),
      expect.stringMatching(/^adr\/0005-secret\.md:10: ADR-005: local file path: .*; this version is not imported$/),
    ]);
    expect(r.plan.skipped.map((p) => `${p.file}:${p.line}: ${p.message}`)).toEqual([
      expect.stringMatching(/^adr\/0004-bad-front\.md:3: front matter does not parse/),
    ]);
    const six = await store.readNote("ADR-006", "imports/bad");
    expect(six?.ok && six.note.sections.decision).toBe(
      "See (image not imported: Flow, images/flow.png) and [the old one](0099-gone.md), and [the good one](/notes/ADR-001).",
    );
    expect(await store.readNote("ADR-005", "imports/bad")).toBeNull();
  });

  it("leaves every ref as it was when writing fails midway", async () => {
    const dir = path.join(tempDir("import-midway"), "content.git");
    await ensureContentRepo(dir, CONTENT);
    const real = openContentStore(dir);
    const before = git(dir, "for-each-ref");
    let commits = 0;
    const failing: ContentStore = {
      ...real,
      commit: async (req) => {
        if (++commits === 2) throw new Error("disk full");
        return real.commit(req);
      },
    };
    const extra = sourceRepo("adr-midway");
    for (let i = 1; i <= 3; i++) extra.commit({ [`adr/000${i}-r.md`]: record(i, `R${i}`, "d") }, ann, `2022-01-0${i}T10:00:00+00:00`, `R${i}`);
    await expect(runImport(failing, { ...options(extra.dir), branch: "midway" })).rejects.toThrow("disk full");
    expect(git(dir, "for-each-ref")).toBe(before);
  });
});
