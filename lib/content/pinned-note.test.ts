import { describe, expect, it } from "vitest";
import { mainRevOf } from "./pinned-note";

/** Which commit of main's first-parent line a `rev` names, as a table: full ids, prefixes, ambiguity, what is no commit. */

const line = (...commits: string[]) => ({ commits, set: new Set(commits) });
const a = `abcdef1${"0".repeat(33)}`;
const b = `abcdef1${"1".repeat(33)}`;
const c = `1234567${"2".repeat(33)}`;
const main = line(a, b, c);

describe("mainRevOf", () => {
  it.each([
    ["a full id on the line", a, { ok: true, commit: a }],
    ["a unique prefix of 7", "1234567", { ok: true, commit: c }],
    ["a unique prefix that tells two apart", "abcdef11", { ok: true, commit: b }],
  ])("%s names that commit", (_, rev, expected) => expect(mainRevOf(rev, main)).toEqual(expected));

  it.each([
    ["an ambiguous prefix", "abcdef1", /abcdef1 is ambiguous: 2 commits of main start with it \(abcdef100000, abcdef111111\); give more digits/],
    ["a prefix of no commit", "fedcba9", /no commit main has been at starts with fedcba9/],
    ["a full id main never had", "f".repeat(40), /main has never been at commit f{40}/],
    ["six digits", "abcdef", /"abcdef" is not a commit: give 7 to 40 hex digits/],
    ["upper case", "ABCDEF1", /"ABCDEF1" is not a commit/],
    ["a ref name", "main", /"main" is not a commit/],
    ["41 digits", `${a}0`, /is not a commit/],
  ])("%s names none, and says why", (_, rev, problem) => {
    const found = mainRevOf(rev, main);
    expect(found.ok).toBe(false);
    expect(found.ok ? "" : found.problem).toMatch(problem);
  });
});
