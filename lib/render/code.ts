import type { Element, ElementContent, Root as HastRoot } from "hast";
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

/**
 * Fenced code highlighted on the server with shiki, in the light and the dark scheme at once, with
 * no client script. Colours are classes, not style attributes: each token gets `hl-<light colour>`
 * and `hd-<dark colour>`, which ./figures.css maps to colours (its generated part is checked against
 * the two themes by code.test.ts), so the output keeps the archive's rule of no inline style and
 * could pass a sanitizer. The block says its language in a small label.
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

/** Longer blocks are shown plain: highlighting time grows with the text, and it runs in the request. */
const MAX_HIGHLIGHTED = 50_000;

/**
 * How long one line may take to tokenize before the rest of it is left plain. Shiki's default (500 ms)
 * is shorter than compiling a large grammar (TypeScript) on first use on a busy machine (grammar
 * rules compile when a line first needs them: seconds at a load average of 20 on 2 cores), which
 * left a block's first line wrongly coloured; a pathological line still stops.
 */
const LINE_TIME_LIMIT_MS = 20_000;

/** Fence name (lower case, with aliases) → the grammar's name and the label the reader sees. */
const LANGUAGES = new Map<string, { name: string; label: string }>();
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

/** Class name of a colour in a scheme: `hl-d73a49` (light), `hd-f97583` (dark). */
export function colorClass(scheme: "light" | "dark", color: string): string {
  return `${scheme === "light" ? "hl" : "hd"}-${color.replace(/^#/, "").toLowerCase()}`;
}

/** The colour each theme gives plain text: such tokens get no class and inherit the page's text colour. */
let plain: { light: string; dark: string } | undefined;
function plainColors(h: HighlighterCore) {
  plain ??= { light: h.getTheme("github-light").fg.toLowerCase(), dark: h.getTheme("github-dark").fg.toLowerCase() };
  return plain;
}

/** `<code>`'s text as highlighted spans (one per token, lines separated by "\n"), or null if not highlighted. */
export function highlight(code: string, fence: string): { label: string; children: ElementContent[] } | null {
  const language = LANGUAGES.get(fence.toLowerCase());
  if (!language || code.length > MAX_HIGHLIGHTED) return null;
  const h = getHighlighter();
  const PLAIN = plainColors(h);
  const { tokens } = h.codeToTokens(code, {
    lang: language.name,
    themes: { light: "github-light", dark: "github-dark" },
    defaultColor: false,
    tokenizeTimeLimit: LINE_TIME_LIMIT_MS,
  });
  const children: ElementContent[] = [];
  tokens.forEach((line, i) => {
    if (i > 0) children.push({ type: "text", value: "\n" });
    for (const token of line) {
      const style = token.htmlStyle ?? {};
      const classes: string[] = [];
      const light = style["--shiki-light"]?.toLowerCase();
      const dark = style["--shiki-dark"]?.toLowerCase();
      if (light && dark && !(light === PLAIN.light && dark === PLAIN.dark)) classes.push(colorClass("light", light), colorClass("dark", dark));
      const fontStyle = `${style["--shiki-light-font-style"] ?? ""} ${style["--shiki-light-font-weight"] ?? ""} ${style["--shiki-light-text-decoration"] ?? ""}`;
      if (/italic/.test(fontStyle)) classes.push("hl-italic");
      if (/bold/.test(fontStyle)) classes.push("hl-bold");
      if (/underline/.test(fontStyle)) classes.push("hl-underline");
      const text: ElementContent = { type: "text", value: token.content };
      children.push(classes.length ? { type: "element", tagName: "span", properties: { className: classes }, children: [text] } : text);
    }
  });
  return { label: language.label, children };
}

/**
 * Each fenced block (`<pre><code class="language-x">` as sanitizing left it) highlighted and labelled
 * with its language. Runs after rehype-sanitize and after the diagrams (a mermaid block is a figure by then).
 * Blocks without a language stay as they are; a language without a grammar is labelled but not coloured.
 */
export function rehypeCode() {
  return (tree: HastRoot) => {
    const visit = (node: HastRoot | Element) => {
      node.children.forEach((child, i) => {
        if (child.type !== "element") return;
        if (child.tagName !== "pre") return visit(child);
        const code = child.children.find((c): c is Element => c.type === "element" && c.tagName === "code");
        const fence = languageOf(code);
        if (!code || !fence || fence === "mermaid") return;
        const text = code.children
          .map((c) => (c.type === "text" ? c.value : ""))
          .join("")
          .replace(/\n$/, "");
        const highlighted = highlight(text, fence);
        const label = highlighted?.label ?? fence;
        node.children[i] = {
          type: "element",
          tagName: "div",
          properties: { className: ["code-block"] },
          children: [
            { type: "element", tagName: "span", properties: { className: ["code-language"] }, children: [{ type: "text", value: label }] },
            {
              type: "element",
              tagName: "pre",
              // Focusable: a long line scrolls, and a keyboard user must be able to scroll it.
              properties: { className: ["code", ...(highlighted ? ["highlighted"] : [])], tabIndex: 0 },
              children: [
                { type: "element", tagName: "code", properties: { className: [`language-${fence}`] }, children: highlighted?.children ?? code.children },
              ],
            },
          ],
        };
      });
    };
    visit(tree);
  };
}

function languageOf(code: Element | undefined): string | null {
  const classes = code?.properties.className;
  if (!Array.isArray(classes)) return null;
  for (const c of classes) if (typeof c === "string" && c.startsWith("language-")) return c.slice("language-".length);
  return null;
}

/** Every token colour a theme can give (lower case), for the stylesheet's generated part. */
export function themeColors(scheme: "light" | "dark"): string[] {
  const theme = getHighlighter().getTheme(scheme === "light" ? "github-light" : "github-dark");
  const colors = new Set<string>();
  for (const rule of theme.settings) if (rule.settings.foreground) colors.add(rule.settings.foreground.toLowerCase());
  colors.delete(theme.fg.toLowerCase());
  return [...colors].sort();
}
