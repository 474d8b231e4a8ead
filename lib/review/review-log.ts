import type { ContentStore } from "@/lib/working-copy/content-store";
import { randomBytes } from "node:crypto";
import { RefConflictError, type Oid, type Person } from "@/lib/store/api";
import { reviewRef } from "@/lib/working-copy/layout";
import { LOG_FILE, recordPath, reviewRecordSchema, type ReviewRecord } from "./records";

/**
 * Reading and appending a note's review records on refs/reviews/<id> (layout in ./records). Reads
 * are cached by the ref's commit id (a commit never changes), and each record file by its path
 * (records are immutable), so a new comment costs one file read, not a re-read of the review.
 */

export { REVIEWS_PREFIX, reviewRef } from "@/lib/working-copy/layout";

export type ReviewLog = { head: Oid | null; records: ReviewRecord[]; problems: string[] };

const byHead = new Map<string, ReviewLog>();
const byPath = new Map<string, ReviewRecord | string>();
const MAX_HEADS = 500;

export async function readReviewLog(store: ContentStore, id: string, head?: Oid | null): Promise<ReviewLog> {
  const at = head === undefined ? await store.resolve(reviewRef(id)) : head;
  if (at === null) return { head: null, records: [], problems: [] };
  const key = `${store.gitdir}\0${at}`;
  const cached = byHead.get(key);
  if (cached) return cached;

  const paths = ((await store.readFile(at, LOG_FILE)) ?? "").split("\n").filter((l) => l.trim() !== "");
  const read = await Promise.all(paths.map((p) => recordAt(store, at, p)));
  const log: ReviewLog = {
    head: at,
    records: read.filter((r): r is ReviewRecord => typeof r !== "string"),
    problems: read.filter((r): r is string => typeof r === "string"),
  };
  if (byHead.size >= MAX_HEADS) byHead.delete(byHead.keys().next().value as string);
  byHead.set(key, log);
  return log;
}

/** One record file; a file that is missing or not a record is an explanation (string), never a throw. */
async function recordAt(store: ContentStore, head: Oid, path: string): Promise<ReviewRecord | string> {
  const key = `${store.gitdir}\0${path}`;
  const cached = byPath.get(key);
  if (cached !== undefined) return cached;
  const text = await store.readFile(head, path);
  if (text === null) return `${path} is listed in ${LOG_FILE} but is not in the review`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return `${path} is not JSON: ${(e as Error).message}`;
  }
  const parsed = reviewRecordSchema.safeParse(value);
  const result = parsed.success
    ? parsed.data
    : `${path} is not a review record: ${parsed.error.issues.map((i) => `${i.path.join(".") || "record"}: ${i.message}`).join("; ")}`;
  if (parsed.success && recordPath(parsed.data) !== path) return `${path} does not match its record (expected ${recordPath(parsed.data)})`;
  byPath.set(key, result);
  return result;
}

export const newRecordId = () => randomBytes(6).toString("hex");

const ATTEMPTS = 100;

type Built = { record: ReviewRecord; message: string };

/**
 * Append one record as one commit by `author`. `build` sees the review at the head it is built on
 * and may refuse (throw) there, so a check such as "only the writer edits a comment" holds at the
 * commit that lands. When another writer got in first, the record is rebuilt on the new head and
 * tried again: each record is its own file, so both land. Built on `from` first, when given: a
 * head that moved since is a conflict like any other, and the retry reads the new one.
 */
export async function appendRecord(
  store: ContentStore,
  id: string,
  author: Person,
  build: (log: ReviewLog) => Built | Promise<Built>,
  /** The review ref's head this request already read (its one read of the refs); a retry reads the ref anew. */
  from?: Oid | null,
): Promise<{ record: ReviewRecord; head: Oid }> {
  const ref = reviewRef(id);
  for (let attempt = 1; ; attempt++) {
    const log = await readReviewLog(store, id, attempt === 1 ? from : undefined);
    const { record, message } = await build(log);
    const path = recordPath(record);
    const listed = log.head === null ? "" : ((await store.readFile(log.head, LOG_FILE)) ?? "");
    try {
      const commit = await store.commit({
        ref,
        expected: log.head,
        author,
        message,
        changes: { [path]: `${JSON.stringify(record, null, 2)}\n`, [LOG_FILE]: `${listed}${path}\n` },
      });
      return { record, head: commit.commit };
    } catch (e) {
      if (!(e instanceof RefConflictError) || attempt >= ATTEMPTS) throw e;
      // Someone else's record landed first: wait a moment (less likely to collide again), then rebuild on theirs.
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, attempt * 5)));
    }
  }
}
