import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The e2e specs share one server and one content repository, and several commit notes with plain
 * git under ids of their own (RCX-961, PFX-957, …; the studio allocates only AFN-). A note new to
 * main takes a place in the editorial order no other note holds (rule `order`), and the specs give
 * each such note the place of its number. Two files claiming one number made the rules refuse a
 * commit, and every publish after it waited unserved (session 14). So each number is one file's.
 */

const E2E = path.resolve(__dirname, "..", "e2e");

function claims(): Map<number, Set<string>> {
  const byNumber = new Map<number, Set<string>>();
  for (const file of fs.readdirSync(E2E).filter((f) => f.endsWith(".ts"))) {
    const text = fs.readFileSync(path.join(E2E, file), "utf8");
    const numbers = [...text.matchAll(/\b(?!AFN-)[A-Z]{3}-(\d{3,})\b/g), ...text.matchAll(/\border: (\d+)\b/g)].map((m) => Number(m[1]));
    for (const n of new Set(numbers)) byNumber.set(n, (byNumber.get(n) ?? new Set()).add(file));
  }
  return byNumber;
}

describe("e2e specs' own note ids", () => {
  it("give each number (and so each place in the editorial order) to one spec file only", () => {
    const shared = [...claims()].filter(([, files]) => files.size > 1).map(([n, files]) => `${n}: ${[...files].sort().join(", ")}`);
    expect(shared).toEqual([]);
  });

  it("finds the ids the specs use", () => {
    expect(claims().get(961)).toEqual(new Set(["read-cache.spec.ts"]));
  });
});
