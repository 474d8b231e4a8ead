/**
 * The layer table of ARCHITECTURE.md ("The layers, bottom up"), read as data. ESLint builds its
 * import rules from it (eslint.config.mjs) and a unit test holds every lib folder to one row
 * (scripts/layers.test.ts), so the table and the code cannot disagree: change the table, and the
 * lint changes with it.
 *
 * A row: | layer | where (backticked folders `lib/x/` or files `lib/x.ts`) | owns | may import |.
 * "may import" names other layers, comma-separated; "every layer below" means every row above
 * this one; "nothing" means no other layer. A layer may always import itself. Type-only imports
 * are free: they leave nothing in the bundle and do not tie a module's behaviour to another's.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const HEADING = "## The layers, bottom up";

/** @returns {{ name: string, where: string[], mayImport: string[] }[]} */
export function readLayers(markdown = readFileSync(path.join(ROOT, "ARCHITECTURE.md"), "utf8")) {
  const start = markdown.indexOf(HEADING);
  if (start < 0) throw new Error(`ARCHITECTURE.md has no "${HEADING}" section`);
  const lines = markdown.slice(start).split("\n");
  const first = lines.findIndex((l) => l.startsWith("|"));
  const end = lines.findIndex((l, i) => i > first && !l.startsWith("|"));
  const rows = lines.slice(first, end).filter((line) => !/^\|\s*(layer|---)\s*\|/.test(line));
  const layers = [];
  for (const row of rows) {
    const cells = row
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim());
    if (cells.length !== 4) throw new Error(`ARCHITECTURE.md layer row has ${cells.length} cells, not 4: ${row}`);
    const [name, where, , may] = cells;
    const paths = [...where.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    if (!paths.length) throw new Error(`layer "${name}" names no folder or file`);
    const below = layers.map((l) => l.name);
    const mayImport = may === "nothing" ? [] : may === "every layer below" ? below : may.split(",").map((s) => s.trim());
    // Only rows above: the table is bottom up, so the layers cannot import each other in a circle.
    for (const m of mayImport) if (!below.includes(m)) throw new Error(`layer "${name}" may import "${m}", which is no layer above it in the table`);
    layers.push({ name, where: paths, mayImport });
  }
  return layers;
}

/** The files a layer's paths cover, as ESLint globs. */
export function filesOf(layer) {
  return layer.where.map((p) => (p.endsWith("/") ? `${p}**/*.{ts,tsx}` : p));
}

/** The import specifiers that reach a layer's paths (`@/lib/x`, `@/lib/x/*`; a file without its extension). */
export function importsOf(layer) {
  return layer.where.flatMap((p) => {
    if (p.endsWith("/")) return [`@/${p.slice(0, -1)}`, `@/${p}*`];
    const bare = p.replace(/\.(ts|tsx|mjs)$/, "");
    return [`@/${bare}`];
  });
}
