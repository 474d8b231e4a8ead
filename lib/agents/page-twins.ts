import type { PhasesView } from "@/lib/content/phases";
import type { PublishedView } from "@/lib/content/published";
import type { FieldDiff } from "@/lib/diff/sections";
import { BOUNDARY_LABEL, PUBLISHED_STATUSES, STATUS_LABEL, STATUS_MEANING, type Note, type Status } from "@/lib/notes/schema";
import { homeListing, onlyStatus, type StatusCount } from "@/lib/public/listing";
import { highlightRanges } from "@/lib/public/highlight";
import { foldWeakMatches } from "@/lib/public/search-results";
import type { HistoryEntry } from "@/lib/public/history";
import { approvalWords } from "@/lib/public/revision-words";
import { comparePhases, DEFAULT_QUERY, groupByPhase, recordsHref, type RecordParams, type RecordQuery } from "@/lib/public/record-query";
import type { PhasePage, TagPage } from "@/lib/public/pages";
import { phaseTitle, phaseTitlesOf, shownPhase, type PhaseTitles } from "@/lib/phases/schema";
import { phaseUrl } from "@/lib/web/urls";
import type { Role } from "@/lib/rules/status-machine";
import type { SearchHit } from "@/lib/search";
import { CHANGES_PAGE_SIZE } from "./changes";
import { LIMIT_LEGEND } from "./limits";
import { CHANGES_TOOL } from "./mcp-changes";
import type { AgentUrls } from "./urls";

/**
 * The Markdown twins of the public pages: the same content as the HTML page, without the site's
 * navigation, with links to other pages' twins. Every twin, like every Markdown answer, opens with
 * the pointer to /llms.txt, so an agent that lands on any page learns where the index is.
 * Which notes a page lists is decided by the same function for both forms (lib/public).
 */

/** The first line of every Markdown answer. */
export function llmsPointer(urls: AgentUrls): string {
  return `> For agents: the index of this archive is ${urls.llms}`;
}

export function withLlmsPointer(markdown: string, urls: AgentUrls): string {
  return `${llmsPointer(urls)}\n\n${markdown}`;
}

/** A note in a list, as the note cards show it: ID and status, title, summary, phase (by its title) and tags. */
function noteItem(note: Note, urls: AgentUrls, titles: PhaseTitles): string {
  const status = [note.status, ...note.boundaries].join(", ");
  const tags = note.tags.length ? ` Tags: ${note.tags.join(", ")}.` : "";
  return `- **${note.id}** (${status}): [${escapeText(note.title)}](${urls.noteAs(note.id, "md")})\n  ${oneLine(note.summary)} Phase ${oneLine(shownPhase(titles, note.phase))}.${tags}`;
}

function noteList(notes: readonly Note[], urls: AgentUrls, titles: PhaseTitles): string[] {
  return notes.map((n) => noteItem(n, urls, titles));
}

/** The records as the HTML lists them: one list, or under a heading per phase with `group=phase`. */
function recordList(notes: readonly Note[], query: RecordQuery, urls: AgentUrls, titles: PhaseTitles): string[] {
  if (!query.group) return noteList(notes, urls, titles);
  return groupByPhase(notes).flatMap((g, i) => [
    ...(i ? [""] : []),
    `### Phase ${escapeText(shownPhase(titles, g.phase))}`,
    "",
    ...noteList(g.notes, urls, titles),
  ]);
}

/** The status links, each keeping the tag and phase (and the order) a reader chose, as the page's do. */
function filterLine(counts: StatusCount[], total: number, urls: AgentUrls, query: RecordQuery = DEFAULT_QUERY): string {
  const twin = (status: Status | null) => `${urls.base}/index.md${recordsHref(query, { status }).slice(1)}`;
  const items = counts.map((c) => `[${STATUS_LABEL[c.status]} (${c.count})](${twin(c.status)})`);
  return `Filter by status: [all (${total})](${twin(null)}), ${items.join(", ")}.`;
}

