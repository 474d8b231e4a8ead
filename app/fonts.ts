import localFont from "next/font/local";

/**
 * The archive's three typefaces, self-hosted from npm (the @fontsource-variable packages) through
 * next/font/local: the woff2 files are copied into the build and served from this site, so no page
 * ever asks a font service for anything, at build or at run time. Each is a variable font (one file
 * for every weight), Latin subset: what the archive's English text and IDs use; any other character
 * falls back per glyph to the fallback stack below.
 *
 * next/font sets each family as a CSS variable on <html> (app/layout.tsx), so the public site and
 * the studio read the same --font-text / --font-ui / --font-mono (app/styles/tokens.css names them,
 * never a family). Until a face arrives, text is drawn in a metric-adjusted fallback
 * (app/styles/fallback-faces.css), so it does not jump when the face arrives. That fallback is our
 * own, not next/font's (adjustFontFallback): next/font's names only Times New Roman and Arial, which
 * Linux and Android do not have, so there the page was drawn in DejaVu (wider: the home's title took
 * three lines, the header two rows) and moved when the face came (issue 27). Ours also names the
 * fonts with the same metrics (Liberation Serif and Sans, Tinos and Arimo).
 */

/** Reading text: notes, summaries, the preview of a section. */
export const textFont = localFont({
  src: [
    { path: "../node_modules/@fontsource-variable/source-serif-4/files/source-serif-4-latin-wght-normal.woff2", weight: "200 900", style: "normal" },
    { path: "../node_modules/@fontsource-variable/source-serif-4/files/source-serif-4-latin-wght-italic.woff2", weight: "200 900", style: "italic" },
  ],
  variable: "--font-text",
  display: "swap",
  fallback: ["Source Serif Fallback", "Charter", "Cambria", "Noto Serif", "DejaVu Serif", "Georgia", "serif"],
  adjustFontFallback: false,
});

/** Labels, controls, tables, the studio's forms. */
export const uiFont = localFont({
  src: [{ path: "../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2", weight: "100 900", style: "normal" }],
  variable: "--font-ui",
  display: "swap",
  fallback: ["Inter Fallback", "system-ui", "-apple-system", "Segoe UI", "Roboto", "Noto Sans", "DejaVu Sans", "Arial", "sans-serif"],
  adjustFontFallback: false,
});

/** IDs, commits, code. */
export const monoFont = localFont({
  src: [{ path: "../node_modules/@fontsource-variable/jetbrains-mono/files/jetbrains-mono-latin-wght-normal.woff2", weight: "100 800", style: "normal" }],
  variable: "--font-mono",
  // Only IDs and code use it; not worth a preload on every page.
  preload: false,
  display: "swap",
  fallback: ["ui-monospace", "SF Mono", "Menlo", "Consolas", "DejaVu Sans Mono", "monospace"],
  adjustFontFallback: false,
});

/** The classes that define the three variables; set once on <html>. */
export const fontVariables = `${textFont.variable} ${uiFont.variable} ${monoFont.variable}`;
