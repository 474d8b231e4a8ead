import { execFileSync } from "node:child_process";
import path from "node:path";
import { checkRepository } from "@/lib/content/check";
import { runImport } from "@/lib/import/import";
import { ensureContentRepo } from "@/lib/store/api";
import { fsck, tempDir } from "@/lib/store/testing";
import { publishImport } from "@/lib/import/write";
import { openContentStore } from "@/lib/working-copy/content-store";

/**
 * npm run bench:import  (BENCH_COMMITS=1000 BENCH_RECORDS=200 by default)
 *
 * A source repository of BENCH_RECORDS decision records and BENCH_COMMITS commits (made in one
 * `git fast-import`, five authors, a day apart), imported with its history into a content
 * repository seeded like the app's. Prints `git log`'s own time over the same commits beside the
 * import's, then the publish (content:check over the imported commits, then main moved), then one
 * JSON line.
 */

const COMMITS = Number(process.env.BENCH_COMMITS ?? 1000);
const RECORDS = Number(process.env.BENCH_RECORDS ?? 200);
const AUTHORS = ["Ann", "Bo", "Cy", "Dee", "Eli"];

const pad = (n: number) => String(n).padStart(4, "0");
const record = (n: number, revision: number) =>
  `# ${n}. Decision ${n}\n\nDate: 2020-01-01\n\n## Status\n\n${revision === 0 ? "Proposed" : "Accepted"}\n\n## Context\n\nRecord ${n} exists because part ${n % 17} of the system needed a rule; revision ${revision}.\n\n## Decision\n\nPart ${n % 17} follows rule ${n}, revised ${revision} times.\n\n## Invariant\n\nRule ${n} holds after every release.\n\n## Consequences\n\nSays nothing about parts other than ${n % 17}.\n`;

function buildSource(dir: string): void {
  execFileSync("git", ["init", "--quiet", "-b", "trunk", dir]);
  const chunks: string[] = [];
  const revisions = new Array<number>(RECORDS).fill(-1);
  const start = Date.parse("2020-01-01T09:00:00Z") / 1000;
  for (let k = 0; k < COMMITS; k++) {
    const n = k % RECORDS;
    revisions[n]! += 1;
    const text = Buffer.from(record(n + 1, revisions[n]!));
    const who = AUTHORS[k % AUTHORS.length]!;
    const msg = `${revisions[n] === 0 ? "Add" : "Revise"} ADR ${n + 1}`;
    chunks.push(
      `commit refs/heads/trunk\nmark :${k + 1}\nauthor ${who} <${who.toLowerCase()}@example.org> ${start + k * 86400} +0100\ncommitter CI <ci@example.org> ${start + k * 86400} +0000\ndata ${Buffer.byteLength(msg)}\n${msg}\n`,
      k ? `from :${k}\n` : "",
      `M 100644 inline docs/adr/${pad(n + 1)}-decision-${n + 1}.md\ndata ${text.length}\n${text.toString()}\n`,
    );
  }
  execFileSync("git", ["fast-import", "--quiet"], { cwd: dir, input: chunks.join("") });
  execFileSync("git", ["checkout", "--quiet", "trunk"], { cwd: dir });
}

const ms = (t: number) => Math.round(performance.now() - t);
const cpuMs = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return Math.round((used.user + used.system) / 1000);
};

async function main() {
  const root = tempDir("bench-import");
  const source = path.join(root, "source");
  let t = performance.now();
  buildSource(source);
  const buildMs = ms(t);

  t = performance.now();
  execFileSync("git", ["log", "--reverse", "--first-parent", "-M", "--name-status", "-z", "--format=%H%x1f%an%x1f%ae%x1f%at%x1f%s", "HEAD", "--", "docs/adr"], {
    cwd: source,
    maxBuffer: 1 << 30,
  });
  const gitLogMs = ms(t);
  t = performance.now();
  execFileSync("git", ["log", "-p", "--reverse", "HEAD", "--", "docs/adr"], { cwd: source, maxBuffer: 1 << 30 });
  const gitLogPatchMs = ms(t);

  const row = (k: string, v: string) => console.log(`${k.padEnd(58)} ${v}`);
  row("source: commits / records", `${COMMITS} / ${RECORDS} (built in ${buildMs} ms by git fast-import)`);
  row("git log --name-status -M over the records", `${gitLogMs} ms`);
  row("git log -p over the records", `${gitLogPatchMs} ms`);
  const gitdir = path.join(root, "content.git");
  await ensureContentRepo(gitdir, path.resolve("content"));
  const store = openContentStore(gitdir);
  t = performance.now();
  const cpu = process.cpuUsage();
  const report = await runImport(store, {
    source,
    prefix: "ADR",
    status: [],
    phase: "Imported decisions",
    branch: "bench",
    plan: false,
    history: true,
    publish: false,
  });
  const importMs = ms(t);
  const used = process.cpuUsage(cpu);
  const importCpuMs = Math.round((used.user + used.system) / 1000);
  row(
    "import (read, plan, judge, write)",
    `${importMs} ms (${importCpuMs} ms CPU); ${report.written} commits written, ${report.plan.problems.length} problems`,
  );

  t = performance.now();
  let cpuAt = process.cpuUsage();
  const published = await publishImport(store, "bench");
  const publishMs = ms(t);
  const publishCpuMs = cpuMs(cpuAt);
  row(
    "publish (content:check over the import, then main moved)",
    `${publishMs} ms (${publishCpuMs} ms CPU); ${published.published ? "published" : `not published: ${published.findings.length} findings`}`,
  );

  // What `npm run content:check -- --all` pays over the published result (checkRepository opens a store of its own, caches cold).
  t = performance.now();
  cpuAt = process.cpuUsage();
  const all = await checkRepository(gitdir, { all: true });
  const checkAllMs = ms(t);
  const checkAllCpuMs = cpuMs(cpuAt);
  row(
    "content:check --all over the result",
    `${checkAllMs} ms (${checkAllCpuMs} ms CPU); ${all.checked} commits, ${all.findings.length} findings; ${all.work?.notesParsed} notes parsed, ${all.work?.notesJudged} judged, ${all.work?.judgementsReused} judgements reused`,
  );

  t = performance.now();
  const again = await runImport(store, {
    source,
    prefix: "ADR",
    status: [],
    phase: "Imported decisions",
    branch: "bench",
    plan: false,
    history: true,
    publish: false,
  });
  const rerunMs = ms(t);
  const clean = fsck(gitdir) === "";

  row("re-run with nothing new", `${rerunMs} ms; ${again.written} commits written`);
  row("git fsck --strict", clean ? "clean" : "NOT CLEAN");
  console.log(
    JSON.stringify({
      commits: COMMITS,
      records: RECORDS,
      gitLogMs,
      gitLogPatchMs,
      importMs,
      importCpuMs,
      written: report.written,
      publishMs,
      publishCpuMs,
      published: published.published,
      checkAllMs,
      checkAllCpuMs,
      checkAllFindings: all.findings.length,
      checkAllWork: all.work,
      rerunMs,
      fsck: clean,
    }),
  );
  if (!published.published) for (const f of published.findings.slice(0, 10)) console.log(`  ${f.file}:${f.line}: ${f.message}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