/** As the pages' CommitLine says it, with the whole commit ID after the short one. */
const commitLine = (view: Pick<PublishedView, "commit">) => `Read from published commit ${view.commit.slice(0, 12)} (${view.commit}, on main).`;

/**
 * `/` and `/?status=…&tag=…&phase=…&sort=…&dir=…&group=phase`: the filters and order of the HTML page,
 * read by the same parser (lib/public/record-query.ts through homeListing). `updated` (each note's last
 * change) is only read when the query sorts by it; `titles` are the renamed phases' (phaseTitlesAt).
 * The HTML's pages (?page=) are one list here.
 */
export function homeTwin(
  view: PublishedView,
  urls: AgentUrls,
  params: RecordParams,
  titles: PhaseTitles,
  updated: ReadonlyMap<string, string> = new Map(),
): string {
  const { site } = view;
  const listing = homeListing(view, params, titles, updated);
  if (listing.kind === "unknown-status") {
    return page(urls, [
      `# No such status`,
      "",
      `“${escapeText(listing.value)}” is not a status of a published note. The statuses are: ${PUBLISHED_STATUSES.map((s) => `[${STATUS_LABEL[s]}](${urls.base}/index.md?status=${s})`).join(", ")}.`,
      "",
      filterLine(listing.counts, listing.total, urls),
    ]);
  }
  const notProblems = listing.problems.length ? ["", `Not understood, so left out: ${listing.problems.join(" ")}`] : [];
  if (listing.kind === "filtered") {
    const { query } = listing;
    return page(urls, [
      `# ${onlyStatus(query) ? `Status: ${STATUS_LABEL[query.status]}` : escapeText(listing.title)}`,
      "",
      ...(onlyStatus(query) ? [STATUS_MEANING[query.status], ""] : []),
      `${listing.notes.length} of ${listing.total} notes. [All decision records](${urls.base}/index.md).`,
      ...notProblems,
      "",
      filterLine(listing.counts, listing.choicesTotal, urls, query),
      "",
      ...(listing.notes.length ? recordList(listing.notes, listing.query, urls, titles) : [`No published note matches ${escapeText(listing.title)}.`]),
      "",
      commitLine(view),
    ]);
  }
  return page(urls, [
    `# ${site.title}`,
    "",
    site.kicker,
    "",
    oneLine(site.lede),
    "",
    oneLine(site.operator_scope),
    "",
    `${listing.total} notes · ${site.counts_suffix}`,
    "",
    `## ${site.core_heading}`,
    "",
    `${listing.core.length} core decisions. ${oneLine(site.core_intro)}`,
    "",
    ...listing.core.map(
      (n, i) => `${i + 1}. ${n.core?.label ?? ""} ${n.id}: [${escapeText(n.title)}](${urls.noteAs(n.id, "md")}) (${n.status})\n   ${oneLine(n.summary)}`,
    ),
    "",
    "## All decision records",
    "",
    `${listing.notes.length} records. ${filterLine(listing.counts, listing.total, urls)}`,
    ...notProblems,
    "",
    ...recordList(listing.notes, listing.query, urls, titles),
    "",
    "## For agents: retrieval formats and archive policy",
    "",
    oneLine(site.agents.retrieval),
    "",
    oneLine(site.agents.archive_policy),
    "",
    oneLine(site.agents.operator_contract),
    "",
    `Audience: ${site.agents.audience}. Claims: ${site.agents.claims}. Canonical path: ${urls.guide}. Formats: ${site.agents.formats.join(", ")}; the guide is at ${urls.guideMd}.`,
    "",
    commitLine(view),
  ]);
}

/** `/tags/<tag>`. */
export function tagTwin(view: PublishedView, urls: AgentUrls, tag: TagPage, titles: PhaseTitles): string {
  return page(urls, [
    `# Tag: ${escapeText(tag.name)}`,
    "",
    `${tag.notes.length} of ${view.notes.length} notes.`,
    "",
    ...noteList(tag.notes, urls, titles),
    "",
    commitLine(view),
  ]);
}

