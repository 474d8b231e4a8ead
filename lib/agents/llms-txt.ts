import type { PhasesView } from "@/lib/content/phases";
import type { PublishedView } from "@/lib/content/published";
import { STATUS_MEANING, type Note } from "@/lib/notes/schema";
import { LIMIT_LEGEND } from "./limits";
import { noteText } from "./note-formats";
import type { AgentUrls } from "./urls";

/**
 * /llms.txt in the llmstxt.org format: an H1, a one-line blockquote, prose that carries the status
 * rules, then H2 sections holding only `- [name](absolute URL): note` links, `## Optional` last.
 * Each note links to its capsule, so an agent reaches the right note's capsule in two requests.
 */

type LlmsView = Pick<PublishedView, "commit" | "site" | "notes" | "core" | "backlinks">;

export function llmsTxt(view: LlmsView, urls: AgentUrls, phases: PhasesView["phases"] = []): string {
  return [
    ...header(view, urls),
    "## For agents",
    "",
    link("Agent guide", urls.guide, "the retrieval protocol, every format and URL pattern, what each status and boundary forbids, the archive policy and the operator closeout contract"),
    link("Compact index", urls.indexMd, "every published note in one short entry: ID, title, one-line decision, status, boundaries, phase, tags"),
    link("Search", urls.search("transactional state", 5), "ranked index entries for a query; replace q with your task's words"),
    "",
    `## ${view.site.core_heading}`,
    "",
    ...view.core.map((n) => noteLink(n, urls, `core ${n.core?.rank}`)),
    "",
    "## Decision records",
    "",
    ...view.notes.map((n) => noteLink(n, urls)),
    "",
    ...(phases.length ? ["## Phases", "", ...phases.map((p) => phaseLink(p, urls)), link("All phases as JSON", `${urls.base}/agents/phases.json`, "each phase's status, closeout record (decision delta or no-delta record) and notes"), ""] : []),
    "## Optional",
    "",
    link("Every note in full", urls.llmsFull, "all published notes as plain text in one file"),
    link("Compact index as JSON", urls.indexJson, "the same entries with absolute URLs for every format"),
    link("JSON Schema of a note", urls.schema("note"), "the shape of /notes/{id}.json"),
    link("JSON Schema of a capsule", urls.schema("capsule"), "the shape of /agents/capsules/{id}.json"),
    link("JSON Schema of an index entry", urls.schema("index-entry"), "the shape of each entry in /agents/index.json and /agents/search.json"),
    "",
  ].join("\n");
}

/** A phase: its status and how it closed, so an agent knows whether its decisions are settled. */
function phaseLink({ phase, notes, delta }: PhasesView["phases"][number], urls: AgentUrls): string {
  const closing =
    phase.closeout?.kind === "delta"
      ? `closed with decision delta ${phase.closeout.notes.join(", ")}`
      : phase.closeout?.kind === "no-delta"
        ? "closed with no new decision delta"
        : `open${delta.length ? `, delta so far ${delta.join(", ")}` : ", no decision delta yet"}`;
  return link(`Phase ${phase.name}`, `${urls.base}/phases/${phase.slug}`, `${closing}; ${notes.length} ${notes.length === 1 ? "note" : "notes"}`);
}

/** /llms-full.txt: the same header, then every published note as LLM text. */
export function llmsFullTxt(view: LlmsView, urls: AgentUrls): string {
  const notes = view.notes.map((n) => noteText(n, view, urls).trimEnd());
  return `${[...header(view, urls), ...notes.flatMap((t) => [SEPARATOR, "", t, ""])].join("\n")}`;
}

const SEPARATOR = "-".repeat(72);

function header(view: LlmsView, urls: AgentUrls): string[] {
  const { site } = view;
  const rules = [
    ...LIMIT_LEGEND.map((l) => `${l.flag} — ${l.meaning}`),
    ...(["verified-checkpoint", "verified-structural", "superseded", "retracted"] as const).map((s) => `${s} — ${STATUS_MEANING[s]}`),
  ];
  return [
    `# ${site.title}`,
    "",
    `> ${oneLine(site.lede)}`,
    "",
    oneLine(
      `${site.agents.retrieval} Status and boundary rules: ${rules.join(" ")} ` +
        `Every format carries the hard limits as flags (hypothesis, structural_only, pinned_not_supported). ` +
        `Built from commit ${view.commit} on main; drafts are never published here.`,
    ),
    "",
    oneLine(
      `${site.agents.archive_policy} ${site.agents.operator_contract} ` +
        `MCP clients can use the read-only Streamable HTTP endpoint ${urls.mcp} (POST only; tools search_notes, list_notes, get_capsule, get_note).`,
    ),
    "",
  ];
}

function noteLink(note: Note, urls: AgentUrls, prefix?: string): string {
  const status = [note.status, ...note.boundaries].join(", ");
  return link(`${note.id}: ${note.title}`, urls.capsule(note.id, "md"), `${prefix ? `${prefix}; ` : ""}${status}. ${note.summary}`);
}

function link(name: string, url: string, note: string): string {
  // Brackets in a name would end the link text early: the grammar has no escape we can rely on.
  return `- [${name.replace(/[[\]]/g, "")}](${url}): ${oneLine(note)}`;
}

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();
