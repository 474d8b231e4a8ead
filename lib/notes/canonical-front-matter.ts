/**
 * A fast reader for front matter in the exact shape serializeNote writes (YAML's block style:
 * `key: scalar`, `key: []`, `key:` + `  - item` lines, `key:` + `  sub: scalar` lines), used to
 * parse notes without building a YAML document: that document is most of the cost of a cold index.
 * It answers only when it is sure the YAML library would read the same value; on anything else it
 * returns null and the caller uses the YAML library. Errors are always reported by the library.
 */

type Value = string | number | Value[] | { [key: string]: Value };

// Plain scalars the YAML 1.2 core schema would read as something other than a string, and starts
// or contents that change the meaning of a plain scalar: leave all of these to the library.
const NOT_A_PLAIN_STRING = /^(?:~|null|true|false|y|n|yes|no|on|off)$|^[-+.?:,[\]{}#&*!|>'"%@`]|: |\s#|:$|^\s|\s$/i;
// The core schema's numbers (and a margin: anything of a number's shape is left to the library).
const NUMBER_LIKE = /^[-+]?(?:[0-9][0-9_]*|0o[0-7]+|0x[0-9a-f]+|(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:e[-+]?[0-9]+)?|\.inf|\.nan)$/i;
const KEY = /^([a-z_]+):(?: (.*))?$/;
const JSON_ESCAPES = /\\(?!["\\/bfnrt]|u[0-9a-fA-F]{4})/;

function scalar(text: string): Value | undefined {
  if (text.startsWith('"')) {
    if (!text.endsWith('"') || text.length < 2 || JSON_ESCAPES.test(text)) return undefined;
    try {
      const value: unknown = JSON.parse(text);
      return typeof value === "string" ? value : undefined;
    } catch {
      return undefined;
    }
  }
  if (/^(?:0|[1-9][0-9]{0,14})$/.test(text)) return Number(text);
  if (text === "" || NOT_A_PLAIN_STRING.test(text) || NUMBER_LIKE.test(text)) return undefined;
  return text;
}

export function readCanonicalFrontMatter(yaml: string): Record<string, Value> | null {
  const lines = yaml.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const out: Record<string, Value> = {};
  for (let i = 0; i < lines.length; i++) {
    const m = KEY.exec(lines[i] ?? "");
    if (!m) return null;
    const key = m[1] as string;
    if (key in out) return null;
    const rest = m[2];
    if (rest === "[]") {
      out[key] = [];
      continue;
    }
    if (rest !== undefined) {
      const value = scalar(rest);
      if (value === undefined) return null;
      out[key] = value;
      continue;
    }
    // A block: list items or a one-level mapping, indented by two spaces.
    const list: Value[] = [];
    const map: Record<string, Value> = {};
    let kind: "list" | "map" | null = null;
    while (i + 1 < lines.length && (lines[i + 1] ?? "").startsWith("  ")) {
      const line = (lines[++i] ?? "").slice(2);
      if (line.startsWith("- ") && kind !== "map") {
        kind = "list";
        const value = scalar(line.slice(2));
        if (value === undefined) return null;
        list.push(value);
        continue;
      }
      const sub = KEY.exec(line);
      if (!sub || sub[2] === undefined || kind === "list" || sub[1]! in map) return null;
      kind = "map";
      const value = sub[2] === "[]" ? [] : scalar(sub[2]);
      if (value === undefined) return null;
      map[sub[1]!] = value;
    }
    if (kind === null) return null;
    out[key] = kind === "list" ? list : map;
  }
  return out;
}
