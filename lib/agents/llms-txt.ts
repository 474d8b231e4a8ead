import type { PhasesView } from "@/lib/content/phases";
import type { PublishedView } from "@/lib/content/published";
import { STATUS_MEANING, type Note } from "@/lib/notes/schema";
import { phaseTitle, type PhaseTitles } from "@/lib/phases/schema";
import { indexEntryMarkdown } from "./index-entry";
import { LIMIT_LEGEND } from "./limits";
import { noteText } from "./note-formats";
import { indexPage, INDEX_PAGE_SIZE } from "@/lib/agents/index-cursor";
import type { AgentUrls } from "./urls";

/**
 * /llms.txt is the compact index, in the llmstxt.org format: an H1, a one-line blockquote, prose
 * with the retrieval protocol and the hard-boundary rules, then H2 sections holding only
 * `- [name](absolute URL): note` links, `## Optional` last. One line per note links its capsule
 * (the same line as /agents/index.md), so an agent pays for this file and one capsule, about
 * 2,500 tokens, to reach the right decision. The guide, search and MCP are linked once; the full
 * texts and every page's Markdown twin are under Optional.
 *
 * An archive larger than one index page lists only the first page here and links the paged
 * /agents/index.md for the rest, so the file stays within what an agent can read in one fetch.
 */

type LlmsView = Pick<PublishedView, "commit" | "site" | "notes" | "core" | "backlinks">;

/**
 * One slice of the archive for an agent that wants only it (/tags/<tag>/llms.txt,
 * /phases/<slug>/llms.txt): its name, the notes its page lists, and that page's Markdown twin and
 * feed (absolute URLs). The file is the archive's llms.txt with the slice's notes and phases only,
 * and a link back to the whole index.
 */
export type IndexSlice = { name: string; notes: readonly Note[]; twin: string; feed: string };

export function llmsTxt(view: LlmsView, urls: AgentUrls, allPhases: PhasesView["phases"] = [], slice?: IndexSlice): string {
  const all = slice?.notes ?? view.notes;
  const page = indexPage(all, null);
  const rest = page.ok && page.next ? all.length - page.notes.length : 0;
  const notes = page.ok ? page.notes : all;
  // A slice lists the phases its notes name (a phase's own file: that phase).
  const named = slice && new Set(slice.notes.map((n) => n.phase));
  const phases = named ? allPhases.filter((p) => named.has(p.phase.name) || p.notes.some((n) => named.has(n.phase))) : allPhases;
  const more =
    rest > 0 && page.ok && page.next
      ? slice
        ? [link(`The other ${rest} notes of ${slice.name}`, slice.twin, "the slice's page in Markdown lists them all")]
        : [
            link(
              `The other ${rest} notes`,
              urls.indexPage(page.next),
              `the compact index continues, ${INDEX_PAGE_SIZE} lines a page, each page linking the next`,
            ),
          ]
      : [];
  return [
    ...header(view, urls, slice),
    "## For agents",
    "",
    ...(slice ? [link("The whole archive's index", urls.llms, "every note and phase; this file lists one slice of it")] : []),
    link(
      "Agent guide",
      urls.guide,
      `the protocol, every format and URL pattern (the index as JSON: ${urls.indexJson}), status and boundary rules, archive policy, closeout contract`,
    ),
    // Every link here is a page with an HTML form too, so a crawler sampling these links finds pages.
    link(
      "Search",
      `${urls.base}/search.md?q=transactional+state`,
      `ranked results for a query (put your task's words in q); as index entries in JSON: ${urls.base}/agents/search.json?q=…&limit=…`,
    ),
    // The endpoint itself answers only POST; the link goes to where the guide explains it.
    link("MCP", `${urls.guide}#mcp`, `Streamable HTTP, POST ${urls.mcp}: read tools, note resources, a retrieval prompt; write tools with an API token`),
    link(
      "What changed",
      `${urls.guide}#changes`,
      `the published notes changed since a commit you read: ${urls.base}/agents/changes.json?since=<commit> (MCP changes_since)`,
    ),
    "",
    "## Notes",
    "",
    ...notes.map((n) => indexEntryMarkdown(n, urls)),
    ...more,
    "",
    ...(phases.length ? ["## Phases", "", ...phases.map((p) => phaseLink(p, urls)), ""] : []),
    "## Optional",
    "",
    ...(slice
      ? [
          link(`${slice.name} in Markdown`, slice.twin, "the slice's page: every note of it"),
          link(`${slice.name} as an Atom feed`, slice.feed, "follow what is published in it"),
        ]
      : [
          link("Every note in full", urls.llmsFull, "all published notes as plain text in one file"),
          link("Every page in Markdown", urls.pagesTxt, "each note's full text, history, tag and phase page as Markdown"),
        ]),
    "",
  ].join("\n");
}

