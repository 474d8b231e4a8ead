import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { getPublishedView, type PublishedView } from "@/lib/content/published";
import { resetConfig } from "@/lib/env";
import { lastChanges } from "@/lib/content/last-change";
import { persisted, keyByBuild } from "@/lib/read-model";
import { forgetReadSide } from "@/lib/read-model/read-side";
import { noteFile, tempDir } from "@/lib/store/testing";
import { getContentStore, openContentStore } from "@/lib/working-copy/content-store";

/**
 * The persisted read model (lib/read-model) must change how fast a restart is, never what it
 * shows: after any commits made while the server was down, the view and last-change dates a
 * restart builds from the persisted model equal a build from nothing, and it parses only the note
 * files those commits wrote. A damaged, foreign or missing model is ignored and written again.
 */

const AUTHOR = { name: "Persist Test", email: "persist@example.org" };
const POOL = Array.from({ length: 6 }, (_, i) => `AFN-${201 + i}`);
const root = tempDir("read-model-persist");
afterAll(() => {
  keyByBuild(undefined);
  fs.rmSync(root, { recursive: true, force: true });
});

let run = 0;
let dataDir = "";
beforeEach(() => {
  dataDir = path.join(root, `d${run++}`);
  process.env.DATA_DIR = dataDir;
  delete process.env.CONTENT_REPO;
  resetConfig();
});

/** A new server process, as far as the read model can tell: every per-process cache forgotten. */
function restart(build: string | null) {
  forgetReadSide();
  delete (globalThis as Record<symbol, unknown>)[Symbol.for("field-notes.content-store")];
  keyByBuild(build);
}

const folder = (build: string) => path.join(dataDir, "read-model", build);
const gitdir = () => path.join(dataDir, "content.git");

type Op = { id: string; remove: boolean; status: string; order: number; related: string[]; mention: string | undefined; title: string };
const op: fc.Arbitrary<Op> = fc.record({
  id: fc.constantFrom(...POOL, "AFN-001", "AFN-016"),
  remove: fc.constantFrom(false, false, true),
  status: fc.constantFrom("draft", "hypothesis", "verified-checkpoint"),
  order: fc.integer({ min: 0, max: 30 }),
  related: fc.subarray([...POOL, "AFN-004"], { maxLength: 2 }),
  mention: fc.option(fc.constantFrom(...POOL, "AFN-016"), { nil: undefined }),
  title: fc.constantFrom("Lock", "Ledger", "Cache"),
});
const commits = fc.array(fc.array(op, { minLength: 1, maxLength: 3 }), { maxLength: 3 });
// While the server is down: at least one commit, often several (their dates are stepped through).
const downtime = fc.array(fc.array(op, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 });

/** Commits on main as plain git would make them: through a store of its own, not the app's. Answers the files written. */
async function commitOutside(plan: Op[][]): Promise<number> {
  const store = openContentStore(gitdir());
  let written = 0;
  for (const [k, ops] of plan.entries()) {
    const files: Record<string, string | null> = {};
    for (const o of ops) {
      files[`notes/${o.id}.md`] = o.remove
        ? null
        : noteFile(o.id, `Summary ${k} of ${o.id}${o.mention ? `, see ${o.mention}` : ""}.`, {
            title: `${o.title} ${o.id}`,
            status: o.status as never,
            order: o.order,
            related: o.related.filter((r) => r !== o.id),
          });
    }
    const head = await store.resolve("main");
    const done = await store.commit({ ref: "refs/heads/main", expected: head, author: AUTHOR, message: `Outside ${k}`, changes: files }).catch((e: Error) => {
      if (e.name === "NothingToCommitError") return null;
      throw e;
    });
    if (done) written += Object.values(files).filter((f) => f !== null).length;
  }
  return written;
}

/** What a reader sees of a view and its dates. */
async function seen(view: PublishedView) {
  const dates = await lastChanges(view);
  return {
    commit: view.commit,
    notes: view.notes,
    core: view.core.map((n) => n.id),
    backlinks: Object.fromEntries(view.backlinks),
    dates: Object.fromEntries([...dates].map(([id, r]) => [id, `${r.commit} ${r.date} ${r.author.name}`])),
  };
}

/** Start, read main, persist, stop: what a server leaves behind. */
async function serveAndPersist(build: string) {
  restart(build);
  await seen(await getPublishedView());
  await persisted();
}

/** A start from nothing persisted: the reference. */
async function coldSeen() {
  restart(null);
  return seen(await getPublishedView());
}

describe("the persisted read model", () => {
  it("a restart after commits made while it was down shows what a fresh build shows, parsing only the files written since", async () => {
    await fc.assert(
      fc.asyncProperty(commits, downtime, async (before, whileDown) => {
        dataDir = path.join(root, `p${run++}`);
        process.env.DATA_DIR = dataDir;
        resetConfig();
        restart("b1");
        await getContentStore(); // creates and seeds the repository
        await commitOutside(before);
        await serveAndPersist("b1");
        const written = await commitOutside(whileDown);

        restart("b1");
        const warm = await seen(await getPublishedView());
        const parsed = (await getContentStore()).stats().notesParsed;
        await persisted();
        expect(warm).toEqual(await coldSeen());
        expect(parsed).toBeLessThanOrEqual(written);
      }),
      { numRuns: 10, endOnFailure: true },
    );
  }, 60_000);

  it("a damaged line or head is ignored: the note is read from git again, and the next write repairs the model", async () => {
    restart("b1");
    await getContentStore();
    await serveAndPersist("b1");
    const file = path.join(folder("b1"), "notes.ndjson");
    const lines = fs.readFileSync(file, "utf8").split("\n");
    const i = lines.findIndex((l) => l.includes('"title":"Why Qwen4Exp'));
    expect(i).toBeGreaterThanOrEqual(0);
    // A title changed without its hash (a damaged disk, or an edit by hand), a torn last line, a garbage head.
    lines[i] = lines[i]!.replace('"title":"Why Qwen4Exp', '"title":"Tampered');
    fs.writeFileSync(file, `${lines.join("\n")}{"torn`);
    fs.writeFileSync(path.join(folder("b1"), "head.json"), "not a head\n");

    restart("b1");
    const warm = await seen(await getPublishedView());
    // Only the damaged line's note is read from git again.
    expect((await getContentStore()).stats().notesParsed).toBe(1);
    await persisted();
    expect(JSON.stringify(warm.notes)).not.toContain("Tampered");
    expect(warm).toEqual(await coldSeen());

    // The restart that read the damaged model wrote it again: the next one reads every note from it.
    restart("b1");
    const again = await seen(await getPublishedView());
    expect((await getContentStore()).stats().notesParsed).toBe(0);
    expect(again).toEqual(await coldSeen());
  }, 60_000);

  it("another build's model is never read, and its folder is removed; a deleted folder is written again", async () => {
    restart("old-build");
    await getContentStore();
    await serveAndPersist("old-build");
    expect(fs.existsSync(folder("old-build"))).toBe(true);
    const notes = (await getContentStore()).stats().notesParsed;
    expect(notes).toBeGreaterThan(0);

    restart("new-build");
    await seen(await getPublishedView());
    expect((await getContentStore()).stats().notesParsed).toBe(notes);
    expect(fs.existsSync(folder("old-build"))).toBe(false);
    await persisted();

    fs.rmSync(path.join(dataDir, "read-model"), { recursive: true });
    restart("new-build");
    await seen(await getPublishedView());
    await persisted();
    restart("new-build");
    await seen(await getPublishedView());
    expect((await getContentStore()).stats().notesParsed).toBe(0);
  }, 60_000);
});