/** `/phases/<slug>`. */
export function phaseTwin(view: PublishedView, urls: AgentUrls, found: PhasePage, phases: PhasesView["phases"]): string {
  const { phase, delta, notes } = found.phase;
  const record = phase.closeout;
  const closeout = found.orphan
    ? ["This phase has no phase record in the archive yet, so no status or closeout is shown."]
    : [
        "## Closeout",
        "",
        `Status: ${phase.status === "closed" ? "closed" : "open"}.${phase.opened ? ` Opened ${phase.opened}.` : ""}${phase.closed ? ` Closed ${phase.closed}.` : ""}`,
        ...(record?.kind === "delta" ? ["", `Closed by ${record.by} on ${record.at} with a decision delta: ${record.notes.join(", ")}.`] : []),
        ...(record?.kind === "no-delta"
          ? ["", `Closed by ${record.by} on ${record.at} with no new decision delta, because:`, "", `> ${oneLine(record.why)}`]
          : []),
        ...(phase.status === "open"
          ? [
              "",
              delta.length
                ? `Open. Its decision delta so far: ${delta.join(", ")}.`
                : "Open. No note of this phase has become verified while it was open; it closes with a new verified note or an explicit no-new-decision record.",
            ]
          : []),
        ...(phase.reopenings.length ? ["", "### Reopened", "", ...phase.reopenings.map((r) => `- ${r.at}, by ${r.by}: ${oneLine(r.reason)}`)] : []),
      ];
  // In a reader's order (by number, then named phases), as the page lists them.
  const others = phases
    .filter((p) => p.phase.slug !== phase.slug)
    .sort((a, b) => comparePhases(a.phase.name, b.phase.name))
    .map((p) => `[Phase ${phaseTitle(p.phase)}](${urls.base}${phaseUrl(p.phase.name)}.md)`);
  return page(urls, [
    `# Phase ${escapeText(phaseTitle(phase))}`,
    "",
    ...(phase.description ? [oneLine(phase.description), ""] : []),
    `${found.orphan ? "" : `${phase.status} · `}${notes.length} of ${view.notes.length} notes.`,
    "",
    ...closeout,
    "",
    "## Notes",
    "",
    ...(notes.length ? noteList(notes, urls, phaseTitlesOf(phases.map((p) => p.phase))) : ["No published note names this phase yet."]),
    "",
    ...(others.length ? [`Other phases: ${others.join(", ")}.`, ""] : []),
    commitLine(view),
  ]);
}

/**
 * `/notes/<id>/history`: every published revision, newest first, as the HTML page tells it (lib/public/history.ts):
 * what it did in words, when, by whom and who approved it, what changed in each field, and the commit's id and
 * subject on a last line (its trailers are git's, not the reader's).
 */
export function historyTwin(
  view: PublishedView,
  urls: AgentUrls,
  note: Note,
  revisions: readonly HistoryEntry[],
  diff: (before: Note, after: Note) => FieldDiff[],
): string {
  const lines = [
    `# History of ${note.id}`,
    "",
    `[${note.id}: ${escapeText(note.title)}](${urls.noteAs(note.id, "md")})`,
    "",
    `${revisions.length === 1 ? "One published revision." : `${revisions.length} published revisions, newest first.`} Each shows what changed since the revision before it, field by field and section by section. Unpublished drafts are not part of this history.`,
    "",
  ];
  revisions.forEach((rev, i) => {
    const { previous } = rev;
    lines.push(`## ${escapeText(rev.words)}`, "");
    const approval = rev.approvedBy.length ? ` · ${escapeText(approvalWords(rev.approvedBy))}` : "";
    const statusNow = previous && previous.note.status !== rev.note.status ? ` · status now ${rev.note.status}` : "";
    lines.push(`${rev.date} · by ${escapeText(rev.by)}${approval}${i === 0 ? " · current" : ""}${statusNow}`, "");
    if (!previous) {
      lines.push("First published revision: the note as it first appeared on the archive.", "");
    } else {
      const diffs = diff(previous.note, rev.note);
      if (!diffs.length) lines.push("No field changed: the file was only reformatted.", "");
      for (const d of diffs) {
        lines.push(`### ${d.label} ${d.change}`, "");
        const parts = d.parts.map((p) => (p.kind === "added" ? `{+${p.text}+}` : p.kind === "removed" ? `[-${p.text}-]` : p.text));
        lines.push(...(d.list ? parts.map((p) => `- ${oneLine(p)}`) : [parts.join("").trim()]), "");
      }
    }
    const subject = rev.message.split("\n")[0]?.trim() ?? "";
    lines.push(`Commit ${rev.commit}${subject ? `: ${escapeText(subject)}` : ""}`, "");
  });
  lines.push("Changes are marked {+added+} and [-removed-].", "", commitLine(view));
  return page(urls, lines);
}

