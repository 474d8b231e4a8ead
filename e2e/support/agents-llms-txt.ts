/**
 * A strict reader of the llmstxt.org format, written from the spec and independent of the code
 * that writes /llms.txt: an H1 title first; an optional one-line blockquote summary; prose that
 * holds no headings; then H2 sections whose content is only `- [name](url)` items, each optionally
 * followed by `: notes`; an `## Optional` section, if present, comes last. Anything else throws
 * with the line number and what was expected.
 */

export type LlmsLink = { name: string; url: string; notes: string | null };
export type LlmsTxt = { title: string; summary: string | null; info: string; sections: { name: string; links: LlmsLink[] }[] };

const LINK_ITEM = /^- \[([^\]]+)\]\(([^()\s]+)\)(?:: (.+))?$/;

export function parseLlmsTxt(source: string): LlmsTxt {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const fail = (i: number, what: string): never => {
    throw new Error(`llms.txt line ${i + 1}: ${what} (got ${JSON.stringify(lines[i] ?? "<end of file>")})`);
  };
  let i = 0;
  const title = /^# (\S.*)$/.exec(lines[i] ?? "")?.[1] ?? fail(i, "expected the H1 title on the first line");
  i++;
  while (i < lines.length && lines[i]?.trim() === "") i++;

  let summary: string | null = null;
  if (lines[i]?.startsWith(">")) {
    summary = /^> (\S.*)$/.exec(lines[i] ?? "")?.[1] ?? fail(i, "expected '> summary'");
    i++;
    if (lines[i]?.startsWith(">")) fail(i, "the summary blockquote must be one line");
  }

  const info: string[] = [];
  for (; i < lines.length && !lines[i]?.startsWith("## "); i++) {
    if (/^#{1,6}(\s|$)/.test(lines[i] ?? "")) fail(i, "no heading may come before the first H2 section");
    info.push(lines[i] ?? "");
  }

  const sections: LlmsTxt["sections"] = [];
  for (; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line.trim() === "") continue;
    const h2 = /^## (\S.*)$/.exec(line);
    if (h2) {
      const name = (h2[1] ?? "").trim();
      if (sections.some((s) => s.name === name)) fail(i, `section "${name}" appears twice`);
      if (sections.at(-1)?.name === "Optional") fail(i, "the Optional section must be the last one");
      sections.push({ name, links: [] });
      continue;
    }
    const link = LINK_ITEM.exec(line) ?? fail(i, "a section may hold only '- [name](url): notes' items");
    const section = sections.at(-1) ?? fail(i, "a link outside any section");
    section.links.push({ name: link[1] ?? "", url: link[2] ?? "", notes: link[3] ?? null });
  }
  return { title, summary, info: info.join("\n").trim(), sections };
}
