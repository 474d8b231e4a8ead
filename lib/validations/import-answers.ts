import { z } from "zod";
import { STATUSES } from "@/lib/notes/schema";
// Types only (erased from the browser bundle): the server's answers, which the schemas below must equal.
import type { ImportJobView, ImportPlanView, ImportResultView, UploadView } from "@/lib/import/studio-import";

/**
 * The answers of the import API (/api/studio/import/…) as the studio's Import page reads them
 * (beside ./bodies.ts, held equal to the server's types the same way).
 */

const status = z.enum(STATUSES);
const problem = z.object({ file: z.string(), line: z.number(), message: z.string(), commit: z.string().optional() });

const recordPlan = z.object({
  file: z.string(),
  names: z.array(z.string()),
  id: z.string(),
  format: z.enum(["nygard", "madr", "log4brains", "front-matter"]),
  status: z.object({ word: z.string().nullable(), asked: status, landed: status, why: z.array(z.string()) }),
  filled: z.array(z.object({ field: z.string(), from: z.array(z.string()) })),
  empty: z.array(z.string()),
  renumbered: z.string().nullable(),
  sourceNumber: z.number().nullable(),
});

/** POST /api/studio/import/plan. */
export const importPlanBody = z.object({
  source: z.string(),
  folder: z.string(),
  branch: z.string(),
  alreadyImported: z.number(),
  records: z.array(recordPlan),
  skipped: z.array(problem),
  problems: z.array(problem),
  commits: z.number(),
  mapping: z.string(),
});

const importResultBody = importPlanBody.extend({
  written: z.number(),
  head: z.string().nullable(),
  conflicts: z.array(z.string()),
  published: z.boolean().nullable(),
  publishFindings: z.array(
    z.object({ file: z.string(), line: z.number(), field: z.string(), message: z.string(), rule: z.string(), commit: z.string().optional() }),
  ),
  links: z.array(z.object({ id: z.string(), href: z.string().nullable(), where: z.enum(["draft", "main", "import-branch", "not-imported"]) })),
});

const count = z.object({ done: z.number(), total: z.number() });

/** POST /api/studio/import/jobs (202) and GET /api/studio/import/jobs/<id>. */
export const importJobBody = z.object({
  id: z.string(),
  by: z.string(),
  started: z.string(),
  finished: z.string().nullable(),
  state: z.enum(["running", "done", "failed"]),
  progress: z.object({ stage: z.enum(["reading", "writing", "publishing", "done"]), records: count, commits: count }),
  result: importResultBody.nullable(),
  error: z.object({ code: z.enum(["import-source", "internal"]), message: z.string(), field: z.string().nullable() }).nullable(),
});

/** POST /api/studio/import/uploads (201). */
export const uploadBody = z.object({
  id: z.string(),
  name: z.string(),
  files: z.number(),
  bytes: z.number(),
  leftOut: z.array(z.string()),
  limits: z.object({ maxBytes: z.number(), maxUnpackedBytes: z.number() }),
});

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameAsServer: [
  Same<z.infer<typeof importPlanBody>, ImportPlanView>,
  Same<z.infer<typeof importResultBody>, ImportResultView>,
  Same<z.infer<typeof importJobBody>, ImportJobView>,
  Same<z.infer<typeof uploadBody>, UploadView>,
] = [true, true, true, true];
void sameAsServer;
