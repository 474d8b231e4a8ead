import "server-only";
import { fileURLToPath } from "node:url";
import { ApiError } from "@/lib/rules/api-errors";
import type { StudioActor } from "@/lib/rules/identity";
import type { Finding } from "@/lib/content/check";
import { config } from "@/lib/env";
import { importFieldProblems, type ImportFields } from "@/lib/validations/import";
import { getContentStore } from "@/lib/working-copy/content-store";
import { formatMapping, runImport, type ImportProgress, type ImportReport } from "./import";
import { jobOf, runningJob, startJob, type ImportJob } from "./jobs";
import { sectionTable } from "./mapping";
import type { Problem, RecordPlan } from "./plan";
import { branchName } from "./source";
import { statusTable } from "./status";
import { removeUpload, saveUpload, uploadFolder, type Upload } from "./uploads";
import { ZIP_LIMITS, ZipRefusedError } from "./zip";
import { readCapped } from "@/lib/web/body";

/**
 * The studio's Import page (/studio/import) over the same import the CLI runs (./import.ts): an
 * uploaded zip unpacked (./uploads.ts), the plan `--plan` prints, and the run as a job (./jobs.ts)
 * whose progress the page polls. Every refusal is an ApiError naming the field it belongs beside.
 */

const PHASE = "Imported decisions";

/** What `--plan` prints, as the page shows it: per record its id, format, status mapping and fields. */
export type ImportPlanView = {
  source: string;
  folder: string;
  branch: string;
  /** Source commits an earlier run imported, left out. */
  alreadyImported: number;
  records: RecordPlan[];
  skipped: Problem[];
  problems: Problem[];
  /** Commits the run will write (the branch's and the drafts'). */
  commits: number;
  /** The section and status tables, as `--plan` prints them above the records. */
  mapping: string;
};

/** The report of a finished run: the plan as it was carried out, and where each record landed. */
export type ImportResultView = ImportPlanView & {
  written: number;
  head: string | null;
  conflicts: string[];
  /** Whether main moved to the import (asked with `publish`); null: not asked. */
  published: boolean | null;
  publishFindings: Finding[];
  /** Each record's note: a draft's editor, or its public page once on main; null while only on imports/<branch>. */
  links: { id: string; href: string | null; where: "draft" | "main" | "import-branch" | "not-imported" }[];
};

export type ImportJobError = { code: "import-source" | "internal"; message: string; field: string | null };

export type ImportJobView = Omit<ImportJob<ImportResultView, ImportJobError>, "progress"> & { progress: ImportProgress };

export type UploadView = Upload & { limits: { maxBytes: number; maxUnpackedBytes: number } };

// --- Upload -------------------------------------------------------------------------------

/** POST /api/studio/import/uploads: the `file` part of a multipart body, a zip, unpacked. */
export async function uploadImportZip(request: Request): Promise<UploadView> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type)) {
    throw new ApiError(415, "unsupported-media-type", `a zip is uploaded as multipart/form-data with the field "file"`, {
      where: [{ field: "content-type", message: "must be multipart/form-data" }],
    });
  }
  // Multipart's envelope (boundaries, part headers) on top of the zip itself.
  const cap = ZIP_LIMITS.maxBytes + 64 * 1024;
  const tooLarge = new ApiError(413, "too-large", `the zip is larger than ${ZIP_LIMITS.maxBytes / (1024 * 1024)} MB`, {
    where: [{ field: "file", message: "too large" }],
  });
  if (Number(request.headers.get("content-length") ?? 0) > cap) throw tooLarge;
  const body = await readCapped(request, cap);
  if (!body) throw tooLarge;
  let form: FormData;
  try {
    form = await new Response(new Blob([new Uint8Array(body)]), { headers: { "content-type": type } }).formData();
  } catch {
    throw new ApiError(400, "bad-multipart", "the request body is not a well-formed multipart/form-data body", {
      where: [{ field: "body", message: "not multipart" }],
    });
  }
  const file = form.get("file");
  if (!(file instanceof File))
    throw new ApiError(400, "missing-file", `the form has no file in the field "file"`, { where: [{ field: "file", message: "required" }] });
  if (file.size === 0) throw new ApiError(400, "empty-file", `${JSON.stringify(file.name)} is empty`, { where: [{ field: "file", message: "empty" }] });
  if (file.size > ZIP_LIMITS.maxBytes) throw tooLarge;
  try {
    const upload = await saveUpload(Buffer.from(await file.arrayBuffer()), file.name || "upload.zip");
    return { ...upload, limits: { maxBytes: ZIP_LIMITS.maxBytes, maxUnpackedBytes: ZIP_LIMITS.maxUnpackedBytes } };
  } catch (e) {
    if (e instanceof ZipRefusedError) {
      throw new ApiError(422, "bad-zip", `${JSON.stringify(file.name)} is refused, nothing of it is kept: ${e.message}`, {
        where: [{ field: "file", message: e.message, ...(e.entry ? { excerpt: e.entry } : {}) }],
      });
    }
    throw e;
  }
}

// --- Plan and run -------------------------------------------------------------------------

/** POST /api/studio/import/plan: what the import would do; nothing is written. */
export async function planStudioImport(_actor: StudioActor, body: ImportFields): Promise<ImportPlanView> {
  const source = await sourceOf(body);
  const store = await getContentStore();
  const report = await runImport(store, { ...optionsOf(body, source), plan: true }).catch((e: unknown) => {
    throw sourceError(e, body) ?? e;
  });
  return planView(report, body);
}

