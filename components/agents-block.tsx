import type { Site } from "@/lib/content/site";

/** Where each retrieval format of the whole archive lives. */
const FORMAT_URL: Record<string, string> = {
  html: "/agents/",
  markdown: "/agents/index.md",
  "llm text": "/llms.txt",
  json: "/agents/index.json",
};

/** "For agents": how to retrieve, the archive policy and who the operator contract binds, from site.yaml. */
export function AgentsBlock({ site }: { site: Site }) {
  const { agents } = site;
  return (
    <section className="agents" aria-labelledby="agents-heading">
      <h2 id="agents-heading">For agents: retrieval formats and archive policy</h2>
      <p>{agents.retrieval}</p>
      <p>
        <LeadSentence text={agents.archive_policy} />
      </p>
      <p>
        <LeadSentence text={agents.operator_contract} />
      </p>
      <dl className="facts">
        <div>
          <dt>Audience</dt>
          <dd>{agents.audience}</dd>
        </div>
        <div>
          <dt>Claims</dt>
          <dd>{agents.claims}</dd>
        </div>
        <div>
          <dt>Canonical path</dt>
          <dd>
            <a href={agents.canonical_path}>
              <code>{agents.canonical_path}</code>
            </a>
          </dd>
        </div>
        <div>
          <dt>Format</dt>
          <dd>
            {agents.formats.map((f, i) => {
              const href = FORMAT_URL[f.toLowerCase()];
              return (
                <span key={f}>
                  {i > 0 ? " · " : ""}
                  {href ? <a href={href}>{f}</a> : f}
                </span>
              );
            })}
          </dd>
        </div>
      </dl>
    </section>
  );
}

/** The policy's first sentence is its heading ("Public architecture only."), set in bold as the seed does. */
function LeadSentence({ text }: { text: string }) {
  const m = /^(.+?[.:])\s+(.*)$/s.exec(text);
  if (!m) return <>{text}</>;
  return (
    <>
      <strong>{m[1]}</strong> {m[2]}
    </>
  );
}
