import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { filesOf, importsOf, readLayers } from "./layers.mjs";

/**
 * ARCHITECTURE.md's layer table is the lint's input (eslint.config.mjs): every module of lib/
 * must sit in exactly one row, or the lint would hold it to nothing.
 */

const root = path.resolve(__dirname, "..");
const layers = readLayers();

function rowsHolding(relative: string): string[] {
  return layers.filter((l) => l.where.some((w) => (w.endsWith("/") ? relative.startsWith(w) : relative === w))).map((l) => l.name);
}

describe("the layer table", () => {
  it("holds every folder and file of lib/ in exactly one row", () => {
    const entries = fs
      .readdirSync(path.join(root, "lib"), { withFileTypes: true })
      .filter((e) => e.isDirectory() || (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)))
      .map((e) => (e.isDirectory() ? `lib/${e.name}/` : `lib/${e.name}`));
    expect(entries.length).toBeGreaterThan(20);
    const misplaced = entries.map((e) => ({ e, rows: rowsHolding(e) })).filter(({ rows }) => rows.length !== 1);
    expect(misplaced).toEqual([]);
  });

  it("lets a layer import only layers above it in the table (bottom up), so the rules cannot form a cycle", () => {
    layers.forEach((layer, i) => {
      const below = layers.slice(0, i).map((l) => l.name);
      for (const name of layer.mayImport) expect(below, `${layer.name} may import ${name}`).toContain(name);
    });
  });

  it("turns a row into the globs and import specifiers ESLint uses", () => {
    const config = layers.find((l) => l.name === "config")!;
    expect(filesOf(config)).toContain("lib/env.ts");
    expect(importsOf(config)).toContain("@/lib/env");
    const review = layers.find((l) => l.name === "review")!;
    expect(filesOf(review)).toEqual(["lib/review/**/*.{ts,tsx}"]);
    expect(importsOf(review)).toEqual(["@/lib/review", "@/lib/review/*"]);
  });

  it("refuses a table that names a layer it does not have, or a row without a place", () => {
    const table = (rows: string) => `## The layers, bottom up\n\n| layer | where | owns | may import |\n| --- | --- | --- | --- |\n${rows}\n\nafter\n`;
    expect(() => readLayers(table("| a | `lib/a/` | x | nothing |\n| b | `lib/b/` | y | a, ghosts |"))).toThrow(/"ghosts", which is no layer above it/);
    expect(() => readLayers(table("| a | `lib/a/` | x | b |\n| b | `lib/b/` | y | nothing |"))).toThrow(/"b", which is no layer above it/);
    expect(() => readLayers(table("| a | lib/a | x | nothing |"))).toThrow(/names no folder or file/);
    expect(readLayers(table("| a | `lib/a/` | x | nothing |\n| b | `lib/b/`, `lib/c.ts` | y | every layer below |"))).toEqual([
      { name: "a", where: ["lib/a/"], mayImport: [] },
      { name: "b", where: ["lib/b/", "lib/c.ts"], mayImport: ["a"] },
    ]);
  });
});
