import fs from "node:fs";
import path from "node:path";
import { buildCapsule, CAPSULE_BUDGET, capsuleMarkdown } from "@/lib/agents/capsule";
import { compactIndexMarkdown } from "@/lib/agents/compact-index";
import { folderView } from "@/lib/agents/folder-view";
import { ENTRY_BUDGET, indexEntryMarkdown } from "@/lib/agents/index-entry";
import { withLlmsPointer } from "@/lib/agents/page-twins";
import { llmsFullTxt, llmsTxt } from "@/lib/agents/llms-txt";
import { TOKENIZER, tokens } from "@/lib/agents/tokens";
import { agentUrls } from "@/lib/agents/urls";
import { parsePhase, phaseTitlesOf, PHASES_DIR } from "@/lib/phases/schema";

/**
 * What the agent formats cost a model, in real tokens, over the notes in content/:
 *
 *   npm run bench:tokens              print the figures
 *   npm run bench:tokens -- --write   also record them in BENCHMARKS.md (this section only)
 *
 * Capsules and llms.txt hold absolute URLs, so their size depends on the site's address: SITE_URL
 * when set, else https://notes.example.org.
 */

const root = path.resolve(__dirname, "..");
const base = process.env.SITE_URL?.replace(/\/+$/, "") || "https://notes.example.org";
const view = folderView(path.join(root, "content"));
const urls = agentUrls(base);

// The index lines are the same in /llms.txt and /agents/index.md.
const entries = view.notes.map((n) => ({ id: n.id, tokens: tokens(indexEntryMarkdown(n, urls)) }));
const capsules = view.notes.map((n) => {
  const capsule = buildCapsule(n, view, urls);
  // As served: the capsule's Markdown after the /llms.txt pointer every Markdown answer opens with.
  return { id: n.id, tokens: tokens(withLlmsPointer(capsuleMarkdown(capsule), urls)), clipped: /clipped here/.test(capsule.open_full_note.when) };
});
// The phases of content/, as /llms.txt lists them (a phase's decision delta needs the git history,
// so it is left empty here: at most a few note IDs fewer than the server's file).
const phasesDir = path.join(root, "content", PHASES_DIR);
const phases = (fs.existsSync(phasesDir) ? fs.readdirSync(phasesDir) : [])
  .filter((f) => f.endsWith(".yaml"))
  .flatMap((f) => {
    const parsed = parsePhase(fs.readFileSync(path.join(phasesDir, f), "utf8"));
    return parsed.ok ? [{ file: `${PHASES_DIR}/${f}`, phase: parsed.phase, notes: view.notes.filter((n) => n.phase === parsed.phase.name), delta: [] }] : [];
  });
const llmsText = llmsTxt(view, urls, phases);
if (process.env.BENCH_PRINT) console.log(llmsText);
const llms = tokens(llmsText);
const indexMd = compactIndexMarkdown(view, urls);
const twoRequests = llms + Math.max(...capsules.map((x) => x.tokens));
const PATH_BUDGET = 2500;

const stats = (xs: { id: string; tokens: number }[]) => {
  const sorted = [...xs].sort((a, b) => b.tokens - a.tokens);
  const values = xs.map((x) => x.tokens).sort((a, b) => a - b);
  return {
    max: sorted[0] ?? { id: "-", tokens: 0 },
    min: sorted.at(-1) ?? { id: "-", tokens: 0 },
    mean: values.reduce((s, v) => s + v, 0) / Math.max(1, values.length),
    median: values[Math.floor(values.length / 2)] ?? 0,
  };
};
const e = stats(entries);
const c = stats(capsules);
const overBudget = entries.filter((x) => x.tokens > ENTRY_BUDGET).length;

const lines = [
  `Tokenizer ${TOKENIZER} (gpt-tokenizer), ${view.notes.length} published notes in content/, base URL ${base}`,
  "",
  "| Measure | Tokens |",
  "| --- | ---: |",
  `| Compact index entry (Markdown), max | ${e.max.tokens} (${e.max.id}) |`,
  `| Compact index entry (Markdown), mean | ${e.mean.toFixed(1)} |`,
  `| Compact index entry (Markdown), median / min | ${e.median} / ${e.min.tokens} (${e.min.id}) |`,
  `| Entries over the ${ENTRY_BUDGET}-token aim | ${overBudget} of ${entries.length} |`,
  `| Whole compact index (/agents/index.md) | ${indexMd.ok ? tokens(indexMd.body) : "-"} |`,
  `| Capsule (Markdown, as served), largest | ${c.max.tokens} (${c.max.id}) |`,
  `| Capsule (Markdown), mean / smallest | ${c.mean.toFixed(1)} / ${c.min.tokens} (${c.min.id}) |`,
  `| Capsules with a field clipped to fit ${CAPSULE_BUDGET} | ${capsules.filter((x) => x.clipped).length} of ${capsules.length} (${
    capsules
      .filter((x) => x.clipped)
      .map((x) => x.id)
      .join(", ") || "none"
  }) |`,
  `| /llms.txt | ${llms} |`,
  `| /llms-full.txt | ${tokens(llmsFullTxt(view, urls, phaseTitlesOf(phases.map((p) => p.phase))))} |`,
  `| Two-request path (/llms.txt + the largest capsule), budget ${PATH_BUDGET} | ${twoRequests} |`,
];
console.log(lines.join("\n"));
console.log(
  JSON.stringify({
    tokenizer: TOKENIZER,
    notes: view.notes.length,
    llms_txt: llms,
    path_llms_plus_capsule: twoRequests,
    path_within_budget: twoRequests <= PATH_BUDGET,
    entry: { max: e.max, mean: +e.mean.toFixed(1), overBudget, budget: ENTRY_BUDGET },
    capsule: { max: c.max, mean: +c.mean.toFixed(1) },
  }),
);
// A bench, but with a verdict: a budget missed makes the command fail, so CI can hold it.
if (twoRequests > PATH_BUDGET || overBudget > 0) {
  console.error(`over budget: path ${twoRequests}/${PATH_BUDGET} tokens, ${overBudget} index lines over ${ENTRY_BUDGET}`);
  process.exitCode = 1;
}

if (process.argv.includes("--write")) {
  const file = path.join(root, "BENCHMARKS.md");
  const START = "<!-- bench:tokens start -->";
  const END = "<!-- bench:tokens end -->";
  const section = [
    START,
    "## Agent formats: token budgets",
    "",
    "`npm run bench:tokens` — what the compact index, capsules and llms.txt cost a model, measured with a real tokenizer.",
    "Each index line (the same in /llms.txt and /agents/index.md) is at most 60 tokens (the one-line decision is clipped to fit);",
    "a capsule is at most 350 tokens (its longest fields are clipped, marked …, when the whole does not fit);",
    "/llms.txt plus one capsule, the path from nothing to the right decision, is at most 2,500 tokens.",
    "",
    ...lines,
    "",
    `Measured ${new Date().toISOString().slice(0, 10)}.`,
    END,
  ].join("\n");
  const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmarks\n";
  // Only this section is rewritten; any other section of the file is left exactly as it is.
  const next =
    current.includes(START) && current.includes(END)
      ? current.slice(0, current.indexOf(START)) + section + current.slice(current.indexOf(END) + END.length)
      : `${current.trimEnd()}\n\n${section}\n`;
  fs.writeFileSync(file, next);
  console.log(`Recorded in ${path.relative(process.cwd(), file)}`);
}
