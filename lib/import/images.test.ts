import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { checkRepository } from "@/lib/content/check";
import { inspectAsset } from "@/lib/assets/inspect";
import { ensureContentRepo } from "@/lib/store";
import { fsck, git, tempDir } from "@/lib/store/testing";
import { openContentStore, type ContentStore } from "@/lib/working-copy/content-store";
import { runImport, type ImportOptions, type ImportReport } from "./import";
import { sourceRepo, type SourceRepo } from "./testing";

/**
 * Images a record links by relative path: a PNG in the source repository (with EXIF) becomes an
 * asset of the archive as an upload does (metadata stripped, named by its blob id under the note's
 * folder), committed with the version of the record that first shows it, and the link rewritten; a
 * missing image and one over the size limit are reported with file and line, their text kept.
 */

const CONTENT = path.resolve(__dirname, "../../content");
const ann = { name: "Ann Example", email: "ann@example.org" };
const bo = { name: "Bo Example", email: "bo@example.org" };
const record = (decision: string) =>
  `# 1. Order flow\n\n## Status\n\nProposed\n\n## Decision\n\n${decision}\n\n## Invariant\n\nAn order is written once.\n\n## Consequences\n\nSays nothing about refunds.\n`;

const options = (source: string): ImportOptions => ({
  source,
  prefix: "ADR",
  status: [],
  phase: "Imported decisions",
  branch: "images",
  plan: false,
  history: true,
  publish: true,
});

let source: SourceRepo;
let gitdir: string;
let store: ContentStore;
let report: ImportReport;
let shows: string;
let png: Buffer;

