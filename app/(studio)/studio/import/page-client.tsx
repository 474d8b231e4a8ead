"use client";

import Link from "next/link";
import { useId, useState, type FormEvent } from "react";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { FieldError } from "@/components/studio/field-error";
import styles from "@/components/studio/studio.module.css";
import type { importJobBody, importPlanBody } from "@/lib/validations/import-answers";
import type { Where } from "@/lib/rules/api-errors";
import { StudioApiError } from "@/lib/queries/fetch";
import { useImportJob, usePlanImport, useStartImport, useUploadZip } from "@/lib/queries/use-import";
import { importFieldProblems, type ImportRequest } from "@/lib/validations/import";

type Plan = z.infer<typeof importPlanBody>;
type Job = z.infer<typeof importJobBody>;
type Kind = "url" | "upload";

/**
 * The Import page: the form (a repository URL or a zip, the folder inside, the prefix, status
 * overrides), the plan `npm run import -- --plan` prints, then the run as a job with its progress
 * bar and, when it ends, the report with links to the imported drafts. Errors are said beside the
 * field they belong to (the API's `where`).
 */
export default function ImportPageClient({ allowLocal, maxZipBytes }: { allowLocal: boolean; maxZipBytes: number }) {
  const id = useId();
  const [kind, setKind] = useState<Kind>("url");
  const [url, setUrl] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [uploaded, setUploaded] = useState<{ file: File; id: string } | null>(null);
  const [folder, setFolder] = useState("");
  const [prefix, setPrefix] = useState("ADR");
  const [renumber, setRenumber] = useState(false);
  const [statusText, setStatusText] = useState("");
  const [publish, setPublish] = useState(false);
  const [problems, setProblems] = useState<Where[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [plan, setPlan] = useState<{ plan: Plan; body: ImportRequest } | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);

  const upload = useUploadZip();
  const planImport = usePlanImport();
  const start = useStartImport();
  const job = useImportJob(jobId);
  const busy = upload.isPending || planImport.isPending || start.isPending || job.data?.state === "running";

  const statusLines = statusText
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const at = (field: string) => problems.filter((p) => p.field === field || (field === "status" && p.field.startsWith("status.")));

  /** The API's refusal: beside its fields when it names them, above the form otherwise. */
  const refused = (e: unknown) => {
    const body = e instanceof StudioApiError ? e.body?.error : null;
    const where = body?.where ?? [];
    setProblems(where);
    setFailure(body ? body.message : (e as Error).message);
  };

  async function showPlan(e: FormEvent) {
    e.preventDefault();
    setProblems([]);
    setFailure(null);
    setPlan(null);
    setJobId(null);
    const fields = { path: folder, prefix, renumber, status: statusLines, publish };
    if (kind === "upload" && !file) {
      setProblems([{ field: "file", message: "choose a .zip of the folder of records" }]);
      return;
    }
    // The same rules the server applies; file:// is the server's to allow.
    const local = importFieldProblems({ source: kind === "url" ? { kind, url } : { kind, upload: "0".repeat(16) }, ...fields }, true);
    if (local.length) {
      setProblems(local);
      return;
    }
    try {
      let source: ImportRequest["source"] = { kind: "url", url };
      if (kind === "upload" && file) {
        const known = uploaded?.file === file ? uploaded.id : (await upload.mutateAsync(file)).id;
        setUploaded({ file, id: known });
        source = { kind: "upload", upload: known };
      }
      const body: ImportRequest = { source, ...fields };
      setPlan({ plan: await planImport.mutateAsync(body), body });
    } catch (err) {
      refused(err);
    }
  }

  async function run() {
    if (!plan) return;
    setFailure(null);
    try {
      const started = await start.mutateAsync(plan.body);
      setJobId(started.id);
      // An upload is read once: a new plan uploads the zip again.
      setUploaded(null);
    } catch (err) {
      refused(err);
    }
  }

  const described = (field: string) => (at(field).length ? `${id}-${field}-error` : undefined);

  return (
    <>
      <h1>Import decision records</h1>
      <p>
        Bring an archive of architecture decision records in (adr-tools, MADR, log4brains, or Markdown with front matter), with its history when it is a
        repository: each source commit becomes a commit here, with its author and date. Records land on a branch of their own (<code>imports/&lt;name&gt;</code>
        ) and as drafts; nothing is verified by an import. The mapping is the one <code>npm run import</code> uses.
      </p>
      <form onSubmit={showPlan} noValidate aria-describedby={failure ? `${id}-failure` : undefined}>
        <fieldset className={styles.field}>
          <legend>Source</legend>
          <label>
            <input type="radio" name="kind" value="url" checked={kind === "url"} onChange={() => setKind("url")} /> A repository URL
          </label>
          <label>
            <input type="radio" name="kind" value="upload" checked={kind === "upload"} onChange={() => setKind("upload")} /> A zip of the folder
          </label>
        </fieldset>
        {kind === "url" ? (
          <div className={styles.field} data-invalid={at("source.url").length ? "" : undefined}>
            <label htmlFor={`${id}-url`}>Repository URL</label>
            <input
              id={`${id}-url`}
              type="text"
              inputMode="url"
              autoComplete="off"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="https://git.example.org/team/payments.git"
              aria-invalid={at("source.url").length ? true : undefined}
              aria-describedby={[`${id}-url-hint`, described("source.url")].filter(Boolean).join(" ")}
            />
            <p id={`${id}-url-hint`} className={styles.hint}>
              https://, http:// or git://, reachable from the server{allowLocal ? "; file:// for a repository on the server" : ""}.
            </p>
            <FieldError id={`${id}-source.url-error`} problems={at("source.url")} />
          </div>
        ) : (
          <div className={styles.field} data-invalid={at("file").length ? "" : undefined}>
            <label htmlFor={`${id}-file`}>Zip of the folder</label>
            <input
              id={`${id}-file`}
              type="file"
              accept=".zip,application/zip"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              aria-invalid={at("file").length ? true : undefined}
              aria-describedby={[`${id}-file-hint`, described("file")].filter(Boolean).join(" ")}
            />
            <p id={`${id}-file-hint`} className={styles.hint}>
              At most {Math.round(maxZipBytes / (1024 * 1024))} MB. A zip holds no history: the records come in as they are now.
            </p>
            <FieldError id={`${id}-file-error`} problems={at("file")} />
          </div>
        )}
        <div className={styles.field} data-invalid={at("path").length ? "" : undefined}>
          <label htmlFor={`${id}-path`}>Folder of records inside (optional)</label>
          <input
            id={`${id}-path`}
            type="text"
            value={folder}
            onChange={(e) => setFolder(e.target.value)}
            placeholder="docs/adr"
            aria-invalid={at("path").length ? true : undefined}
            aria-describedby={[`${id}-path-hint`, described("path")].filter(Boolean).join(" ")}
          />
          <p id={`${id}-path-hint`} className={styles.hint}>
            Left empty, the usual places are looked in: doc/adr, docs/adr, docs/decisions, adr, decisions…
          </p>
          <FieldError id={`${id}-path-error`} problems={at("path")} />
        </div>
        <div className={styles.field} data-invalid={at("prefix").length ? "" : undefined}>
          <label htmlFor={`${id}-prefix`}>Id prefix (keeps the source&apos;s numbers: ADR-012)</label>
          <input
            id={`${id}-prefix`}
            type="text"
            value={prefix}
            disabled={renumber}
            onChange={(e) => setPrefix(e.target.value)}
            aria-invalid={at("prefix").length ? true : undefined}
            aria-describedby={described("prefix")}
          />
          <FieldError id={`${id}-prefix-error`} problems={at("prefix")} />
          <label>
            <input type="checkbox" checked={renumber} onChange={(e) => setRenumber(e.target.checked)} /> Renumber into this archive&apos;s sequence instead
          </label>
        </div>
        <div className={styles.field} data-invalid={at("status").length ? "" : undefined}>
          <label htmlFor={`${id}-status`}>Status overrides (optional, one Word=status a line)</label>
          <textarea
            id={`${id}-status`}
            rows={3}
            value={statusText}
            onChange={(e) => setStatusText(e.target.value)}
            placeholder="Accepted=hypothesis"
            aria-invalid={at("status").length ? true : undefined}
            aria-describedby={[`${id}-status-hint`, described("status")].filter(Boolean).join(" ")}
          />
          <p id={`${id}-status-hint`} className={styles.hint}>
            Over the default table (shown with the plan). An import never lands a note past hypothesis: verification is a reviewer&apos;s.
          </p>
          <FieldError id={`${id}-status-error`} problems={at("status")} />
        </div>
        <div className={styles.field}>
          <label>
            <input type="checkbox" checked={publish} onChange={(e) => setPublish(e.target.checked)} /> Publish to main when content:check over the import is
            clean
          </label>
        </div>
        <Button type="submit" variant={plan ? "secondary" : "primary"} disabled={busy}>
          {upload.isPending ? "Uploading…" : planImport.isPending ? "Planning…" : "Show the plan"}
        </Button>
        {failure && (
          <div id={`${id}-failure`} role="alert" className={styles.error}>
            <p>{failure}</p>
          </div>
        )}
      </form>
      {plan && <PlanTable plan={plan.plan} />}
      {plan && !jobId && (
        <p>
          <Button variant="primary" onClick={run} disabled={busy || plan.plan.records.length === 0}>
            Run the import ({plan.plan.commits} commit{plan.plan.commits === 1 ? "" : "s"})
          </Button>
        </p>
      )}
      {jobId && <JobProgress job={job.data ?? null} error={job.error} />}
    </>
  );
}

