import bash from "@shikijs/langs/bash";
import c from "@shikijs/langs/c";
import cpp from "@shikijs/langs/cpp";
import csharp from "@shikijs/langs/csharp";
import css from "@shikijs/langs/css";
import diff from "@shikijs/langs/diff";
import dockerfile from "@shikijs/langs/dockerfile";
import go from "@shikijs/langs/go";
import graphql from "@shikijs/langs/graphql";
import html from "@shikijs/langs/html";
import http from "@shikijs/langs/http";
import ini from "@shikijs/langs/ini";
import java from "@shikijs/langs/java";
import javascript from "@shikijs/langs/javascript";
import json from "@shikijs/langs/json";
import jsx from "@shikijs/langs/jsx";
import kotlin from "@shikijs/langs/kotlin";
import markdown from "@shikijs/langs/markdown";
import nginx from "@shikijs/langs/nginx";
import python from "@shikijs/langs/python";
import ruby from "@shikijs/langs/ruby";
import rust from "@shikijs/langs/rust";
import shellsession from "@shikijs/langs/shellsession";
import sql from "@shikijs/langs/sql";
import toml from "@shikijs/langs/toml";
import tsx from "@shikijs/langs/tsx";
import typescript from "@shikijs/langs/typescript";
import xml from "@shikijs/langs/xml";
import yaml from "@shikijs/langs/yaml";
import githubDark from "@shikijs/themes/github-dark";
import githubLight from "@shikijs/themes/github-light";
import { createHighlighterCoreSync, type HighlighterCore, type LanguageRegistration } from "shiki/core";
import { createJavaScriptRegexEngine } from "shiki/engine/javascript";
import { codeBlocks, highlightable, MAX_HIGHLIGHTED, tokenSpans, type Highlighted } from "./code-tokens";

export { colorClass } from "./code-tokens";

/**
 * Fenced code highlighted on the server with shiki, in the light and the dark scheme at once, with
 * no client script. Colours are classes, not style attributes: each token gets `hl-<light colour>`
 * and `hd-<dark colour>`, which ./figures.css maps to colours (its generated part is checked against
 * the two themes by code.test.ts), so the output keeps the archive's rule of no inline style and
 * could pass a sanitizer. The block says its language in a small label. The token-to-span step is
 * shared with the studio preview (./code-tokens.ts), which loads the same grammars one by one
 * (./preview-code.ts).
 */

export const THEMES = { light: githubLight, dark: githubDark } as const;

const GRAMMARS: LanguageRegistration[][] = [
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  dockerfile,
  go,
  graphql,
  html,
  http,
  ini,
  java,
  javascript,
  json,
  jsx,
  kotlin,
  markdown,
  nginx,
  python,
  ruby,
  rust,
  shellsession,
  sql,
  toml,
  tsx,
  typescript,
  xml,
  yaml,
];

/** Fence name (lower case, with aliases) → the grammar's name and the label the reader sees. */
export const LANGUAGES = new Map<string, { name: string; label: string }>();
for (const grammar of GRAMMARS.flat()) {
  const entry = { name: grammar.name, label: grammar.displayName ?? grammar.name };
  for (const alias of [grammar.name, ...(grammar.aliases ?? [])]) if (!LANGUAGES.has(alias)) LANGUAGES.set(alias.toLowerCase(), entry);
}
// Common fence names the grammars do not list themselves.
for (const [alias, target] of [
  ["sh", "bash"],
  ["shell", "bash"],
  ["console", "shellsession"],
  ["yml", "yaml"],
  ["py", "python"],
  ["rs", "rust"],
  ["js", "javascript"],
  ["ts", "typescript"],
  ["golang", "go"],
  ["docker", "dockerfile"],
] as const) {
  const entry = LANGUAGES.get(target);
  if (entry && !LANGUAGES.has(alias)) LANGUAGES.set(alias, entry);
}

let highlighter: HighlighterCore | undefined;
function getHighlighter(): HighlighterCore {
  // Built on first use: grammars compile lazily, so a process that shows no code pays nothing.
  highlighter ??= createHighlighterCoreSync({ themes: [githubLight, githubDark], langs: GRAMMARS.flat(), engine: createJavaScriptRegexEngine() });
  return highlighter;
}

/** `<code>`'s text as highlighted spans (one per token, lines separated by "\n"), or null if not highlighted. */
export function highlight(code: string, fence: string): Highlighted | null {
  const language = LANGUAGES.get(fence.toLowerCase());
  if (!language || !highlightable(code, MAX_HIGHLIGHTED)) return null;
  return { label: language.label, children: tokenSpans(getHighlighter(), code, language.name) };
}

/**
 * Each fenced block highlighted and labelled with its language (./code-tokens.ts). Runs after
 * rehype-sanitize and after the diagrams (a mermaid block is a figure by then). Blocks without a
 * language stay as they are; a language without a grammar is labelled but not coloured.
 */
export function rehypeCode() {
  return codeBlocks(highlight);
}

/** Every token colour a theme can give (lower case), for the stylesheet's generated part. */
export function themeColors(scheme: "light" | "dark"): string[] {
  const theme = getHighlighter().getTheme(scheme === "light" ? "github-light" : "github-dark");
  const colors = new Set<string>();
  for (const rule of theme.settings) if (rule.settings.foreground) colors.add(rule.settings.foreground.toLowerCase());
  colors.delete(theme.fg.toLowerCase());
  return [...colors].sort();
}
