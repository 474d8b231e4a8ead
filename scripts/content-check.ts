/**
 * `npm run content:check [path-or-repo] [--ref REF] [--since REV] [--all]`
 *
 * Holds content committed outside the app (an agent with plain git, a person on a git host) to the
 * rules the app enforces: the note schema, the archive policy and, given a repository, the status
 * transitions of each commit against its parent (approvals read from the commit's trailers and
 * verified against refs/reviews; a change to a verified note needs one too). A repository's tip is
 * checked by default, every commit after REV with --since (any revision git takes: main~3, a tag, an
 * abbreviated id), and the whole repository (main from its first commit, every draft branch) with --all.
 * Prints `file:line: field: message [rule]` and exits 1 on any finding.
 */
import fs from "node:fs";
import path from "node:path";
import { checkFolder, checkRepository, type Finding } from "@/lib/content/check";
import { ConfigError, parseConfig } from "@/lib/env";

function usage(message?: string): never {
  if (message) console.error(message);
  console.error("usage: npm run content:check -- [folder-or-repository] [--ref REF] [--since REV] [--all]");
  process.exit(2);
}

async function main() {
  const args = process.argv.slice(2);
  let target = "content";
  let ref: string | undefined;
  let since: string | undefined;
  let all = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--ref") ref = args[++i] ?? usage("--ref needs a value");
    else if (a === "--since") since = args[++i] ?? usage("--since needs a value");
    else if (a === "--all") all = true;
    else if (a === "-h" || a === "--help") usage();
    else if (a?.startsWith("--")) usage(`unknown option ${a}`);
    else if (a) target = a;
  }
  const dir = path.resolve(target);
  if (!fs.existsSync(dir)) usage(`${target}: no such folder or repository`);

  const gitdir = fs.existsSync(path.join(dir, ".git"))
    ? path.join(dir, ".git")
    : fs.existsSync(path.join(dir, "HEAD")) && fs.existsSync(path.join(dir, "objects"))
      ? dir
      : null;
  if (!gitdir && (all || ref || since)) usage(`${target}: --all, --ref and --since need a git repository`);
  // The same number of approvals the server asks for (REVIEW_APPROVALS), validated the same way.
  let requiredApprovals: number;
  try {
    requiredApprovals = parseConfig({ REVIEW_APPROVALS: process.env.REVIEW_APPROVALS }).reviewApprovals;
  } catch (e) {
    usage(e instanceof ConfigError ? e.message : String(e));
  }
  const { checked, findings } = gitdir ? await checkRepository(gitdir, { ref, since, all, requiredApprovals }) : await checkFolder(dir);
  print(findings);
  const where = gitdir
    ? `${checked} commit(s) of ${path.relative(process.cwd(), dir) || "."}`
    : `${checked} file(s) in ${path.relative(process.cwd(), dir) || "."}`;
  console.log(findings.length ? `\n${findings.length} problem(s) in ${where}` : `ok: ${where}, no problems`);
  process.exit(findings.length ? 1 : 0);
}

function print(findings: Finding[]) {
  for (const f of findings) console.log(`${f.file}:${f.line}: ${f.field}: ${f.message} [${f.rule}]${f.commit ? ` (commit ${f.commit.slice(0, 10)})` : ""}`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(2);
});
