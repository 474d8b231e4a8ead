import { Minimatch } from "minimatch";
import { COMPONENT_PREFIX } from "@/lib/notes/schema";

/**
 * What a note governs (`affects`), as rules: which entries are refused (a glob that matches every
 * path says nothing), whether a code path or a component falls under an entry, and how specific
 * that match is. Pure; shared by the acceptance function, the editor's as-you-type check, the
 * governing answer (lib/agents/governing.ts) and content:check.
 */

const OPTIONS = { dot: true, nocomment: true, nonegate: true } as const;

/**
 * Paths in folders of every kind and depth: a glob matching all of them matches every file that
 * sits in a folder, which is all of a repository's code (`**`, `**\/*`, `*\/**`, `{**,x}`).
 */
const PROBES = ["src/a.ts", ".github/workflows/ci.yml", "a/b/c/d/e/f.rs", "zz9/Makefile", "docs/x y/z"];

export type AffectsEntry = { kind: "component"; name: string } | { kind: "literal"; path: string } | { kind: "glob"; pattern: string; matcher: Minimatch };

export function parseAffectsEntry(entry: string): AffectsEntry {
  if (entry.startsWith(COMPONENT_PREFIX)) return { kind: "component", name: entry.slice(COMPONENT_PREFIX.length) };
  const matcher = new Minimatch(entry, OPTIONS);
  return matcher.hasMagic() ? { kind: "glob", pattern: entry, matcher } : { kind: "literal", path: entry.replace(/\/+$/, "") };
}

/** Each refused entry of a note's `affects` (the schema has already judged their shape). */
export function affectsProblems(affects: readonly string[]): { index: number; message: string }[] {
  return affects.flatMap((entry, index) => {
    const parsed = parseAffectsEntry(entry);
    if (parsed.kind === "glob" && PROBES.every((p) => parsed.matcher.match(p)))
      return [{ index, message: `${JSON.stringify(entry)} matches every path, so it says nothing about what this note governs; name the folders or files` }];
    return [];
  });
}

/**
 * How specifically `entry` matches the repository path `path`, or null when it does not: an exact
 * file beats a folder named literally, which beats a glob; among those, more literal characters
 * (the part that is not a wildcard) is more specific.
 */
export function pathMatch(entry: AffectsEntry, path: string): number | null {
  if (entry.kind === "component") return null;
  if (entry.kind === "literal") {
    if (path === entry.path) return 20_000 + entry.path.length;
    return path.startsWith(`${entry.path}/`) ? 10_000 + entry.path.length : null;
  }
  return entry.matcher.match(path) ? literalLength(entry.pattern) : null;
}

/** Whether `entry` names the component `name` (case and surrounding spaces aside). */
export function componentMatch(entry: AffectsEntry, name: string): boolean {
  return entry.kind === "component" && entry.name.toLowerCase() === name.trim().toLowerCase();
}

function literalLength(pattern: string): number {
  return pattern.replace(/\*\*|[*?[\]{}()!@+|]/g, "").length;
}
