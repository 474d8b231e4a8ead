import { parseArgs } from "node:util";
import { config } from "@/lib/env";
import { formatMapping, formatReport, runImport } from "@/lib/import/import";
import { branchName } from "@/lib/import/source";
import { sectionTable } from "@/lib/import/mapping";
import { statusTable } from "@/lib/import/status";
import { ensureContentRepo } from "@/lib/store/api";
import { openContentStore } from "@/lib/working-copy/content-store";

/**
 * npm run import -- <source> [--path docs/adr] [--prefix ADR | --renumber] [--status Word=status]
 *   [--section Heading=field]
 *   [--phase name] [--branch name] [--plan] [--no-history] [--publish]
 * A thin shell over lib/import: read the arguments, run, print the report. Exit 1 when something
 * was refused or not published.
 */

const USAGE =
  "usage: npm run import -- <source> [--path docs/adr] [--prefix ADR | --renumber] [--status Word=status]… [--section Heading=field]… [--phase name] [--branch name] [--plan] [--no-history] [--publish]";

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      path: { type: "string" },
      prefix: { type: "string" },
      renumber: { type: "boolean", default: false },
      status: { type: "string", multiple: true, default: [] },
      section: { type: "string", multiple: true, default: [] },
      phase: { type: "string", default: "Imported decisions" },
      branch: { type: "string" },
      plan: { type: "boolean", default: false },
      "no-history": { type: "boolean", default: false },
      publish: { type: "boolean", default: false },
    },
  });
  const source = positionals[0];
  if (!source || positionals.length > 1) throw new Error(USAGE);
  if (values.prefix && values.renumber) throw new Error("--prefix keeps the source's numbers and --renumber replaces them: choose one");
  const gitdir = config().contentRepo;
  await ensureContentRepo(gitdir, `${process.cwd()}/content`);
  const store = openContentStore(gitdir);
  const branch = values.branch ?? branchName(source);
  const report = await runImport(store, {
    source,
    ...(values.path ? { path: values.path } : {}),
    prefix: values.renumber ? null : (values.prefix ?? "ADR"),
    status: values.status,
    sections: values.section,
    phase: values.phase,
    branch,
    plan: values.plan,
    history: !values["no-history"],
    publish: values.publish,
  });
  if (values.plan) console.log(`${formatMapping(statusTable(values.status), sectionTable(values.section))}\n`);
  console.log(formatReport(report, values.plan ? "plan" : "import"));
  if (report.published === false) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error((e as Error).message);
  process.exitCode = 1;
});
