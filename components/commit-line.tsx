/** Which commit of the content repository this page was read from: a reader can cite it, an agent can compare it. */
export function CommitLine({ commit }: { commit: string }) {
  return (
    <p className="commit-line">
      Read from published commit <code title={commit}>{commit.slice(0, 12)}</code>
    </p>
  );
}