/** `/search?q=…`. */
export function searchTwin(view: PublishedView, urls: AgentUrls, q: string, hits: readonly SearchHit[], fieldLabel: Record<string, string>): string {
  if (!q) {
    return page(urls, [
      "# Search",
      "",
      `Searches every field of the ${view.notes.length} published notes: titles, summaries, tags, phases, statuses and each section. Results are ranked; the passage that matched is shown.`,
      "",
      `Ask ${urls.base}/search.md?q={words}, or ${urls.base}/agents/search.json?q={words} for index entries as JSON.`,
      "",
      commitLine(view),
    ]);
  }
  const entry = (h: SearchHit) => {
    const note = view.byId.get(h.id);
    if (!note) return [];
    const above = h.field === "title" || h.field === "id";
    const passage = above ? oneLine(note.summary) : `Matched in ${fieldLabel[h.field] ?? h.field}: ${oneLine(h.passage)}`;
    // As the result card shows it: ID, status label, title, passage (the exact status in brackets).
    // The tags the search matched, named as the result card names them ("Tag: sparse attention").
    const tags = note.tags.filter((t) => highlightRanges(t, h.terms).length > 0);
    const tagLine = tags.length ? `\n  ${tags.length === 1 ? "Tag" : "Tags"}: ${tags.map(escapeText).join(" · ")}` : "";
    return [
      `- **${note.id}** ${STATUS_LABEL[note.status]} (${note.status}): [${escapeText(note.title)}](${urls.noteAs(note.id, "md")})\n  ${passage}${tagLine}`,
    ];
  };
  // As the page shows them: the notes about the query, then the ones that share a word only in passing.
  const { strong, weak } = foldWeakMatches(hits);
  const shown = strong.flatMap(entry);
  const folded = weak.flatMap(entry);
  const count =
    shown.length === 0 && folded.length === 0
      ? `No note matches “${escapeText(q)}”`
      : `${shown.length} ${shown.length === 1 ? "note matches" : "notes match"} “${escapeText(q)}”${folded.length ? `, ${folded.length} more weakly` : ""}`;
  return page(urls, [
    "# Search",
    "",
    `## ${count}`,
    "",
    ...(shown.length ? shown : [`Try fewer words, another spelling, a tag or an ID such as AFN-016; or browse [all decision records](${urls.base}/index.md).`]),
    ...(folded.length
      ? ["", `### ${folded.length} more ${folded.length === 1 ? "note shares" : "notes share"} a word with the query only in passing`, "", ...folded]
      : []),
    "",
    commitLine(view),
  ]);
}

/** "a, b and c"; "none" for no tool. */
const inWords = (tools: readonly string[]) =>
  tools.length ? (tools.length === 1 ? tools[0] : `${tools.slice(0, -1).join(", ")} and ${tools.at(-1)}`) : "none";

