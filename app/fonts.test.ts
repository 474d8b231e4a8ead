import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The stand-ins in app/styles/fallback-faces.css keep text where the web faces will draw it only if
 * their overrides are computed from the very files app/fonts.ts serves. These are next/font's own
 * computation (the one adjustFontFallback ran), redone here on the files, so a new version of a
 * font package that changes its metrics fails here instead of moving the page while it loads.
 */

type FontFromBuffer = (buffer: Buffer) => unknown;

const require = createRequire(import.meta.url);
// Loaded as next/font's local loader loads it.
const fontkit = require("next/dist/compiled/@next/font/dist/fontkit").default as { default?: FontFromBuffer } & FontFromBuffer;
const fontFromBuffer: FontFromBuffer = fontkit.default ?? fontkit;
const { getFallbackMetricsFromFontFile } = require("next/dist/compiled/@next/font/dist/local/get-fallback-metrics-from-font-file") as {
  getFallbackMetricsFromFontFile: (font: unknown, category: string) => Record<string, string>;
};

const root = path.resolve(__dirname, "..");
const css = fs.readFileSync(path.join(root, "app/styles/fallback-faces.css"), "utf8");

/** The overrides a face in fallback-faces.css declares, by its family name. */
function declared(family: string): Record<string, string> {
  const face = css.split("@font-face").find((block) => block.includes(`font-family: "${family}"`));
  if (!face) throw new Error(`fallback-faces.css has no face "${family}"`);
  const value = (prop: string) => face.match(new RegExp(`${prop}:\\s*([^;]+);`))?.[1]?.trim();
  return {
    ascentOverride: value("ascent-override")!,
    descentOverride: value("descent-override")!,
    lineGapOverride: value("line-gap-override")!,
    sizeAdjust: value("size-adjust")!,
  };
}

/** next/font's overrides for a file, written as the CSS writes them (0.0% is 0%). */
function computed(file: string, category: "serif" | "sans-serif"): Record<string, string> {
  const font = fontFromBuffer(fs.readFileSync(path.join(root, "node_modules", file)));
  const m = getFallbackMetricsFromFontFile(font, category);
  const tidy = (v: string | undefined) => (v === "0.00%" ? "0%" : v);
  return {
    ascentOverride: tidy(m.ascentOverride)!,
    descentOverride: tidy(m.descentOverride)!,
    lineGapOverride: tidy(m.lineGapOverride)!,
    sizeAdjust: tidy(m.sizeAdjust)!,
  };
}

describe("the web faces' stand-ins while they load", () => {
  it("Source Serif 4's stand-in has next/font's overrides for its upright file, against Times New Roman's metrics", () => {
    expect(declared("Source Serif Fallback")).toEqual(computed("@fontsource-variable/source-serif-4/files/source-serif-4-latin-wght-normal.woff2", "serif"));
  });

  it("Inter's stand-in has next/font's overrides for its file, against Arial's metrics", () => {
    expect(declared("Inter Fallback")).toEqual(computed("@fontsource-variable/inter/files/inter-latin-wght-normal.woff2", "sans-serif"));
  });

  it("each stand-in names the fonts that share those metrics on Windows, macOS, Linux and ChromeOS", () => {
    expect(css).toMatch(/font-family: "Source Serif Fallback";\s*src: local\("Times New Roman"\)[^;]*local\("Liberation Serif"\), local\("Tinos"\);/);
    expect(css).toMatch(/font-family: "Inter Fallback";\s*src: local\("Arial"\)[^;]*local\("Liberation Sans"\), local\("Arimo"\);/);
  });

  it("every fallback name in app/fonts.ts is a family CSS reads unquoted (next/font writes the list without quotes)", () => {
    const source = fs.readFileSync(path.join(root, "app/fonts.ts"), "utf8");
    const names = [...source.matchAll(/fallback: \[([^\]]*)\]/g)].flatMap((m) => [...(m[1] ?? "").matchAll(/"([^"]+)"/g)].map((n) => n[1] ?? ""));
    expect(names.length).toBeGreaterThan(10);
    // Each word an identifier: "Source Serif 4 Fallback" unquoted is not a name, and one such name voids the whole stack.
    expect(names.filter((name) => !name.split(" ").every((word) => /^-?[A-Za-z_][\w-]*$/.test(word)))).toEqual([]);
  });
});