function PlanTable({ plan }: { plan: Plan }) {
  return (
    <section aria-labelledby="import-plan">
      <h2 id="import-plan">Plan (nothing written yet)</h2>
      <p>
        {plan.records.length} record{plan.records.length === 1 ? "" : "s"} from <code>{plan.source}</code>, folder <code>{plan.folder}</code>, onto{" "}
        <code>imports/{plan.branch}</code> and draft branches: {plan.commits} commit{plan.commits === 1 ? "" : "s"}.
        {plan.alreadyImported ? ` ${plan.alreadyImported} source commit(s) were imported by an earlier run and are left out.` : ""}
      </p>
      <Records plan={plan} />
      <Problems plan={plan} />
      <details>
        <summary>The mapping (sections and statuses)</summary>
        <pre>{plan.mapping}</pre>
      </details>
    </section>
  );
}

function Records({ plan, links }: { plan: Plan; links?: NonNullable<Job["result"]>["links"] }) {
  return (
    <table className={styles.table}>
      <caption>{links ? "Imported records" : "Records"}</caption>
      <thead>
        <tr>
          <th scope="col">Id</th>
          <th scope="col">Source file</th>
          <th scope="col">Format</th>
          <th scope="col">Status</th>
          <th scope="col">Fields filled</th>
          <th scope="col">Left empty</th>
        </tr>
      </thead>
      <tbody>
        {plan.records.map((r) => {
          const link = links?.find((l) => l.id === r.id);
          return (
            <tr key={r.id}>
              <th scope="row">
                {link?.href ? <Link href={link.href}>{r.id}</Link> : r.id}
                {link && <div className={styles.hint}>{WHERE[link.where]}</div>}
              </th>
              <td>
                <code>{r.file}</code>
                {r.names.length > 1 && <div className={styles.hint}>renamed: {r.names.join(" → ")}</div>}
                {r.renumbered && <div className={styles.hint}>renumbered: {r.renumbered}</div>}
              </td>
              <td>{r.format}</td>
              <td>
                {r.status.word ?? "(no status)"} → {r.status.asked}
                {r.status.landed !== r.status.asked ? `, lands ${r.status.landed}` : ""}
                {r.status.why.length > 0 && (
                  <ul className={styles.hint}>
                    {r.status.why.map((w) => (
                      <li key={w}>{w}</li>
                    ))}
                  </ul>
                )}
              </td>
              <td>
                {r.filled.map((f) => (
                  <div key={f.field}>
                    {f.field} ← {f.from.join(", ")}
                  </div>
                ))}
              </td>
              <td>{r.empty.join(", ") || "none"}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

const WHERE = {
  draft: "a draft: open it to edit",
  main: "published on main",
  "import-branch": "on the import branch, not on main yet",
  "not-imported": "not imported (see the problems)",
} as const;

function Problems({ plan }: { plan: Plan }) {
  if (!plan.skipped.length && !plan.problems.length) return null;
  return (
    <>
      {plan.skipped.length > 0 && (
        <>
          <h3>Skipped (not decision records)</h3>
          <ul>
            {plan.skipped.map((p) => (
              <li key={`${p.file}:${p.line}:${p.message}`}>
                <code>
                  {p.file}:{p.line}
                </code>{" "}
                {p.message}
              </li>
            ))}
          </ul>
        </>
      )}
      {plan.problems.length > 0 && (
        <>
          <h3>Problems (each says what the import does about it)</h3>
          <ul>
            {plan.problems.map((p) => (
              <li key={`${p.file}:${p.line}:${p.message}:${p.commit ?? ""}`}>
                <code>
                  {p.file}:{p.line}
                </code>{" "}
                {p.message}
                {p.commit ? ` (source commit ${p.commit.slice(0, 10)})` : ""}
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

const STAGE = { reading: "Reading the source", writing: "Writing commits", publishing: "Checking and publishing", done: "Done" } as const;

function JobProgress({ job, error }: { job: Job | null; error: unknown }) {
  const progress = job?.progress;
  const total = progress?.commits.total ?? 0;
  const done = progress?.commits.done ?? 0;
  const percent = job?.state === "done" ? 100 : total ? Math.floor((done / total) * 100) : 0;
  const text = progress
    ? `${STAGE[progress.stage]}: ${done} of ${total} commits, ${progress.records.done} of ${progress.records.total} records (${percent}%)`
    : "Starting…";
  return (
    <section aria-labelledby="import-run">
      <h2 id="import-run">Import</h2>
      <div className={styles.field}>
        <label htmlFor="import-progress">Progress</label>
        <progress id="import-progress" max={100} value={percent} aria-describedby="import-progress-text">
          {percent}%
        </progress>
        <p id="import-progress-text" role="status">
          {text}
        </p>
      </div>
      {error ? (
        <div role="alert" className={styles.error}>
          <p>{error instanceof Error ? error.message : "the job could not be read"}</p>
        </div>
      ) : null}
      {job?.state === "failed" && job.error && (
        <div role="alert" className={styles.error}>
          <p>
            The import failed, and nothing of it was kept: {job.error.message}
            {job.error.field ? ` (${job.error.field})` : ""}
          </p>
        </div>
      )}
      {job?.state === "done" && job.result && <Report result={job.result} />}
    </section>
  );
}

function Report({ result }: { result: NonNullable<Job["result"]> }) {
  const drafts = result.links.filter((l) => l.where === "draft");
  return (
    <>
      <h3>Report</h3>
      <p className={styles.ok}>
        {result.written} commit{result.written === 1 ? "" : "s"} written on <code>imports/{result.branch}</code>
        {drafts.length ? ` and the drafts of ${drafts.map((d) => d.id).join(", ")}` : ""}.
        {result.published === true ? " Published: main now points at the import." : ""}
      </p>
      {result.published === false && (
        <div role="alert" className={styles.error}>
          <p>Not published: content:check found</p>
          <ul>
            {result.publishFindings.map((f) => (
              <li key={`${f.file}:${f.line}:${f.message}`}>
                <code>
                  {f.file}:{f.line}
                </code>{" "}
                {f.field}: {f.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {result.conflicts.length > 0 && <p>Conflicts (edited here since the last import, not overwritten): {result.conflicts.join(", ")}</p>}
      <Records plan={result} links={result.links} />
      <Problems plan={result} />
    </>
  );
}