/** `/agents/`: the guide; `writeTools`, the write tools each role's token is offered (app/agents/mcp/write-tools.ts). */
export function guideTwin(
  view: PublishedView,
  urls: AgentUrls,
  budgets: { entry: number; capsule: number },
  tools: readonly string[],
  writeTools: Readonly<Record<Role, readonly string[]>>,
): string {
  const { site } = view;
  const example = view.core[0]?.id ?? view.notes[0]?.id ?? "AFN-016";
  const formats: [string, string, string][] = [
    ["Note, HTML", urls.note(example), "text/html"],
    ["Note, Markdown with front matter", urls.noteAs(example, "md"), "text/markdown"],
    ["Note, LLM text", urls.noteAs(example, "txt"), "text/plain"],
    ["Note, JSON", urls.noteAs(example, "json"), "application/json"],
    ["Capsule, Markdown", urls.capsule(example, "md"), "text/markdown"],
    ["Capsule, JSON", urls.capsule(example, "json"), "application/json"],
    ["Compact index, Markdown", urls.indexMd, "text/markdown"],
    ["Compact index, JSON", urls.indexJson, "application/json"],
    ["Phases and their closeout records", `${urls.base}/agents/phases.json`, "application/json"],
    ["Search", urls.search("transactional state", 5), "application/json"],
    ["Changes since a commit", urls.changes(view.commit), "application/json"],
    ["llms.txt", urls.llms, "text/plain"],
    ["Every note in full", urls.llmsFull, "text/plain"],
    ["Every page in Markdown", urls.pagesTxt, "text/plain"],
    ["JSON Schemas", urls.schema("note"), "application/schema+json"],
  ];
  return page(urls, [
    "# Retrieval for agents and their operators",
    "",
    `${site.kicker} · for agents`,
    "",
    oneLine(site.agents.retrieval),
    "",
    `- Audience: ${site.agents.audience}`,
    `- Claims: ${site.agents.claims}`,
    `- Content: ${view.notes.length} published notes from commit ${view.commit} on main`,
    "",
    "## The retrieval protocol",
    "",
    `1. **Read the compact index** — ${urls.llms} or ${urls.indexMd} (or ${urls.indexJson}): one line per note, at most ${budgets.entry} tokens each: ID and title linking the capsule, status and hard boundaries, one-line decision. Or ask ${urls.base}/agents/search.json?q=…&limit=… for ranked entries.`,
    `2. **Load one capsule** — ${urls.capsule("{id}", "md")} (or .json): decision, invariant, rejected shortcut, claim boundary, status and boundaries with their meaning, where the evidence is, related notes and when to open the full note, in at most ${budgets.capsule} tokens.`,
    `3. **Open the full note only when its decision matches the task** — ${urls.noteAs("{id}", "md")}, .txt or .json.`,
    "",
    `An agent that knows only this site's address starts at ${urls.llms}: it links every note's capsule, so the second request already reads the capsule of the note that answers the task. Every page of the site has a Markdown twin: its URL with .md added (index.md for /), or the same URL asked for with Accept: text/markdown.`,
    "",
    "## Hard limits",
    "",
    "Three labels limit what a note may be used for. Every format carries them as flags (flags.hypothesis, flags.structural_only, flags.pinned_not_supported in JSON; a Flags: line in text and capsules) with the meaning below.",
    "",
    // As the guide's page shows each limit: its badge's label, then the flag as the data writes it.
    ...LIMIT_LEGEND.map((l) => `- **${l.flag === "hypothesis" ? STATUS_LABEL.hypothesis : BOUNDARY_LABEL[l.flag]}** \`${l.flag}\`: ${l.meaning}`),
    "",
    "What each published status means:",
    "",
    "| Status | Meaning |",
    "| --- | --- |",
    ...PUBLISHED_STATUSES.map((s) => `| ${s} | ${STATUS_MEANING[s]} |`),
    "",
    "Drafts are never served: every agent format is built only from main and only from published notes.",
    "",
    "## Formats and URLs",
    "",
    `Every format, with ${example} as the example:`,
    "",
    "| What | URL | Media type |",
    "| --- | --- | --- |",
    ...formats.map(([what, url, media]) => `| ${what} | ${url} | ${media} |`),
    "",
    "## MCP",
    "",
    `A Model Context Protocol server answers at ${urls.mcp} over Streamable HTTP, read-only unless the client sends an API token (below). It is stateless: each POST is answered on its own, as JSON; there are no sessions or server-sent streams, so GET is 405. A notification is accepted with 202. Requests whose Host or Origin is not this site's are refused (DNS rebinding protection).`,
    "",
    "Tools (all read-only; results carry status, boundaries and flags as structured fields, each with an output schema)",
    "",
    "| Tool | Arguments | Returns |",
    "| --- | --- | --- |",
    `| ${tools[0]} | query, limit | ranked index entries with the matching passage |`,
    `| ${tools[1]} | status, tag, phase (all optional) | the compact index, filtered |`,
    `| ${tools[2]} | id | the capsule |`,
    `| ${tools[3]} | id, format: markdown, text or json | the full note |`,
    `| ${CHANGES_TOOL} | since (a commit you read), cursor | the published notes changed since then, as changes.json answers |`,
    `| ${tools[4]} | paths, components, diff (a unified diff) | the published notes governing that change, with pinned citations (also GET ${urls.governing}?path=… and POST a text/x-diff there) |`,
    "",
    `Every published note is also a resource: ${urls.base}/notes/{id}.{format} (md, txt or json) and its capsule ${urls.base}/agents/capsules/{id}.{format} (md or json), both advertised by resources/templates/list, with note IDs completed. The prompt retrieval_protocol carries the protocol and the hard-boundary rules for a task. A client configuration:`,
    "",
    "```json",
    JSON.stringify({ mcpServers: { "field-notes": { type: "http", url: urls.mcp } } }, null, 2),
    "```",
    "",
    `**Writing through the rules.** A client that sends Authorization: Bearer <token> (a token from \`npm run user -- token <name>\`) also gets the write tools its role may call: an author's token ${inWords(writeTools.author)}; a reviewer's ${inWords(writeTools.reviewer)}. Each is one call of the studio's API, with its roles and rules: a save names the revision it read, and a stale one is a tool error carrying both versions. Nothing an agent writes is public until a person publishes it after review. Without a token these tools are not listed; a call of a tool not listed to a client is a JSON-RPC error (-32602) naming the tool and the role; a bad token is a 401.`,
    "",
    "## Provenance and caching",
    "",
    "- Every response names the commit it was built from: the X-Content-Commit header, and a commit field in JSON.",
    "- Its ETag is derived from that commit; send it back in If-None-Match and an unchanged archive answers 304 Not Modified. Cache-Control: public, max-age=0, must-revalidate: always revalidate.",
    "- GET is open to every origin (CORS), so a browser-based agent can read it too.",
    `- To catch up, keep the commit you read and ask ${urls.base}/agents/changes.json?since=<commit>: the published notes added, changed (which fields), re-statused, superseded, retracted or removed since then, with main's commit to keep for next time, ${CHANGES_PAGE_SIZE} a page (next_url). A commit main was never at here answers 410 Gone: read the index again.`,
    "- Every page asked for with Accept: text/markdown answers its Markdown twin, with Vary: Accept; the HTML names the twin in a Link header.",
    "",
    "## Archive policy",
    "",
    oneLine(site.agents.archive_policy),
    "",
    "## Operator closeout contract",
    "",
    oneLine(site.agents.operator_contract),
    "",
    `In short: a verified phase closes with a new evidence-bound note or an explicit no-new-decision record; each phase's record is in ${urls.base}/agents/phases.json. ${oneLine(site.operator_scope)}`,
    "",
    `## ${site.core_heading}`,
    "",
    oneLine(site.core_intro),
    "",
    ...view.core.map(
      (n, i) =>
        `${i + 1}. ${n.id} ${escapeText(n.title)} — [capsule](${urls.capsule(n.id, "md")}) · [Markdown](${urls.noteAs(n.id, "md")}) · [page](${urls.note(n.id)})`,
    ),
    "",
    `Built from commit ${view.commit}.`,
  ]);
}

function page(urls: AgentUrls, lines: string[]): string {
  return `${withLlmsPointer(
    lines
      .join("\n")
      .replace(/\n{3,}/g, "\n\n")
      .trimEnd(),
    urls,
  )}\n`;
}

/** Text that Markdown must not read as markup: brackets (links) and a leading #, > or - . */
function escapeText(s: string): string {
  return oneLine(s).replace(/([[\]])/g, "\\$1");
}

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();
