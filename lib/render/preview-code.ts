import type { HighlighterCore, LanguageRegistration } from "shiki/core";
import { tokenSpans, type Highlight, type Highlighted } from "./code-tokens";

/**
 * Code in the studio preview, highlighted as the page highlights it (./code.ts) without shipping
 * shiki's grammars with the editor: shiki's core, its JavaScript regex engine and the two themes
 * are one chunk, and each grammar its own, loaded when a block in that language is first
 * previewed. Until both are there the block shows plain under its label (as a language without a
 * grammar does on the page), and `onPreviewGrammar` tells ./preview.ts, whose `onPreviewChunk` has the field render again.
 *
 * Fence names map to the same grammars, names and labels as on the server (code.test.ts holds the
 * two tables equal); a grammar module brings the grammars it embeds (html: css and javascript).
 */

type Grammar = { default: LanguageRegistration[] };
type PreviewLanguage = { name: string; label: string; load: () => Promise<Grammar> };

const bash = () => import("@shikijs/langs/bash");
const c = () => import("@shikijs/langs/c");
const cpp = () => import("@shikijs/langs/cpp");
const csharp = () => import("@shikijs/langs/csharp");
const css = () => import("@shikijs/langs/css");
const diff = () => import("@shikijs/langs/diff");
const dockerfile = () => import("@shikijs/langs/dockerfile");
const go = () => import("@shikijs/langs/go");
const graphql = () => import("@shikijs/langs/graphql");
const html = () => import("@shikijs/langs/html");
const http = () => import("@shikijs/langs/http");
const ini = () => import("@shikijs/langs/ini");
const java = () => import("@shikijs/langs/java");
const javascript = () => import("@shikijs/langs/javascript");
const json = () => import("@shikijs/langs/json");
const jsx = () => import("@shikijs/langs/jsx");
const kotlin = () => import("@shikijs/langs/kotlin");
const markdown = () => import("@shikijs/langs/markdown");
const nginx = () => import("@shikijs/langs/nginx");
const python = () => import("@shikijs/langs/python");
const ruby = () => import("@shikijs/langs/ruby");
const rust = () => import("@shikijs/langs/rust");
const shellsession = () => import("@shikijs/langs/shellsession");
const sql = () => import("@shikijs/langs/sql");
const toml = () => import("@shikijs/langs/toml");
const tsx = () => import("@shikijs/langs/tsx");
const typescript = () => import("@shikijs/langs/typescript");
const xml = () => import("@shikijs/langs/xml");
const yaml = () => import("@shikijs/langs/yaml");

/** Fence name (lower case) → the grammar that highlights it, its label, and the chunk that holds it. */
export const PREVIEW_LANGUAGES: Readonly<Record<string, PreviewLanguage>> = {
  bash: { name: "shellscript", label: "Shell", load: bash },
  c: { name: "c", label: "C", load: c },
  "c#": { name: "csharp", label: "C#", load: csharp },
  "c++": { name: "cpp", label: "C++", load: cpp },
  cjs: { name: "javascript", label: "JavaScript", load: javascript },
  console: { name: "shellsession", label: "Shell Session", load: shellsession },
  cpp: { name: "cpp", label: "C++", load: cpp },
  "cpp-macro": { name: "cpp-macro", label: "C++", load: cpp },
  cs: { name: "csharp", label: "C#", load: csharp },
  csharp: { name: "csharp", label: "C#", load: csharp },
  css: { name: "css", label: "CSS", load: css },
  cts: { name: "typescript", label: "TypeScript", load: typescript },
  diff: { name: "diff", label: "Diff", load: diff },
  docker: { name: "docker", label: "Dockerfile", load: dockerfile },
  dockerfile: { name: "docker", label: "Dockerfile", load: dockerfile },
  glsl: { name: "glsl", label: "GLSL", load: cpp },
  go: { name: "go", label: "Go", load: go },
  golang: { name: "go", label: "Go", load: go },
  gql: { name: "graphql", label: "GraphQL", load: graphql },
  graphql: { name: "graphql", label: "GraphQL", load: graphql },
  haml: { name: "haml", label: "Ruby Haml", load: ruby },
  html: { name: "html", label: "HTML", load: html },
  http: { name: "http", label: "HTTP", load: http },
  ini: { name: "ini", label: "INI", load: ini },
  java: { name: "java", label: "Java", load: java },
  javascript: { name: "javascript", label: "JavaScript", load: javascript },
  js: { name: "javascript", label: "JavaScript", load: javascript },
  json: { name: "json", label: "JSON", load: json },
  jsx: { name: "jsx", label: "JSX", load: jsx },
  kotlin: { name: "kotlin", label: "Kotlin", load: kotlin },
  kt: { name: "kotlin", label: "Kotlin", load: kotlin },
  kts: { name: "kotlin", label: "Kotlin", load: kotlin },
  lua: { name: "lua", label: "Lua", load: nginx },
  markdown: { name: "markdown", label: "Markdown", load: markdown },
  md: { name: "markdown", label: "Markdown", load: markdown },
  mjs: { name: "javascript", label: "JavaScript", load: javascript },
  mts: { name: "typescript", label: "TypeScript", load: typescript },
  nginx: { name: "nginx", label: "Nginx", load: nginx },
  properties: { name: "ini", label: "INI", load: ini },
  py: { name: "python", label: "Python", load: python },
  python: { name: "python", label: "Python", load: python },
  rb: { name: "ruby", label: "Ruby", load: ruby },
  regex: { name: "regexp", label: "RegExp", load: cpp },
  regexp: { name: "regexp", label: "RegExp", load: cpp },
  rs: { name: "rust", label: "Rust", load: rust },
  ruby: { name: "ruby", label: "Ruby", load: ruby },
  rust: { name: "rust", label: "Rust", load: rust },
  sh: { name: "shellscript", label: "Shell", load: bash },
  shell: { name: "shellscript", label: "Shell", load: bash },
  shellscript: { name: "shellscript", label: "Shell", load: bash },
  shellsession: { name: "shellsession", label: "Shell Session", load: shellsession },
  sql: { name: "sql", label: "SQL", load: sql },
  toml: { name: "toml", label: "TOML", load: toml },
  ts: { name: "typescript", label: "TypeScript", load: typescript },
  tsx: { name: "tsx", label: "TSX", load: tsx },
  typescript: { name: "typescript", label: "TypeScript", load: typescript },
  xml: { name: "xml", label: "XML", load: xml },
  yaml: { name: "yaml", label: "YAML", load: yaml },
  yml: { name: "yaml", label: "YAML", load: yaml },
  zsh: { name: "shellscript", label: "Shell", load: bash },
};

