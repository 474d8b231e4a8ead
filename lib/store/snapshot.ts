import { LRUCache } from "lru-cache";
import { eachLimit } from "./concurrency";
import type { Repo } from "./repo";
import { isDir, type TreeEntry } from "./tree";
import type { NoteParser, Oid, Parsed, Snapshot, StoredNote } from "./types";

/**
 * Every note at a commit, parsed. Snapshots are cached by commit; parsed notes by blob id, so a new
 * commit that changes one note parses that one note: its notes/ tree is compared entry by entry
 * with its parent's snapshot (or else the last one built), unchanged entries are reused, and only
 * new blob ids are read.
 */

export const NOTES_DIR = "notes";

type Built<N> = { snapshot: Snapshot<N>; notesTree: Oid | null; byName?: Map<string, StoredNote<N>> };

const READ_CONCURRENCY = 32;

export class Snapshots<N> {
  private readonly byCommit = new LRUCache<Oid, Built<N>>({ maxSize: 200_000, sizeCalculation: (b) => Math.max(1, b.snapshot.notes.length) });
  // By blob id: the read model relies on "same blob, same parsed object" to skip unchanged notes.
  private readonly parsed = new LRUCache<Oid, Parsed<N>>({ max: 50_000 });
  private readonly building = new Map<Oid, Promise<Built<N>>>();
  private last: Built<N> | null = null;
  readonly counters = { notesParsed: 0, snapshotsBuilt: 0 };

  constructor(
    private readonly repo: Repo,
    private readonly parseNote: NoteParser<N>,
  ) {}

  async get(commit: Oid): Promise<Snapshot<N>> {
    return (await this.built(commit)).snapshot;
  }

  /** The note at `name` (e.g. "AFN-016.md") if that commit's snapshot is cached, else undefined. */
  cachedNote(commit: Oid, name: string): StoredNote<N> | null | undefined {
    const built = this.byCommit.get(commit);
    return built ? (byName(built).get(name) ?? null) : undefined;
  }

  async note(name: string, blob: Oid): Promise<StoredNote<N>> {
    return stored(name, blob, await this.parse(blob));
  }

  /** Parse results known from elsewhere (see ContentStore.seedParsed); a blob already parsed here keeps its object. */
  seed(entries: Iterable<readonly [Oid, Parsed<N>]>): void {
    for (const [blob, result] of entries) if (!this.parsed.get(blob)) this.parsed.set(blob, result);
  }

  private built(commit: Oid): Promise<Built<N>> {
    const hit = this.byCommit.get(commit);
    if (hit) return Promise.resolve(hit);
    let pending = this.building.get(commit);
    if (!pending) {
      pending = this.build(commit).finally(() => this.building.delete(commit));
      this.building.set(commit, pending);
    }
    return pending;
  }

  private async build(commit: Oid): Promise<Built<N>> {
    const c = await this.repo.commit(commit);
    if (!c) throw new Error(`${commit} is not a commit`);
    const entry = (await this.repo.tree(c.tree)).get(NOTES_DIR);
    const notesTree = entry && isDir(entry) ? entry.oid : null;
    // Diff against the parent's snapshot when it is cached (the usual case after a save), else the last one built.
    const base = (c.parents[0] ? this.byCommit.get(c.parents[0]) : undefined) ?? this.last;
    let notes: StoredNote<N>[];
    let delta: Snapshot<N>["delta"];
    let names: Map<string, StoredNote<N>> | undefined;
    if (notesTree === null) notes = [];
    else if (base && base.notesTree === notesTree) {
      notes = base.snapshot.notes;
      delta = { from: base.snapshot.commit, changed: [], removed: [] };
      names = base.byName;
    } else {
      const previous = base ? byName(base) : new Map<string, StoredNote<N>>();
      const entries = (await this.repo.tree(notesTree)).entries;
      const slots: (StoredNote<N> | TreeEntry)[] = [];
      const changed: number[] = [];
      let kept = 0;
      // Unchanged entries (same name, same blob) are reused in one synchronous pass; only the rest
      // are read and parsed.
      for (const e of entries) {
        if (!isNoteFile(e)) continue;
        const same = previous.get(e.name);
        if (same) kept++;
        if (same && same.blob === e.oid) slots.push(same);
        else changed.push(slots.push(e) - 1);
      }
      await eachLimit(changed, READ_CONCURRENCY, async (i) => {
        const e = slots[i] as TreeEntry;
        slots[i] = await this.note(e.name, e.oid);
      });
      notes = slots as StoredNote<N>[];
      if (base) {
        const fresh = changed.map((i) => notes[i]!);
        // Every name of the base still here (the usual case): nothing was removed, and no set of names is needed.
        const removed = kept === previous.size ? [] : removedFrom(previous, notes);
        delta = { from: base.snapshot.commit, changed: fresh, removed };
        // The next commit diffs against this one by name: patch the base's names rather than slicing 10,000 paths again.
        names = new Map(previous);
        for (const n of removed) names.delete(fileName(n));
        for (const n of fresh) names.set(fileName(n), n);
      }
    }
    const built: Built<N> = { snapshot: delta ? { commit, notes, delta } : { commit, notes }, notesTree, byName: names };
    this.counters.snapshotsBuilt++;
    this.byCommit.set(commit, built);
    this.last = built;
    return built;
  }

  private async parse(blob: Oid): Promise<Parsed<N>> {
    const hit = this.parsed.get(blob);
    if (hit) return hit;
    const bytes = await this.repo.db.readType(blob, "blob");
    const text = bytes === null ? unreadable(`blob ${blob} is missing from the repository`) : decode(bytes);
    const result = typeof text === "string" ? this.parseNote(text) : text;
    this.counters.notesParsed++;
    this.parsed.set(blob, result);
    return result;
  }
}

const isNoteFile = (e: TreeEntry) => (e.mode === "100644" || e.mode === "100755") && e.name.endsWith(".md") && e.name.length > 3;

const fileName = (n: StoredNote<unknown>) => n.path.slice(NOTES_DIR.length + 1);

function byName<N>(built: Built<N>): Map<string, StoredNote<N>> {
  built.byName ??= new Map(built.snapshot.notes.map((n) => [fileName(n), n]));
  return built.byName;
}

function removedFrom<N>(previous: Map<string, StoredNote<N>>, notes: StoredNote<N>[]): StoredNote<N>[] {
  const here = new Set(notes.map(fileName));
  return [...previous].filter(([name]) => !here.has(name)).map(([, n]) => n);
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The file's text, or why there is none: bytes that are not UTF-8 never reach the parser. */
function decode(bytes: Uint8Array): string | Parsed<never> {
  try {
    return utf8.decode(bytes);
  } catch {
    return unreadable("the file is not valid UTF-8 text");
  }
}

const unreadable = (message: string): Parsed<never> => ({ ok: false, errors: [{ line: 1, field: "file", message }] });

function stored<N>(name: string, blob: Oid, result: Parsed<N>): StoredNote<N> {
  const base = { path: `${NOTES_DIR}/${name}`, id: name.slice(0, -3), blob };
  return result.ok ? { ...base, ok: true, note: result.note } : { ...base, ok: false, errors: result.errors };
}
