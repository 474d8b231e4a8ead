import type { Metadata } from "next";
import PublicLayout from "@/app/(public)/layout";
import { getPublishedView, type PublishedView } from "@/lib/content/published";
import { CAPSULE_BUDGET } from "@/lib/agents/capsule";
import { ENTRY_BUDGET } from "@/lib/agents/index-entry";
import { LIMIT_LEGEND } from "@/lib/agents/limits";
import { MCP_TOOLS } from "@/lib/agents/mcp";
import { CHANGES_PAGE_SIZE } from "@/lib/agents/changes";
import { CHANGES_TOOL } from "@/lib/agents/mcp-changes";
import { agentUrls, type AgentUrls } from "@/lib/agents/urls";
import { siteOrigin } from "@/lib/public/site-origin";
import { STATUS_MEANING, PUBLISHED_STATUSES } from "@/lib/notes/schema";
import { BoundaryBadge } from "@/components/boundary-badge";
import { StatusBadge } from "@/components/status-badge";
import { WRITE_TOOLS_BY_ROLE } from "./mcp/write-tools";
import styles from "./agents.module.css";

/**
 * /agents/: the guide for agents and their operators. The retrieval protocol, every format with
 * its URL pattern, what each status and boundary forbids, the archive policy and the operator
 * closeout contract, all from the published view and site.yaml of the current commit.
 */

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "For agents",
  description: "How agents retrieve the field notes: compact index, capsules, four formats per note, llms.txt and MCP.",
  alternates: {
    canonical: "/agents/",
    types: { "text/markdown": "/agents.md", "application/json": "/agents/index.json", "text/plain": "/llms.txt" },
  },
};

