/**
 * The repository paths a unified diff touches, read by git's own rules: `diff --git a/… b/…`
 * headers, `--- a/…` / `+++ b/…` lines (`/dev/null` for a side that does not exist), `rename` and
 * `copy` lines, and C-style quoted names ("a/x\ty", octal escapes for bytes). Hunk bodies are
 * skipped by their line counts, so a removed line that reads "-- x" is never taken for a header.
 * A plain `diff -u` (no `a/` `b/` prefixes) is read too. Pure; used by /agents/governing.json's
 * POST, the MCP tool governing_notes and `npm run governing`.
 */

export type DiffPaths = { ok: true; paths: string[] } | { ok: false; error: string };

type FilePaths = { old: string | null; new: string | null; header: string | null };

const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

export function changedPaths(diff: string): DiffPaths {
  const lines = diff.replace(/\r\n?/g, "\n").split("\n");
  const files: FilePaths[] = [];
  let file: FilePaths | null = null;
  const open = (): FilePaths => {
    if (!file) files.push((file = { old: null, new: null, header: null }));
    return file;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line.startsWith("diff --git ")) {
      files.push((file = { old: null, new: null, header: line.slice("diff --git ".length) }));
      continue;
    }
    const hunk = HUNK.exec(line);
    if (hunk) {
      // Skip the hunk's body by its counts (a missing count is 1).
      let old = Number(hunk[1] ?? 1);
      let added = Number(hunk[2] ?? 1);
      while ((old > 0 || added > 0) && i + 1 < lines.length) {
        const body = lines[i + 1] ?? "";
        if (body.startsWith("\\")) {
          i++;
          continue;
        }
        if (body.startsWith("-")) old--;
        else if (body.startsWith("+")) added--;
        else if (body.startsWith(" ") || body === "") {
          old--;
          added--;
        } else break;
        i++;
      }
      continue;
    }
    if (line.startsWith("--- ")) {
      // A `---` after a complete pair starts the next file of a diff without `diff --git` headers.
      if (file && (file.old !== null || file.new !== null) && !file.header) file = null;
      const f = open();
      f.old = sidePath(line.slice(4), "a/");
    } else if (line.startsWith("+++ ")) open().new = sidePath(line.slice(4), "b/");
    else if (line.startsWith("rename from ") || line.startsWith("copy from ")) open().old = unquote(line.slice(line.indexOf(" from ") + 6));
    else if (line.startsWith("rename to ") || line.startsWith("copy to ")) open().new = unquote(line.slice(line.indexOf(" to ") + 4));
  }
  const paths = new Set<string>();
  for (const f of files) {
    const named = [f.new, f.old].filter((p): p is string => p !== null && p !== "");
    if (!named.length && f.header) named.push(...headerPaths(f.header));
    for (const p of named) paths.add(p);
  }
  if (!files.length) return { ok: false, error: "no file in this diff: expected a unified diff with `diff --git a/… b/…` or `--- a/…` and `+++ b/…` lines" };
  return { ok: true, paths: [...paths] };
}

/** The path on one side of a `---`/`+++` line: null for /dev/null; a trailing tab and timestamp dropped. */
function sidePath(text: string, prefix: "a/" | "b/"): string | null {
  const name = text.startsWith('"') ? unquote(text) : (text.split("\t")[0] ?? "").trimEnd();
  if (name === "/dev/null") return null;
  return stripPrefix(name, prefix);
}

function stripPrefix(name: string, prefix: string): string {
  return name.startsWith(prefix) ? name.slice(prefix.length) : name.replace(/^\.?\//, "");
}

/**
 * The paths of a `diff --git` header when no other line names them (a binary file, a mode change):
 * both quoted, or the same name on both sides (`a/X b/X`), as git itself reads it.
 */
function headerPaths(header: string): string[] {
  if (header.startsWith('"')) {
    const end = closingQuote(header);
    const a = unquote(header.slice(0, end + 1));
    const b = unquote(header.slice(end + 1).trim());
    return [...new Set([stripPrefix(a, "a/"), stripPrefix(b, "b/")])];
  }
  const half = (header.length - 1) / 2;
  const a = header.slice(0, half);
  const b = header.slice(half + 1);
  if (Number.isInteger(half) && a.startsWith("a/") && b.startsWith("b/") && a.slice(2) === b.slice(2)) return [a.slice(2)];
  const quoted = header.indexOf(' "');
  if (quoted > 0) return [...new Set([stripPrefix(header.slice(0, quoted), "a/"), stripPrefix(unquote(header.slice(quoted + 1)), "b/")])];
  return [];
}

function closingQuote(text: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };

/** A C-style quoted name as git writes it (octal escapes are the bytes of UTF-8); other text as is. */
function unquote(text: string): string {
  if (!text.startsWith('"')) return text;
  const bytes: number[] = [];
  const end = closingQuote(text);
  for (let i = 1; i < end; i++) {
    const c = text[i] as string;
    if (c !== "\\") {
      bytes.push(...new TextEncoder().encode(c));
      continue;
    }
    const next = text[i + 1] ?? "";
    const octal = /^[0-7]{3}/.exec(text.slice(i + 1, i + 4));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 3;
    } else {
      bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}
