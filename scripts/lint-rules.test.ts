import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The layer rules in eslint.config.mjs, held to what they promise: a forbidden import or an import
 * cycle fails `npm run lint` (which `npm test` runs), and a type-only import across layers does not.
 */

const root = path.resolve(__dirname, "..");
const eslint = new ESLint({ cwd: root });
const fixture = path.join(root, "lib", "lint-fixture-cycle");

// The import rules read files from disk, so each sample is a real file, removed at once.
async function problems(dir: string, code: string): Promise<string[]> {
  const file = path.join(root, dir, `lint-fixture-${process.pid}.tsx`);
  fs.writeFileSync(file, code);
  try {
    const [result] = await eslint.lintFiles([file]);
    return (result?.messages ?? []).filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
  } finally {
    fs.rmSync(file, { force: true });
  }
}

afterAll(() => fs.rmSync(fixture, { recursive: true, force: true }));

// The first lint builds import/no-cycle's map of the whole project: 2 s on a quiet machine, 80 s
// once under CI's load (beyond the suite's 60 s). A time limit here is not what the test checks.
describe("layer rules", { timeout: 300_000 }, () => {
  it("refuses the store, a domain service or fs in browser code, but lets a type through", async () => {
    expect(await problems("components", 'import { createContentStore } from "@/lib/store";\nexport const s = createContentStore;\n')).toEqual([
      expect.stringContaining("no-restricted-imports"),
    ]);
    expect(await problems("lib/queries", 'import { saveDraft } from "@/lib/studio/save-draft";\nexport const s = saveDraft;\n')).toHaveLength(1);
    expect(await problems("components", 'import type { NoteView } from "@/lib/studio/note-view";\nexport type V = NoteView;\n')).toEqual([]);
    expect(
      await problems("components", 'import { getContentStore } from "@/lib/working-copy/content-store";\nexport const s = getContentStore;\n'),
    ).toHaveLength(1);
  });

  it("keeps the rules pure and the store at the bottom", async () => {
    expect(await problems("lib/rules", 'import fs from "node:fs";\nexport const f = fs;\n')).toHaveLength(1);
    expect(await problems("lib/notes", 'import { createContentStore } from "@/lib/store";\nexport const s = createContentStore;\n')).toHaveLength(1);
    expect(await problems("lib/store", 'import { saveDraft } from "@/lib/studio/save-draft";\nexport const s = saveDraft;\n')).toHaveLength(1);
    expect(await problems("lib/rules", 'import { z } from "zod";\nexport const s = z.string();\n')).toEqual([]);
    expect(await problems("lib/rules", 'import * as git from "isomorphic-git";\nexport const g = git;\n')).toHaveLength(1);
    expect(await problems("lib/rules", 'import { createContentStore } from "@/lib/store";\nexport const s = createContentStore;\n')).toHaveLength(1);
    // The store knows git, not notes: the parser is handed to it (lib/working-copy/content-store.ts).
    expect(await problems("lib/store", 'import { parseNote } from "@/lib/notes/markdown";\nexport const p = parseNote;\n')).toHaveLength(1);
    expect(await problems("lib/store", 'import { MAIN_REF } from "@/lib/working-copy/layout";\nexport const m = MAIN_REF;\n')).toHaveLength(1);
  });

  it("holds each layer to the table in ARCHITECTURE.md", async () => {
    // Webhooks sit below review; review below content; accounts know no working copy.
    expect(await problems("lib/webhooks", 'import { readReview } from "@/lib/review/read-review";\nexport const r = readReview;\n')).toEqual([
      expect.stringContaining("webhooks may not import review"),
    ]);
    expect(await problems("lib/review", 'import { publishNote } from "@/lib/studio/publish-note";\nexport const p = publishNote;\n')).toHaveLength(1);
    expect(await problems("lib/auth", 'import { getContentStore } from "@/lib/working-copy/content-store";\nexport const s = getContentStore;\n')).toHaveLength(
      1,
    );
    // The web's words are pure: the configuration (a root file of lib/) is a layer above them.
    expect(await problems("lib/web", 'import { config } from "@/lib/env";\nexport const c = config;\n')).toEqual([
      expect.stringContaining("words may not import config"),
    ]);
    // What the table allows passes.
    expect(await problems("lib/content", 'import { readReviewLog } from "@/lib/review/review-log";\nexport const r = readReviewLog;\n')).toEqual([]);
  });

  it("refuses a ref name spelled outside the repository's layout", async () => {
    for (const code of [
      'export const main = "refs/heads/main";\n',
      "export const draft = (id: string) => `refs/heads/drafts/${id}`;\n",
      'export const review = (id: string) => "refs/reviews/" + id;\n',
    ]) {
      expect(await problems("lib/content", code)).toEqual([expect.stringContaining("no-restricted-syntax")]);
    }
    // Other refs and the word "main" are not the layout's business.
    expect(await problems("lib/content", 'export const refs = ["refs/heads/", "main", "refs/tags/v1"];\n')).toEqual([]);
  });

  it("keeps MiniSearch out of the app: search runs on its own index", async () => {
    const sample = 'import MiniSearch from "minisearch";\nexport const m = MiniSearch;\n';
    expect(await problems("lib/search", sample)).toEqual([expect.stringContaining("no-restricted-imports")]);
    expect(await problems("lib/testing", sample)).toEqual([]);
  });

  it("refuses localeCompare with a locale or options (a collator per call), not a plain one", async () => {
    expect(await problems("lib/public", 'export const s = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });\n')).toEqual([
      expect.stringContaining("a collator made once"),
    ]);
    expect(await problems("lib/public", "export const s = (a: string, b: string) => a.localeCompare(b);\n")).toEqual([]);
  });

  it("fails on an import cycle", async () => {
    fs.mkdirSync(fixture, { recursive: true });
    fs.writeFileSync(path.join(fixture, "a.ts"), 'import { b } from "@/lib/lint-fixture-cycle/b";\nexport const a = (): number => b();\n');
    fs.writeFileSync(path.join(fixture, "b.ts"), 'import { a } from "@/lib/lint-fixture-cycle/a";\nexport const b = (): number => a();\n');
    const [result] = await eslint.lintFiles([path.join(fixture, "a.ts")]);
    expect(result?.messages.map((m) => m.ruleId)).toContain("import/no-cycle");
  });
});