beforeAll(async () => {
  png = await sharp({ create: { width: 64, height: 32, channels: 3, background: "#3366cc" } })
    .png()
    .withExif({ IFD0: { Artist: "Ann Example", Copyright: "ACME internal" } })
    .toBuffer();
  // Noise does not compress: over the 5 MB an image may be.
  const huge = await sharp({ create: { width: 1500, height: 1500, channels: 3, background: "#000000", noise: { type: "gaussian", mean: 128, sigma: 60 } } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  source = sourceRepo("adr-images");
  source.commit({ "docs/adr/0001-order-flow.md": record("Orders flow through one queue.") }, ann, "2022-01-01T10:00:00+00:00", "ADR 1");
  shows = source.commit(
    {
      "docs/adr/img/flow diagram.png": png,
      "docs/adr/0001-order-flow.md": record("Orders flow through one queue.\n\n![The order flow, from checkout to the queue](img/flow%20diagram.png)"),
    },
    bo,
    "2022-02-01T10:00:00+00:00",
    "ADR 1: draw the flow",
  );
  source.commit({ "docs/adr/big.png": huge }, ann, "2022-03-01T10:00:00+00:00", "A large picture");
  source.commit(
    {
      "docs/adr/0001-order-flow.md": record(
        "Orders flow through one queue.\n\n![The order flow, from checkout to the queue](img/flow%20diagram.png)\n\n![Where it is](../nowhere/map.png)\n\n![The whole picture](big.png)",
      ),
    },
    ann,
    "2022-04-01T10:00:00+00:00",
    "ADR 1: more pictures",
  );
  source.commit(
    {
      "docs/adr/0001-order-flow.md": record(
        "Orders flow through one queue.\n\nThe flow is drawn on the team's wall.\n\n![Where it is](../nowhere/map.png)\n\n![The whole picture](big.png)",
      ),
    },
    bo,
    "2022-05-01T10:00:00+00:00",
    "ADR 1: the flow moves to the wall",
  );
  gitdir = path.join(tempDir("import-images"), "content.git");
  await ensureContentRepo(gitdir, CONTENT);
  store = openContentStore(gitdir);
  report = await runImport(store, options(source.dir));
}, 120_000);

describe("images a record links by relative path", () => {
  it("commits the image, cleaned, as the note's asset in the commit of the version that first shows it, and rewrites the link", async () => {
    // The content commit that imported the source commit adding the link.
    const at = git(gitdir, "log", "--format=%H %(trailers:key=Imported-from,valueonly)", "main")
      .split("\n")
      .find((l) => l.endsWith(` ${shows}`))
      ?.split(" ")[0];
    const note = await store.readNote("ADR-001", at!);
    expect(note?.ok).toBe(true);
    const decision = note?.ok ? note.note.sections.decision : "";
    const src = /!\[The order flow, from checkout to the queue\]\((assets\/ADR-001\/([0-9a-f]{40})\.png)\)/.exec(decision);
    expect(src, decision).not.toBeNull();
    const [, asset, blob] = src!;
    // Named by its content: the blob git stores under that name is the name's hash.
    expect(git(gitdir, "rev-parse", `${at}:${asset}`)).toBe(blob);
    // The commit that imported the source commit adding the link is the one that added the file.
    const added = git(gitdir, "log", "--diff-filter=A", "--format=%(trailers:key=Imported-from,valueonly)", "main", "--", asset!);
    expect(added).toBe(shows);
    // The version that no longer shows it deletes it: no image is left unreferenced.
    expect(git(gitdir, "ls-tree", "-r", "--name-only", "main", "assets/")).toBe("");
    // The source's PNG carried EXIF (an artist, a copyright); the stored one carries none.
    expect((await inspectAsset(new Uint8Array(png))).metadata).not.toEqual([]);
    const stored = (await store.readBlob(blob!))!;
    expect(await inspectAsset(stored, blob)).toMatchObject({ type: "png", width: 64, height: 32, metadata: [] });
    expect(Buffer.from(stored).toString("latin1")).not.toContain("ACME internal");
  });

  it("reports a missing image and one over the size limit with file and line, keeping their text", async () => {
    const problems = report.plan.problems.map((p) => `${p.file}:${p.line}: ${p.message}`);
    expect(problems).toEqual([
      expect.stringMatching(
        /^docs\/adr\/0001-order-flow\.md:13: the image \.\.\/nowhere\/map\.png is not in the source at this commit; the note names it in words$/,
      ),
      expect.stringMatching(
        /^docs\/adr\/0001-order-flow\.md:15: the image big\.png is not imported: "docs\/adr\/big\.png" is \d+\.\d MB, larger than the 5\.0 MB an image may be/,
      ),
    ]);
    const note = await store.readNote("ADR-001", "main");
    const decision = note?.ok ? note.note.sections.decision : "";
    expect(decision).toContain("(image not imported: Where it is, ../nowhere/map.png)");
    expect(decision).toContain("(image not imported: The whole picture, big.png)");
  });

  it("publishes a history content:check finds clean: every image stored with the version that shows it, named by its hash, and gone with it", async () => {
    expect(report.published).toBe(true);
    expect((await checkRepository(gitdir, { all: true })).findings).toEqual([]);
    expect(fsck(gitdir)).toBe("");
  });

  it("takes a plain folder's images from inside the folder only: a symbolic link out of it reads as missing", async () => {
    const dir = path.join(tempDir("adr-folder"), "team");
    const outside = path.join(path.dirname(dir), "private.png");
    const records = path.join(dir, "decisions");
    fs.mkdirSync(path.join(records, "img"), { recursive: true });
    fs.writeFileSync(path.join(records, "img", "flow.png"), png);
    fs.writeFileSync(outside, png);
    fs.symlinkSync(outside, path.join(records, "img", "linked.png"));
    fs.writeFileSync(path.join(records, "0001-order-flow.md"), record("One queue.\n\n![The flow](img/flow.png)\n\n![Linked](img/linked.png)"));
    const r = await runImport(store, { ...options(dir), branch: "folder", history: false, publish: false });
    expect(r.plan.problems.map((p) => `${p.file}:${p.line}: ${p.message}`)).toEqual([
      "decisions/0001-order-flow.md:13: the image img/linked.png is not in the source; the note names it in words",
    ]);
    // ADR-001 is taken by the import above: this record is renumbered, and its image lives under its own id.
    const id = r.plan.records[0]!.id;
    const note = await store.readNote(id, "imports/folder");
    const decision = note?.ok ? note.note.sections.decision : "";
    expect(decision).toMatch(new RegExp(`^One queue\\.\n\n!\\[The flow\\]\\(assets/${id}/[0-9a-f]{40}\\.png\\)\n\n`));
    expect(decision).toMatch(/\(image not imported: Linked, img\/linked\.png\)$/);
  }, 60_000);
});
