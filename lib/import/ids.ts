import { NOTE_ID } from "@/lib/notes/schema";

/**
 * Note ids for imported records, and the resolver that turns the source's links (`0003-x.md`,
 * `../adr/0003-x.md#y`, `ADR-3`, `3`) into them. Pure.
 */

/** One record as the id allocator sees it, in the order the records first appeared in the source. */
export type IdRequest = { key: string; number: number | null; names: readonly string[] };

export type IdChoice = { key: string; id: string; source: number | null; renumbered: string | null };

export type IdOptions = {
  /** `--prefix ADR`: keep the source's numbers as ADR-001…; null: renumber into the archive's sequence. */
  prefix: string | null;
  /** The archive's own prefix (AFN) and the ids it already holds, anywhere (main, drafts, reviews, discarded). */
  archivePrefix: string;
  taken: ReadonlySet<string>;
};

const pad = (n: number) => String(n).padStart(3, "0");

export function assignIds(records: readonly IdRequest[], opts: IdOptions): IdChoice[] {
  const taken = new Set(opts.taken);
  const prefix = opts.prefix ?? opts.archivePrefix;
  const numbersOf = (p: string) => [...taken].filter((id) => id.startsWith(`${p}-`)).map((id) => Number(id.slice(p.length + 1)));
  let next = Math.max(0, ...numbersOf(prefix)) + 1;
  const out: IdChoice[] = [];
  // With a prefix, every record that keeps its own number claims it first, so a renumbered
  // duplicate never takes the number of a record that comes later in the source.
  if (opts.prefix !== null) {
    for (const r of records) if (r.number !== null) next = Math.max(next, r.number + 1);
  }
  for (const r of records) {
    if (opts.prefix !== null && r.number !== null) {
      const id = `${prefix}-${pad(r.number)}`;
      if (!taken.has(id)) {
        taken.add(id);
        out.push({ key: r.key, id, source: r.number, renumbered: null });
        continue;
      }
      const id2 = `${prefix}-${pad(next++)}`;
      taken.add(id2);
      const owner = out.find((o) => o.id === id);
      const why = owner ? `number ${r.number} is also claimed by ${owner.key}, which came first` : `${id} is already a note of the archive`;
      out.push({ key: r.key, id: id2, source: r.number, renumbered: why });
      continue;
    }
    let id = `${prefix}-${pad(next++)}`;
    while (taken.has(id)) id = `${prefix}-${pad(next++)}`;
    taken.add(id);
    const why = opts.prefix !== null ? "the record has no number of its own" : null;
    out.push({ key: r.key, id, source: r.number, renumbered: why });
  }
  for (const o of out) if (!NOTE_ID.test(o.id)) throw new Error(`--prefix ${opts.prefix}: ${o.id} is not a note id (expected letters and digits, like ADR)`);
  return out;
}

/** A link target as written → the note id of the record it names, or null. */
export function linkResolver(records: readonly IdRequest[], ids: readonly IdChoice[]): (target: string) => string | null {
  const byName = new Map<string, string>();
  const byNumber = new Map<number, string>();
  const idOf = new Map(ids.map((c) => [c.key, c.id]));
  for (const r of records) {
    const id = idOf.get(r.key);
    if (!id) continue;
    for (const n of r.names) {
      const base = baseName(n);
      byName.set(base, id);
      byName.set(base.replace(/\.(md|markdown)$/, ""), id);
    }
    if (r.number !== null && !byNumber.has(r.number)) byNumber.set(r.number, id);
  }
  return (target) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // another site's page, not a record here
    const t = baseName(decodeURIComponentSafe(target.split("#")[0] ?? ""));
    if (!t) return null;
    const named = byName.get(t) ?? byName.get(t.replace(/\.(md|markdown|html)$/, ""));
    if (named) return named;
    const n = /^(?:adr[-_ ]?)?0*(\d+)$/i.exec(t);
    return n ? (byNumber.get(Number(n[1])) ?? null) : null;
  };
}

const baseName = (p: string) => (p.split("/").pop() ?? "").toLowerCase().trim();

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