export default async function AgentsPage() {
  const urls = agentUrls(await siteOrigin());
  let view: PublishedView;
  try {
    view = await getPublishedView();
  } catch (e) {
    return (
      <PublicLayout>
        <h1>For agents</h1>
        <p>The published notes are unavailable right now: {(e as Error).message}</p>
      </PublicLayout>
    );
  }
  const { site } = view;
  const example = view.core[0]?.id ?? view.notes[0]?.id ?? "AFN-016";

  return (
    <PublicLayout>
      <article className={styles.guide}>
        <p className="kicker">{site.kicker} · for agents</p>
        <h1>Retrieval for agents and their operators</h1>
        <p className="lede">{site.agents.retrieval}</p>
        <dl className={styles.facts}>
          <dt>Audience</dt>
          <dd>{site.agents.audience}</dd>
          <dt>Claims</dt>
          <dd>{site.agents.claims}</dd>
          <dt>Content</dt>
          <dd>
            {view.notes.length} published notes from commit <code>{view.commit}</code> on <code>main</code>
          </dd>
        </dl>

        <h2 id="protocol">The retrieval protocol</h2>
        <ol className={styles.steps}>
          <li>
            <strong>Read the compact index</strong> — <Url href={urls.llms} /> or <Url href={urls.indexMd} /> (or <Url href={urls.indexJson} />
            ): one line per note, at most {ENTRY_BUDGET} tokens each: ID and title linking the capsule, status and hard boundaries, one-line decision. Or ask{" "}
            <Url href={urls.search("transactional state", 5)} label={`${urls.base}/agents/search.json?q=…&limit=…`} /> for ranked entries.
          </li>
          <li>
            <strong>Load one capsule</strong> — <code>{urls.capsule("{id}", "md")}</code> (or <code>.json</code>): decision, invariant, rejected shortcut, claim
            boundary, status and boundaries with their meaning, where the evidence is, related notes and when to open the full note, in at most {CAPSULE_BUDGET}{" "}
            tokens.
          </li>
          <li>
            <strong>Open the full note only when its decision matches the task</strong> — <code>{urls.noteAs("{id}", "md")}</code>, <code>.txt</code> or{" "}
            <code>.json</code>.
          </li>
        </ol>
        <p>
          An agent that knows only this site&apos;s address starts at <Url href={urls.llms} />: it links every note&apos;s capsule, so the second request
          already reads the capsule of the note that answers the task. Every page of the site has a Markdown twin: its URL with .md added (index.md for /), or
          the same URL asked for with Accept: text/markdown.
        </p>

        <h2 id="limits">Hard limits</h2>
        <p>
          Three labels limit what a note may be used for. Every format carries them as flags (<code>flags.hypothesis</code>, <code>flags.structural_only</code>,{" "}
          <code>flags.pinned_not_supported</code> in JSON; a <code>Flags:</code> line in text and capsules) with the meaning below.
        </p>
        <dl className={styles.limits}>
          {LIMIT_LEGEND.map((l) => (
            <div key={l.flag}>
              <dt>
                {l.flag === "hypothesis" ? <StatusBadge status="hypothesis" link={false} /> : <BoundaryBadge boundary={l.flag} />} <code>{l.flag}</code>
              </dt>
              <dd>{l.meaning}</dd>
            </div>
          ))}
        </dl>
        <table className={styles.table}>
          <caption>What each published status means</caption>
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">Value in the data</th>
              <th scope="col">Meaning</th>
            </tr>
          </thead>
          <tbody>
            {PUBLISHED_STATUSES.map((s) => (
              <tr key={s}>
                <td>
                  <StatusBadge status={s} link={false} />
                </td>
                <td>
                  <code>{s}</code>
                </td>
                <td>{STATUS_MEANING[s]}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p>
          Drafts are never served: every agent format is built only from <code>main</code> and only from published notes.
        </p>

        <h2 id="formats">Formats and URLs</h2>
        <Formats urls={urls} example={example} commit={view.commit} />

        <h2 id="mcp">MCP</h2>
        <p>
          A Model Context Protocol server answers at <code>{urls.mcp}</code> over Streamable HTTP, read-only unless the client sends an API token (below). It is
          stateless: each POST is answered on its own, as JSON; there are no sessions or server-sent streams, so GET is 405. A notification is accepted with
          202. Requests whose <code>Host</code> or <code>Origin</code> is not this site&apos;s are refused (DNS rebinding protection).
        </p>
        <table className={styles.table}>
          <caption>Tools (all read-only; results carry status, boundaries and flags as structured fields, each with an output schema)</caption>
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Arguments</th>
              <th scope="col">Returns</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>
                <code>{MCP_TOOLS[0]}</code>
              </td>
              <td>
                <code>query</code>, <code>limit</code>
              </td>
              <td>ranked index entries with the matching passage</td>
            </tr>
            <tr>
              <td>
                <code>{MCP_TOOLS[1]}</code>
              </td>
              <td>
                <code>status</code>, <code>tag</code>, <code>phase</code> (all optional)
              </td>
              <td>the compact index, filtered</td>
            </tr>
            <tr>
              <td>
                <code>{MCP_TOOLS[2]}</code>
              </td>
              <td>
                <code>id</code>
              </td>
              <td>the capsule</td>
            </tr>
            <tr>
              <td>
                <code>{MCP_TOOLS[3]}</code>
              </td>
              <td>
                <code>id</code>, <code>format</code>: markdown, text or json
              </td>
              <td>the full note</td>
            </tr>
            <tr>
              <td>
                <code>{CHANGES_TOOL}</code>
              </td>
              <td>
                <code>since</code> (a commit you read), <code>cursor</code>
              </td>
              <td>
                the published notes changed since then, as <a href="#changes">changes.json</a> answers
              </td>
            </tr>
            <tr>
              <td>
                <code>{MCP_TOOLS[4]}</code>
              </td>
              <td>
                <code>paths</code>, <code>components</code>, <code>diff</code> (a unified diff)
              </td>
              <td>
                the published notes governing that change, with pinned citations (also <code>GET {urls.governing}?path=…</code>, or POST a{" "}
                <code>text/x-diff</code> there)
              </td>
            </tr>
          </tbody>
        </table>
        <p>
          Every published note is also a resource: <code>{`${urls.base}/notes/{id}.{format}`}</code> (md, txt or json) and its capsule{" "}
          <code>{`${urls.base}/agents/capsules/{id}.{format}`}</code> (md or json), both advertised by resources/templates/list, with note IDs completed. The
          prompt retrieval_protocol carries the protocol and the hard-boundary rules for a task. A client configuration:
        </p>
        <pre className={styles.code}>{JSON.stringify({ mcpServers: { "field-notes": { type: "http", url: urls.mcp } } }, null, 2)}</pre>
        <p id="writing">
          <strong>Writing through the rules.</strong> A client that sends <code>Authorization: Bearer &lt;token&gt;</code> (a token from{" "}
          <code>npm run user -- token &lt;name&gt;</code>) also gets the write tools its role may call: an author&apos;s token{" "}
          <ToolList tools={WRITE_TOOLS_BY_ROLE.author} />; a reviewer&apos;s <ToolList tools={WRITE_TOOLS_BY_ROLE.reviewer} />. Each is one call of the
          studio&apos;s API, with its roles and rules: a save names the revision it read, and a stale one is a tool error carrying both versions. Nothing an
          agent writes is public until a person publishes it after review. Without a token these tools are not listed; a call of a tool not listed to a client
          is a JSON-RPC error (-32602) naming the tool and the role; a bad token is a 401.
        </p>

        <h2 id="caching">Provenance and caching</h2>
        <ul>
          <li>
            Every response names the commit it was built from: the <code>X-Content-Commit</code> header, and a <code>commit</code> field in JSON.
          </li>
          <li>
            Its <code>ETag</code> is derived from that commit; send it back in <code>If-None-Match</code> and an unchanged archive answers{" "}
            <code>304 Not Modified</code>. <code>Cache-Control: public, max-age=0, must-revalidate</code>: always revalidate.
          </li>
          <li>GET is open to every origin (CORS), so a browser-based agent can read it too.</li>
          <li id="changes">
            To catch up, keep the commit you read and ask <code>{`${urls.base}/agents/changes.json?since=<commit>`}</code>: the published notes added, changed
            (which fields), re-statused, superseded, retracted or removed since then, with main&apos;s commit to keep for next time, {CHANGES_PAGE_SIZE} a page
            (<code>next_url</code>). A commit main was never at here answers <code>410 Gone</code>: read the index again.
          </li>
          <li>
            Every page asked for with <code>Accept: text/markdown</code> answers its Markdown twin, with <code>Vary: Accept</code>; the HTML names the twin in a{" "}
            <code>Link</code> header.
          </li>
        </ul>

        <h2 id="policy">Archive policy</h2>
        <p>{site.agents.archive_policy}</p>

        <h2 id="closeout">Operator closeout contract</h2>
        <p>{site.agents.operator_contract}</p>
        <p>
          In short: a verified phase closes with a new evidence-bound note or an explicit no-new-decision record; each phase&apos;s record is in{" "}
          <Url href={`${urls.base}/agents/phases.json`} />. {site.operator_scope}
        </p>

        <h2 id="core">{site.core_heading}</h2>
        <p>{site.core_intro}</p>
        <ol className={styles.core}>
          {view.core.map((n) => (
            <li key={n.id}>
              <span className="id">{n.id}</span> {n.title} — <a href={urls.capsule(n.id, "md")}>capsule</a> · <a href={urls.noteAs(n.id, "md")}>Markdown</a> ·{" "}
              <a href={urls.note(n.id)}>page</a>
            </li>
          ))}
        </ol>
        <p className="commit-line">
          Built from commit <code>{view.commit}</code>.
        </p>
      </article>
    </PublicLayout>
  );
}

function Formats({ urls, example, commit }: { urls: AgentUrls; example: string; commit: string }) {
  const rows: { what: string; pattern: string; media: string; href: string }[] = [
    { what: "Note, HTML", pattern: "/notes/{id}", media: "text/html", href: urls.note(example) },
    { what: "Note, Markdown with front matter", pattern: "/notes/{id}.md", media: "text/markdown", href: urls.noteAs(example, "md") },
    { what: "Note, LLM text", pattern: "/notes/{id}.txt", media: "text/plain", href: urls.noteAs(example, "txt") },
    { what: "Note, JSON", pattern: "/notes/{id}.json", media: "application/json", href: urls.noteAs(example, "json") },
    { what: "Capsule, Markdown", pattern: "/agents/capsules/{id}.md", media: "text/markdown", href: urls.capsule(example, "md") },
    { what: "Capsule, JSON", pattern: "/agents/capsules/{id}.json", media: "application/json", href: urls.capsule(example, "json") },
    { what: "Compact index, Markdown", pattern: "/agents/index.md", media: "text/markdown", href: urls.indexMd },
    { what: "Compact index, JSON", pattern: "/agents/index.json", media: "application/json", href: urls.indexJson },
    { what: "Phases and their closeout records", pattern: "/agents/phases.json", media: "application/json", href: `${urls.base}/agents/phases.json` },
    { what: "Search", pattern: "/agents/search.json?q=…&limit=…", media: "application/json", href: urls.search("transactional state", 5) },
    { what: "Changes since a commit", pattern: "/agents/changes.json?since={commit}&cursor=…", media: "application/json", href: urls.changes(commit) },
    { what: "llms.txt", pattern: "/llms.txt", media: "text/plain", href: urls.llms },
    { what: "Every note in full", pattern: "/llms-full.txt", media: "text/plain", href: urls.llmsFull },
    { what: "Every page in Markdown", pattern: "/agents/pages.txt", media: "text/plain", href: urls.pagesTxt },
    {
      what: "JSON Schemas",
      pattern: "/agents/schema/{note|index-entry|capsule|index|search|changes}.json",
      media: "application/schema+json",
      href: urls.schema("note"),
    },
  ];
  return (
    <table className={styles.table}>
      <caption>Every format, with {example} as the example</caption>
      <thead>
        <tr>
          <th scope="col">What</th>
          <th scope="col">URL</th>
          <th scope="col">Media type</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.what}>
            <td>{r.what}</td>
            <td>
              <a href={r.href}>
                <code>{r.pattern}</code>
              </a>
            </td>
            <td>
              <code>{r.media}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Url({ href, label }: { href: string; label?: string }) {
  return (
    <a href={href}>
      <code>{label ?? href}</code>
    </a>
  );
}

/** "a, b and c", each as code; "none" for no tool. */
function ToolList({ tools }: { tools: readonly string[] }) {
  if (tools.length === 0) return <>none</>;
  return (
    <>
      {tools.map((t, i) => (
        <span key={t}>
          {i > 0 ? (i === tools.length - 1 ? " and " : ", ") : ""}
          <code>{t}</code>
        </span>
      ))}
    </>
  );
}