let highlighter: HighlighterCore | null = null;
let core: Promise<HighlighterCore> | null = null;
const loaded = new Set<string>();
const loading = new Map<string, Promise<void>>();
const listeners = new Set<() => void>();
const spans = new Map<string, Highlighted>();
const SPAN_ENTRIES = 100;

const languageOf = (fence: string) => (Object.hasOwn(PREVIEW_LANGUAGES, fence.toLowerCase()) ? PREVIEW_LANGUAGES[fence.toLowerCase()]! : null);

/** The label a fence gets on the page, before its grammar has arrived too. */
export const previewLabel = (fence: string) => languageOf(fence)?.label ?? fence;

function loadCore(): Promise<HighlighterCore> {
  core ??= Promise.all([
    import("shiki/core"),
    import("shiki/engine/javascript"),
    import("@shikijs/themes/github-light"),
    import("@shikijs/themes/github-dark"),
  ]).then(([{ createHighlighterCoreSync }, { createJavaScriptRegexEngine }, light, dark]) => {
    highlighter = createHighlighterCoreSync({ themes: [light.default, dark.default], langs: [], engine: createJavaScriptRegexEngine() });
    return highlighter;
  });
  return core;
}

/** Loads the highlighter and the grammar of `fence` (once each); false for a fence without a grammar. */
export async function loadPreviewGrammar(fence: string): Promise<boolean> {
  const language = languageOf(fence);
  if (!language) return false;
  if (loaded.has(language.name)) return true;
  let job = loading.get(language.name);
  if (!job) {
    job = Promise.all([loadCore(), language.load()]).then(([h, grammar]) => {
      h.loadLanguageSync(grammar.default);
      for (const g of grammar.default) loaded.add(g.name);
      loaded.add(language.name);
      for (const listener of listeners) listener();
    });
    loading.set(language.name, job);
  }
  await job;
  return true;
}

/** Called each time a grammar arrives, so a field that previewed its block plain renders it again. */
export function onPreviewGrammar(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The preview's highlighter: spans once the grammar is loaded; until then null (plain), and the grammar is asked for. */
export const highlightInPreview: Highlight = (code, fence) => {
  const language = languageOf(fence);
  if (!language) return null;
  if (!highlighter || !loaded.has(language.name)) {
    if (typeof window !== "undefined") void loadPreviewGrammar(fence);
    return null;
  }
  // The preview renders on every keystroke: unchanged blocks are not tokenized again.
  const key = `${language.name}\n${code}`;
  let result = spans.get(key);
  if (!result) {
    result = { label: language.label, children: tokenSpans(highlighter, code, language.name) };
    spans.set(key, result);
    if (spans.size > SPAN_ENTRIES) spans.delete(spans.keys().next().value as string);
  }
  return result;
};
