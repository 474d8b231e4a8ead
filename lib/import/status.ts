import { STATUSES, type Note, type Status } from "@/lib/notes/schema";
import { checkTransition } from "@/lib/rules/status-machine";

/**
 * Foreign status words (adr-tools, MADR, log4brains, EIP-style) and the status of this archive
 * each one asks for; then the status a record may actually land at, which the status machine
 * decides (docs/decisions/adr-import-mapping.md). An import is nobody's review: it never lands a
 * note past hypothesis, whatever the source said.
 */

export const STATUS_WORDS: Record<string, Status> = {
  draft: "draft",
  stagnant: "draft",
  proposed: "hypothesis",
  "in progress": "hypothesis",
  accepted: "verified-structural",
  approved: "verified-structural",
  adopted: "verified-structural",
  decided: "verified-structural",
  final: "verified-structural",
  living: "verified-structural",
  superseded: "superseded",
  deprecated: "retracted",
  rejected: "retracted",
  withdrawn: "retracted",
};

export type StatusTable = Record<string, Status>;

/** `["Accepted=hypothesis", …]` over the default table; a bad word or status is an error naming it. */
export function statusTable(overrides: readonly string[]): StatusTable {
  const table: StatusTable = { ...STATUS_WORDS };
  for (const o of overrides) {
    const m = /^([^=]+)=(.+)$/.exec(o);
    const status = m?.[2]?.trim() as Status | undefined;
    if (!m || !status || !STATUSES.includes(status)) {
      throw new Error(`--status ${o}: expected Word=status, where status is one of ${STATUSES.join(", ")}`);
    }
    table[statusWord(m[1] ?? "")] = status;
  }
  return table;
}

/** "✅ Accepted", "ACCEPTED.", "superseded by [ADR 3](…)", "Accepted on 2020-01-01" → the table's key. */
export function statusWord(raw: string): string {
  const letters = raw
    .replace(/\[[^\]]*\]\([^)]*\)/g, " ")
    .toLowerCase()
    .replace(/[^\p{L}\s-]/gu, " ")
    .trim();
  if (/^in[ -]progress/.test(letters)) return "in progress";
  return letters.split(/[\s-]+/)[0] ?? "";
}

export type StatusChoice = {
  word: string | null;
  /** What the table asks for (draft when the record has no status or an unknown one). */
  asked: Status;
  landed: Status;
  /** Why `landed` is lower than `asked`, in the status machine's words. */
  why: string[];
};

const IMPORTER = { id: "import", role: "author" } as const;

/**
 * The highest status at or below `asked` the status machine lets `note` reach on the app's road
 * (draft → hypothesis → …) with no review: `published` is the set of notes that land published.
 */
export function landStatus(note: Note, word: string | null, table: StatusTable, published: ReadonlySet<string>): StatusChoice {
  const key = word === null ? null : statusWord(word);
  const asked: Status = key === null ? "draft" : (table[key] ?? "draft");
  const why: string[] = [];
  if (key !== null && table[key] === undefined) why.push(`the status "${word}" is not in the status table; it lands as draft (map it with --status)`);
  if (asked === "draft") return { word, asked, landed: "draft", why };
  const ids = new Set([...published, note.id]);
  const step = (from: Status, to: Status) =>
    checkTransition({
      note: { ...note, status: from },
      to,
      revision: "import",
      revisionAuthors: [],
      reviews: { verdicts: [] },
      actor: IMPORTER,
      publishedIds: ids,
    }).unmet;
  const proposed = step("draft", "hypothesis");
  if (proposed.length) return { word, asked, landed: "draft", why: [...why, ...proposed.map((m) => `${m}, which a hypothesis needs`)] };
  if (asked === "hypothesis") return { word, asked, landed: "hypothesis", why };
  const further = step("hypothesis", asked).map((m) => m.replace("revision import", "the imported revision"));
  if (further.length) return { word, asked, landed: "hypothesis", why: [...why, ...further] };
  return { word, asked, landed: asked, why };
}
