import { governingText } from "./governing";
import type { GoverningDocument } from "./schemas";

/**
 * `npm run governing -- --diff <file> [--base-url URL] [--format text|json|github]`, as functions:
 * the arguments, the three output formats and the exit code a CI job reads. The script
 * (scripts/governing.ts) only wires these to the process; tests call `runGoverning` with a fetch
 * that reaches the route in-process.
 */

export const EXIT = { clear: 0, needsReview: 1, failed: 2 } as const;
export const FORMATS = ["text", "json", "github"] as const;
export type Format = (typeof FORMATS)[number];

export type Args = { diff: string; baseUrl: string; format: Format };

export function parseArgs(argv: readonly string[], env: Record<string, string | undefined>): { ok: true; args: Args } | { ok: false; error: string } {
  let diff: string | null = null;
  let baseUrl = env.GOVERNING_BASE_URL ?? env.SITE_URL ?? "http://localhost:3000";
  let format: Format = "text";
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === "--diff" || flag === "--base-url" || flag === "--format") {
      if (value === undefined) return { ok: false, error: `${flag} needs a value` };
      i++;
      if (flag === "--diff") diff = value;
      else if (flag === "--base-url") baseUrl = value;
      else if ((FORMATS as readonly string[]).includes(value)) format = value as Format;
      else return { ok: false, error: `--format ${value}: one of ${FORMATS.join(", ")}` };
    } else return { ok: false, error: `unknown argument ${JSON.stringify(flag)}` };
  }
  if (diff === null)
    return { ok: false, error: "--diff <file> is required (a unified diff, e.g. `git diff origin/main... > change.diff`; - reads standard input)" };
  try {
    new URL(baseUrl);
  } catch {
    return { ok: false, error: `--base-url ${JSON.stringify(baseUrl)} is not a URL` };
  }
  return { ok: true, args: { diff, baseUrl: baseUrl.replace(/\/+$/, ""), format } };
}

/** The exit code: whether any governing note is a verified structural decision or pinned, not supported. */
export function exitCodeOf(doc: GoverningDocument): number {
  return doc.needs_human_review ? EXIT.needsReview : EXIT.clear;
}

export function formatGoverning(doc: GoverningDocument, format: Format): string {
  if (format === "json") return `${JSON.stringify(doc, null, 2)}\n`;
  if (format === "text") return `${governingText(doc)}\n`;
  return githubAnnotations(doc);
}

/**
 * One GitHub Actions workflow command per matched file (`::error file=…,title=…::…` when a note
 * governing it needs a human look, `::notice` otherwise), escaped as the runner reads them: `%`,
 * CR and LF in the message; those and `:` and `,` in a property.
 */
export function githubAnnotations(doc: GoverningDocument): string {
  const byFile = new Map<string, { notes: GoverningDocument["notes"]; replaced: GoverningDocument["replaced"] }>();
  const at = (path: string) => byFile.get(path) ?? byFile.set(path, { notes: [], replaced: [] }).get(path)!;
  for (const n of doc.notes) for (const m of n.matched) if (!m.path.startsWith("component:")) at(m.path).notes.push(n);
  for (const r of doc.replaced) for (const m of r.matched) if (!m.path.startsWith("component:")) at(m.path).replaced.push(r);
  const lines: string[] = [];
  for (const [file, { notes, replaced }] of byFile) {
    const review = notes.some((n) => n.needs_human_review);
    const level = review ? "error" : notes.length ? "warning" : "notice";
    const title = notes.length
      ? `Governed by ${notes.map((n) => n.id).join(", ")}${review ? " (needs a human look)" : ""}`
      : `Governed only by notes no longer in force (${replaced.map((r) => r.id).join(", ")})`;
    const message = [
      ...notes.map(
        (n) =>
          `${n.id} (${n.status}${n.boundaries.length ? `; ${n.boundaries.map((b) => b.boundary).join(", ")}` : ""}): ${n.title}\nInvariant: ${flat(n.invariant) || "(none written)"}\nCite: ${n.urls.invariant}`,
      ),
      ...replaced.map((r) => `${r.id} is ${r.status}${r.superseded_by ? `; read ${r.superseded_by} instead` : ""}`),
    ].join("\n");
    lines.push(`::${level} file=${property(file)},title=${property(title)}::${data(message)}`);
  }
  if (!lines.length)
    lines.push(`::notice title=${property("No governing decisions")}::${data(`No published note governs the ${doc.paths.length} changed files.`)}`);
  return `${lines.join("\n")}\n`;
}

const data = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const property = (s: string) => data(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
const flat = (s: string) => s.replace(/\s+/g, " ").trim();

/** The CLI's whole run, with its outside world passed in: what it prints and the code it exits with. */
export async function runGoverning(
  argv: readonly string[],
  io: {
    env: Record<string, string | undefined>;
    readFile: (path: string) => Promise<string>;
    fetch: typeof fetch;
    out: (s: string) => void;
    err: (s: string) => void;
  },
): Promise<number> {
  const parsed = parseArgs(argv, io.env);
  if (!parsed.ok) {
    io.err(`${parsed.error}\nusage: npm run governing -- --diff <file|-> [--base-url URL] [--format text|json|github]\n`);
    return EXIT.failed;
  }
  const { diff: file, baseUrl, format } = parsed.args;
  let diff: string;
  try {
    diff = await io.readFile(file);
  } catch (e) {
    io.err(`cannot read the diff ${file}: ${(e as Error).message}\n`);
    return EXIT.failed;
  }
  let res: Response;
  try {
    res = await io.fetch(`${baseUrl}/agents/governing.json`, {
      method: "POST",
      body: diff,
      headers: { "content-type": "text/x-diff", accept: "application/json" },
    });
  } catch (e) {
    io.err(`cannot reach ${baseUrl}: ${(e as Error).message}\n`);
    return EXIT.failed;
  }
  const body = (await res.json().catch(() => null)) as (GoverningDocument & { error?: string }) | null;
  if (!res.ok || !body || body.error) {
    io.err(`${baseUrl}/agents/governing.json answered ${res.status}: ${body?.error ?? "an unreadable body"}\n`);
    return EXIT.failed;
  }
  io.out(formatGoverning(body, format));
  return exitCodeOf(body);
}