/** POST /api/studio/import/jobs: the run, started as a job (202); 409 while another runs. */
export async function startStudioImport(actor: StudioActor, body: ImportFields): Promise<ImportJobView> {
  const source = await sourceOf(body);
  const store = await getContentStore();
  // No await between this check and the start: two requests cannot both pass it.
  const running = runningJob();
  if (running) throw new ApiError(409, "busy", `an import started by ${running.by} is running (job ${running.id}); one runs at a time, try again when it ends`);
  const job = startJob<ImportResultView, ImportJobError>(
    actor.name,
    async (progress) => {
      try {
        const report = await runImport(store, { ...optionsOf(body, source), plan: false, onProgress: progress });
        return resultView(report, body);
      } finally {
        if (body.source.kind === "upload") await removeUpload(body.source.upload);
      }
    },
    (e) => {
      const known = sourceError(e, body);
      if (known) return { code: "import-source", message: known.message, field: known.detail.where?.[0]?.field ?? null };
      console.error("studio import: the run failed", e);
      return { code: "internal", message: "the import failed; nothing of it was kept (the error is in the server's log)", field: null };
    },
  );
  return viewOfJob(job);
}

/** GET /api/studio/import/jobs/<id>. */
export async function studioImportJob(id: string): Promise<ImportJobView> {
  const job = jobOf<ImportResultView, ImportJobError>(id);
  if (!job) throw new ApiError(404, "not-found", `there is no import job ${id} (jobs are kept in memory until the server restarts)`);
  return viewOfJob(job);
}

const viewOfJob = (job: ImportJob<ImportResultView, ImportJobError>): ImportJobView => ({ ...job, progress: { ...job.progress } });

/** The source runImport reads: a URL to clone, a folder on the server (file://, an upload). */
async function sourceOf(body: ImportFields): Promise<{ path: string; label: string }> {
  const problems = importFieldProblems(body, config().importAllowLocal);
  if (problems.length) {
    throw new ApiError(
      422,
      "invalid-import",
      `the import form has ${problems.length === 1 ? "a problem" : `${problems.length} problems`}: ${problems[0]!.message}`,
      {
        where: problems,
      },
    );
  }
  if (body.source.kind === "upload") {
    const folder = await uploadFolder(body.source.upload);
    if (!folder) {
      throw new ApiError(
        422,
        "import-source",
        "the uploaded zip is no longer on the server (an upload is kept for an hour, and until its import runs); upload it again",
        {
          where: [{ field: "file", message: "upload it again" }],
        },
      );
    }
    return { path: folder, label: folder.split("/").pop()! };
  }
  const url = body.source.url.trim();
  if (/^file:/i.test(url)) {
    const local = fileURLToPath(url);
    return { path: local, label: local.replace(/\/+$/, "").split("/").pop() || "source" };
  }
  return { path: url, label: url };
}

function optionsOf(body: ImportFields, source: { path: string; label: string }) {
  return {
    source: source.path,
    ...(body.path.trim() ? { path: body.path.trim() } : {}),
    prefix: body.renumber ? null : body.prefix,
    status: body.status.map((s) => s.trim()).filter(Boolean),
    sections: [],
    phase: PHASE,
    branch: branchName(source.label),
    history: true,
    publish: body.publish,
  };
}

/** An error of reading the source (a clone that fails, no records where asked) as the field's 422; null for anything else. */
function sourceError(e: unknown, body: ImportFields): ApiError | null {
  const message = e instanceof Error ? e.message : "";
  const field = body.source.kind === "url" ? "source.url" : "file";
  let said: { field: string; message: string } | null = null;
  // Today's source.ts throws git's own error; a later one says "…: could not clone the repository (…)" itself.
  if (/could not clone the repository/.test(message)) said = { field, message: message.split("\n")[0]! };
  else if (/git clone/.test(message)) {
    const fatal = message.split("\n").find((l) => /^fatal:/.test(l.trim()));
    said = { field, message: `the repository could not be cloned${fatal ? `: ${fatal.trim().replace(/^fatal:\s*/, "")}` : ""}` };
  } else if (/no such folder or repository/.test(message)) said = { field, message: "there is no repository or folder at that path on the server" };
  else if (/no Markdown records in|no records found in/.test(message))
    said = { field: body.path.trim() ? "path" : field, message: message.replace(/ with --path$/, " in the field Folder") };
  if (!said) return null;
  // A URL's credentials never go back in an answer.
  const text = said.message.replace(/\/\/[^@/\s]+@/g, "//");
  return new ApiError(422, "import-source", text, { where: [{ field: said.field, message: text }] });
}

function planView(r: ImportReport, body: ImportFields): ImportPlanView {
  return {
    source: r.source,
    folder: r.folder,
    branch: r.branch,
    alreadyImported: r.alreadyImported,
    records: r.plan.records,
    skipped: r.plan.skipped,
    problems: r.plan.problems,
    commits: r.plan.commits.length + [...r.plan.drafts.values()].reduce((n, c) => n + c.length, 0),
    mapping: formatMapping(statusTable(body.status.map((s) => s.trim()).filter(Boolean)), sectionTable([])),
  };
}

function resultView(r: ImportReport, body: ImportFields): ImportResultView {
  const drafts = new Set(r.drafts);
  const onBranch = new Set(r.plan.commits.flatMap((c) => [...c.notes.keys()]));
  return {
    ...planView(r, body),
    written: r.written,
    head: r.head,
    conflicts: r.conflicts,
    published: r.published,
    publishFindings: r.publishFindings,
    links: r.plan.records.map(({ id }) =>
      drafts.has(id)
        ? { id, href: `/studio/notes/${id}`, where: "draft" as const }
        : !onBranch.has(id)
          ? { id, href: null, where: "not-imported" as const }
          : r.published
            ? { id, href: `/notes/${id}`, where: "main" as const }
            : { id, href: null, where: "import-branch" as const },
    ),
  };
}
