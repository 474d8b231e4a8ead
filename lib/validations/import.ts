import { z } from "zod";
import { STATUSES } from "@/lib/notes/schema";

/**
 * The studio's import form (/studio/import) and its endpoints (/api/studio/import/…): the body's
 * shape, and the rules on its fields, which the form checks beside each field and the server
 * checks again (a rule broken is a 422 naming the field, lib/import/studio-import.ts).
 */

/** An uploaded zip's id, as POST /api/studio/import/uploads answers it. */
export const UPLOAD_ID = /^[0-9a-f]{16}$/;

export const importRequest = z
  .object({
    source: z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("url"), url: z.string().max(2000, "at most 2,000 characters") }).strict(),
      z.object({ kind: z.literal("upload"), upload: z.string().regex(UPLOAD_ID, "an upload's id, as the upload answered it") }).strict(),
    ]),
    /** The folder of records inside the source; empty: found by itself (`--path`). */
    path: z.string().max(300, "at most 300 characters").default(""),
    /** Keep the source's numbers under this prefix (`--prefix`), unless `renumber`. */
    prefix: z.string().max(12, "at most 12 characters").default("ADR"),
    renumber: z.boolean().default(false),
    /** `Word=status` overrides of the status table (`--status`). */
    status: z.array(z.string().max(200, "at most 200 characters")).max(50, "at most 50 overrides").default([]),
    /** Move main to the import when content:check over it is clean (`--publish`). */
    publish: z.boolean().default(false),
  })
  .strict();
export type ImportRequest = z.input<typeof importRequest>;
export type ImportFields = z.output<typeof importRequest>;

/** A field of the form and what is wrong with it (the API's `where`). */
export type FieldProblem = { field: string; message: string };

const SCHEMES = ["https", "http", "git"];

/**
 * A repository URL the server may clone, or why not: https://, http://, git://; file:// (a path on
 * the server) only when the server allows local paths (IMPORT_ALLOW_LOCAL=1). Everything else (ssh,
 * git's ext:: transport, a bare path, an option) is refused.
 */
export function importUrlProblem(raw: string, allowLocal: boolean): string | null {
  const url = raw.trim();
  if (!url) return "enter a repository URL (https://…) or upload a zip of the folder";
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (!scheme) return `"${url.slice(0, 100)}" is not a repository URL: it starts with https://, http:// or git://`;
  if (scheme === "file") return allowLocal ? null : "file:// (a folder on the server) is refused unless the server sets IMPORT_ALLOW_LOCAL=1";
  if (!SCHEMES.includes(scheme)) return `${scheme}:// is not read by the import: use https://, http:// or git://`;
  if (/\s/.test(url)) return "a URL has no spaces";
  try {
    if (!new URL(url).hostname) return `"${url.slice(0, 100)}" names no host`;
  } catch {
    return `"${url.slice(0, 100)}" is not a well-formed URL`;
  }
  return null;
}

/** Every problem of the form's fields, each with the field it belongs beside. */
export function importFieldProblems(body: ImportFields, allowLocal: boolean): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (body.source.kind === "url") {
    const problem = importUrlProblem(body.source.url, allowLocal);
    if (problem) problems.push({ field: "source.url", message: problem });
  }
  const folder = body.path.trim();
  if (folder.startsWith("/") || folder.split(/[\\/]/).includes("..")) {
    problems.push({ field: "path", message: "a folder inside the source, like docs/adr (no leading /, no ..)" });
  }
  if (!body.renumber && !/^[A-Z][A-Z0-9]*$/.test(body.prefix)) {
    problems.push({ field: "prefix", message: "capital letters and digits, starting with a letter, like ADR" });
  }
  body.status.forEach((line, i) => {
    const m = /^([^=]+)=(.+)$/.exec(line.trim());
    const status = m?.[2]?.trim() ?? "";
    if (!m || !(STATUSES as readonly string[]).includes(status)) {
      problems.push({ field: `status.${i}`, message: `"${line.slice(0, 60)}": expected Word=status, where status is one of ${STATUSES.join(", ")}` });
    }
  });
  return problems;
}
