import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it, vi } from "vitest";
import { deltaOf } from "@/lib/rules/phase-closeout";
import { noteFile, tempDir } from "@/lib/store/testing";

// A real content repository seeded from content/. Set before the store is first asked for: the
// app reads its location once.
const dir = tempDir("published-phases");
process.env.CONTENT_REPO = path.join(dir, "content.git");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const { deriveView, getPublishedView } = await import("./published");
const { parseSite, SITE_FILE } = await import("./site");
const { getPublishedPhases, historyFacts, walkFacts } = await import("./phases");
const { getContentStore, openContentStore } = await import("@/lib/working-copy/content-store");

/**
 * The phases' decision deltas are derived commit by commit: a note's fact (when its current run of
 * "verified" began) is read from its history only when its file changed. After any sequence of
 * commits (a note verified, unverified, verified again, removed, or rewritten back to an earlier
 * text), every phase's delta must equal the one read from every note's whole history, and so must
 * the facts read in one walk back through the commits (the first build's way at scale).
 */

const AUTHOR = { name: "Phases Test", email: "phases@example.org" };
const POOL = ["AFN-301", "AFN-302", "AFN-303", "AFN-304"];
const PHASES = ["6 architecture", "5"];
const op = fc.record({
  id: fc.constantFrom(...POOL),
  action: fc.constantFrom("verify", "verify", "unverify", "remove", "previous"),
  phase: fc.constantFrom(...PHASES),
});

describe("published phases", () => {
  it("keep each phase's delta equal to one read from every note's whole history, commit after commit", async () => {
    const store = await getContentStore();
    await getPublishedView();
    vi.useFakeTimers({ toFake: ["Date"] });
    let minutes = 0;
    // The text each note had before its last write: "previous" writes it again (a change back).
    const before = new Map<string, string | null>();
    const current = new Map<string, string | null>();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(op, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 5 }), async (plan) => {
        for (const [k, ops] of plan.entries()) {
          const files: Record<string, string | null> = {};
          for (const { id, action, phase } of ops) {
            const file = `notes/${id}.md`;
            const text =
              action === "remove"
                ? null
                : action === "previous"
                  ? (before.get(id) ?? null)
                  : noteFile(id, `Step ${k} of ${id}.`, { status: action === "verify" ? "verified-checkpoint" : "hypothesis", phase });
            files[file] = text;
          }
          // A minute per commit: a fact's date then says which revision began the run of "verified".
          vi.setSystemTime(Date.UTC(2026, 0, 1) + ++minutes * 60_000);
          const main = await store.resolve("main");
          const revision = await store
            .commit({ ref: "refs/heads/main", expected: main, author: AUTHOR, message: `Step ${k}`, changes: files })
            .catch((e: Error) => (e.name === "NothingToCommitError" ? null : Promise.reject(e)));
          if (!revision) continue;
          for (const id of Object.keys(files).map((f) => f.slice(6, -3))) {
            before.set(id, current.get(id) ?? null);
            current.set(id, files[`notes/${id}.md`] ?? null);
          }

          // The view of exactly this commit: these plain commits verify notes without a reviewer's
          // approval, which the served view refuses (./accepted-main.ts); the deltas are what is tested here.
          const view = deriveView(null, await store.snapshot(revision.commit), parseSite((await store.readFile(revision.commit, SITE_FILE))!));
          const { phases } = await getPublishedPhases(view);
          const facts = await historyFacts(store, view.commit, view.notes);
          for (const p of phases) expect(p.delta, p.phase.name).toEqual(deltaOf(p.phase, facts));
          // The one walk back through the commits reads the same facts as every note's own history.
          // From this process's store, whose snapshots were built going up, and from a store opened afresh,
          // which builds each parent's snapshot from its child's on the way down.
          expect(await walkFacts(store, view.commit, view.notes)).toEqual(facts);
          expect(await walkFacts(openContentStore(process.env.CONTENT_REPO!), view.commit, view.notes)).toEqual(facts);
        }
      }),
      { numRuns: 15 },
    );
    vi.useRealTimers();
  }, 120_000);
});
