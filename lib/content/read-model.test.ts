import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { deriveView, type PublishedView } from "@/lib/content/published";
import { parseSite, SITE_FILE } from "@/lib/content/site";
import { nextChanges, walkChanges } from "@/lib/content/last-change";
import { moveIndex, newSearchIndex } from "@/lib/search";
import { rankQuery } from "@/lib/search/engine";
import { ensureContentRepo } from "@/lib/store/api";
import { openContentStore } from "@/lib/working-copy/content-store";
import { noteFile, tempDir } from "@/lib/store/testing";
import type { Revision } from "@/lib/store/types";
import fs from "node:fs";

/**
 * The read model is derived commit by commit (a view from the previous view, last-change dates
 * from the previous dates, the search index moved by the changed notes). After any sequence of
 * commits that add, change, unpublish or remove notes and their links, each must equal what a full
 * rebuild from the same commit gives.
 */

const AUTHOR = { name: "Read Model Test", email: "read-model@example.org" };
const POOL = Array.from({ length: 8 }, (_, i) => `AFN-${101 + i}`);
const SEED_IDS = ["AFN-001", "AFN-004", "AFN-016"];
const QUERIES = ["transactional state", "sparse attention", "decision", "lock", "AFN-101", "summary"];

const noteOp = fc.record({
  kind: fc.constantFrom("write", "write", "write", "remove"),
  id: fc.constantFrom(...POOL, ...SEED_IDS),
  status: fc.constantFrom("draft", "hypothesis", "verified-checkpoint"),
  order: fc.integer({ min: 0, max: 40 }),
  related: fc.subarray([...POOL, ...SEED_IDS], { maxLength: 3 }),
  mention: fc.option(fc.constantFrom(...POOL, ...SEED_IDS), { nil: undefined }),
  core: fc.boolean(),
  word: fc.constantFrom("lock", "transactional", "sparse", "state", "summary"),
});
const commits = fc.array(fc.array(noteOp, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 });

const root = tempDir("read-model");
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let shared: ReturnType<typeof openContentStore> | null = null;
async function repository() {
  if (!shared) {
    const gitdir = path.join(root, "content.git");
    await ensureContentRepo(gitdir, path.resolve("content"));
    shared = openContentStore(gitdir);
  }
  return shared;
}

describe("the incremental read model", () => {
  it("equals a full rebuild after every commit: notes, order, core, backlinks, last changes, search", async () => {
    await fc.assert(
      fc.asyncProperty(commits, async (plan) => {
        // One repository for every run: each run starts from wherever main is, which is any state.
        const store = await repository();
        const site = parseSite((await store.readFile("main", SITE_FILE))!);
        const fullChanges = async (view: PublishedView) => {
          const out = new Map<string, string>();
          for (const n of view.notes) out.set(n.id, (await store.history(`notes/${n.id}.md`, view.commit, { limit: 1 }))[0]!.commit);
          return out;
        };

        let view = deriveView(null, await store.snapshot("main"), site);
        let changes: ReadonlyMap<string, Revision> = new Map([...(await fullChanges(view))].map(([id, commit]) => [id, { commit } as Revision]));
        const live = newSearchIndex();
        moveIndex(live, new Map(), view.byId);

        for (const [k, ops] of plan.entries()) {
          const files: Record<string, string | null> = {};
          for (const op of ops) {
            const file = `notes/${op.id}.md`;
            if (op.kind === "remove") files[file] = null;
            else {
              files[file] = noteFile(op.id, `Summary ${k} of ${op.id}: ${op.word}${op.mention ? `, see ${op.mention}` : ""}.`, {
                status: op.status as never,
                order: op.order,
                related: op.related.filter((r) => r !== op.id),
                ...(op.core ? { core: { rank: 1 + (op.order % 5), label: `Core ${op.id}` } } : {}),
              });
            }
          }
          const revision = await store
            .commit({ ref: "refs/heads/main", expected: view.commit, author: AUTHOR, message: `Step ${k}`, changes: files })
            .catch((e: Error) => (e.name === "NothingToCommitError" ? null : Promise.reject(e)));
          if (!revision) continue;
          const snapshot = await store.snapshot(revision.commit);
          const next = deriveView(view, snapshot, site);
          const full = deriveView(null, snapshot, site);

          expect(next.notes.map((n) => n.id)).toEqual(full.notes.map((n) => n.id));
          expect([...next.byId.keys()].sort()).toEqual([...full.byId.keys()].sort());
          // The same parsed objects (one per blob), not equal copies: the search index and caches key on them.
          for (const [id, note] of full.byId) expect(next.byId.get(id)).toBe(note);
          // The snapshot after a commit says what changed since the view's commit, so the view is patched, not rebuilt.
          expect(snapshot.delta?.from).toBe(view.commit);
          expect(next.core.map((n) => n.id)).toEqual(full.core.map((n) => n.id));
          expect(Object.fromEntries(next.backlinks)).toEqual(Object.fromEntries(full.backlinks));

          changes = nextChanges(view, changes, next, revision);
          const reference = Object.fromEntries(await fullChanges(full));
          expect(Object.fromEntries([...changes].map(([id, r]) => [id, r.commit]))).toEqual(reference);
          // With nothing to start from (a cold start): one walk back over the commits, and past a
          // short walk, each note left reads its own history from there.
          for (const maxWalk of [256, 1]) {
            const walked = await walkChanges(store, full, maxWalk);
            expect(Object.fromEntries([...walked].map(([id, r]) => [id, r.commit]))).toEqual(reference);
          }

          moveIndex(live, view.byId, next.byId);
          const fresh = newSearchIndex();
          moveIndex(fresh, new Map(), full.byId);
          for (const q of QUERIES) expect(rankQuery(next, live, q, 1000)).toEqual(rankQuery(next, fresh, q, 1000));
          view = next;
        }
      }),
      { numRuns: 10 },
    );
  }, 60_000);
});