/** A phase: its status and how it closed, so an agent knows whether its decisions are settled. */
function phaseLink({ phase, notes, delta }: PhasesView["phases"][number], urls: AgentUrls): string {
  const closing =
    phase.closeout?.kind === "delta"
      ? `closed, decision delta ${phase.closeout.notes.join(", ")}`
      : phase.closeout?.kind === "no-delta"
        ? "closed, no new decision delta"
        : `open${delta.length ? `, delta so far ${delta.join(", ")}` : ""}`;
  return link(`Phase ${phaseTitle(phase)}`, `${urls.base}/phases/${phase.slug}.md`, `${closing}; ${notes.length} ${notes.length === 1 ? "note" : "notes"}`);
}

/** /llms-full.txt: the same header, then every published note as LLM text. */
export function llmsFullTxt(view: LlmsView, urls: AgentUrls, titles: PhaseTitles): string {
  const notes = view.notes.map((n) => noteText(n, view, urls, titles).trimEnd());
  return `${[...header(view, urls, undefined, "full"), ...notes.flatMap((t) => [SEPARATOR, "", t, ""])].join("\n")}`;
}

/**
 * /agents/pages.txt: every public page's Markdown twin, as an llmstxt.org file linked from
 * /llms.txt's Optional section, so a crawler that walks llms.txt finds every page.
 */
export function pagesTxt(view: Pick<PublishedView, "site" | "notes">, urls: AgentUrls, phases: PhasesView["phases"], tags: string[]): string {
  const noteLine = (n: Note) => link(`${n.id}: ${n.title}`, urls.noteAs(n.id, "md"), `${n.status}${n.boundaries.map((b) => `, ${b}`).join("")}`);
  return [
    `# ${view.site.title}: every page in Markdown`,
    "",
    "> Each public page of the archive has a Markdown twin at its URL with .md added (index.md for /), or at the same URL with Accept: text/markdown.",
    "",
    "## Pages",
    "",
    link("Home", `${urls.base}/index.md`, "the core decisions and every record"),
    link("Agent guide", `${urls.base}/agents.md`, "how agents retrieve the notes"),
    link("Search", `${urls.base}/search.md?q=sparse+attention`, "full-text search; put your words in q"),
    "",
    "## Notes in full",
    "",
    ...view.notes.map(noteLine),
    "",
    "## Note histories",
    "",
    ...view.notes.map((n) => link(`History of ${n.id}`, `${urls.base}/notes/${n.id}/history.md`, "every published revision")),
    "",
    ...(phases.length
      ? ["## Phases", "", ...phases.map((p) => link(`Phase ${phaseTitle(p.phase)}`, `${urls.base}/phases/${p.phase.slug}.md`, p.phase.status)), ""]
      : []),
    ...(tags.length ? ["## Tags", "", ...tags.map((t) => link(`Tag ${t}`, urls.tagMd(t), "notes with this tag")), ""] : []),
  ].join("\n");
}

const SEPARATOR = "-".repeat(72);

/** The header of llms.txt (and a slice of it), or of llms-full.txt (`full`: what follows is every note's full text, not links). */
function header(view: LlmsView, urls: AgentUrls, slice?: IndexSlice, what: "links" | "full" = "links"): string[] {
  const { site } = view;
  const rules = [...LIMIT_LEGEND.map((l) => `${l.flag}: ${l.meaning}`), ...(["superseded", "retracted"] as const).map((s) => `${s}: ${STATUS_MEANING[s]}`)];
  const below =
    what === "full"
      ? "Below is every published note's full text, one after another; each also has a capsule (≤ 350 tokens) at /agents/capsules/{id}.json."
      : "Each line below links a note's capsule (≤ 350 tokens); its full text is at /notes/{id}.md.";
  return [
    slice ? `# ${site.title}: ${slice.name}` : `# ${site.title}`,
    "",
    `> ${oneLine(site.lede)}`,
    "",
    oneLine(`${site.agents.retrieval} ${below} Rules: ${rules.join(" ")} Built from commit ${view.commit}; drafts are never published.`),
    "",
    oneLine(`${site.agents.archive_policy} Operator closeout contract: see the guide (${urls.guide}).`),
    "",
  ];
}

function link(name: string, url: string, note: string): string {
  // Brackets in a name would end the link text early: the grammar has no escape we can rely on.
  return `- [${name.replace(/[[\]]/g, "")}](${url}): ${oneLine(note)}`;
}

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();
