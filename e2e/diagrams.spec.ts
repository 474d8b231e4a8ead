import { expect, test } from "@playwright/test";
import { seriousViolations } from "./support/axe";
import { commitWithGit } from "./support/content-repo";

/**
 * Diagrams and code in a published note, as a reader without JavaScript sees them: each ```mermaid
 * block an inline SVG drawn by the server, a block that does not parse shown as its source with the
 * reason, code highlighted in the light and the dark scheme; agents get the Mermaid source. The note
 * is committed with plain git, as an agent outside the app would. AFN-94x are this file's own IDs.
 */

const ID = "DGX-941";
const FLOWCHART = "flowchart LR\n  draft[Draft] -->|submit| review{Review}\n  review -->|approve| main[(Main branch)]\n  review -->|changes| draft";
const SEQUENCE = "sequenceDiagram\n  participant A as Author\n  participant S as Studio\n  A->>S: save draft\n  S-->>A: revision saved";
const INVALID = "this is not a diagram\n  A --> B";
const HOSTILE = 'flowchart LR\n  x["<img src=x onerror=window.__pwned=1>"] -->|<script>window.__pwned=1</script>| y';

function noteFile(): string {
  const fence = (lang: string, body: string) => `\`\`\`${lang}\n${body}\n\`\`\``;
  const sections: Record<string, string> = {
    Decision: `Drafts go through review.\n\n${fence("mermaid", FLOWCHART)}`,
    Invariant: `The studio answers every save.\n\n${fence("mermaid", SEQUENCE)}`,
    "Rejected shortcut": `A diagram someone mistyped:\n\n${fence("mermaid", INVALID)}\n\nAnd one with hostile labels:\n\n${fence("mermaid", HOSTILE)}`,
    Evidence: `The limit in code:\n\n${fence("ts", "export const limit: number = 32; // pages per batch")}`,
    "Claim boundary": "Only the studio's own flow.",
  };
  return [
    "---",
    `id: ${ID}`,
    'title: "Heron flow: drafts, review and main, drawn"',
    'summary: "A note with a flowchart, a sequence diagram, a broken diagram and code."',
    "status: hypothesis",
    "boundaries: []",
    'phase: "6 architecture"',
    "tags:",
    '  - "heron flow"',
    "order: 941",
    "related: []",
    "---",
    "",
    ...["Decision", "Invariant", "Rejected shortcut", "Evidence", "Claim boundary"].map((h) => `## ${h}\n\n${sections[h]}\n`),
  ].join("\n");
}

test.describe.configure({ mode: "serial" });

test.beforeAll(() => {
  commitWithGit({ [`notes/${ID}.md`]: noteFile() }, { message: `Publish ${ID}: diagrams and code` });
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("each Mermaid block is an inline SVG drawn by the server; a broken one shows its source and the reason", async ({ page }) => {
    await page.goto(`/notes/${ID}`);
    const drawn = page.locator("figure.diagram:not(.diagram-error) > svg");
    await expect(drawn).toHaveCount(3);
    await expect(page.getByRole("img", { name: "Flowchart (source below)" }).first()).toBeVisible();
    await expect(page.getByRole("img", { name: "Sequence diagram (source below)" })).toBeVisible();
    for (const box of await drawn.evaluateAll((svgs) => svgs.map((s) => s.getBoundingClientRect().width))) expect(box).toBeGreaterThan(100);
    const flowchart = drawn.first();
    expect(await flowchart.locator("text").allTextContents()).toEqual(expect.arrayContaining(["Draft", "Review", "Main branch", "submit", "approve"]));
    expect(await page.locator("figure.diagram").nth(1).locator("svg text").allTextContents()).toEqual(
      expect.arrayContaining(["Author", "Studio", "save draft", "revision saved"]),
    );

    const broken = page.locator("figure.diagram-error");
    await expect(broken).toHaveCount(1);
    await expect(broken.getByRole("note")).toContainText("This diagram could not be drawn: Invalid mermaid header");
    await expect(broken.locator("pre code")).toHaveText(INVALID);

    // Hostile labels are drawn as the text they are.
    const hostile = page.locator("figure.diagram").nth(3);
    expect(await hostile.locator("svg text").allTextContents()).toEqual(
      expect.arrayContaining(["<img src=x onerror=window.__pwned=1>", "<script>window.__pwned=1</script>"]),
    );
    expect(await page.locator("figure.diagram img, figure.diagram script, figure.diagram foreignObject").count()).toBe(0);
  });

  test("code is highlighted in light and in dark, with its language named", async ({ page }) => {
    const colours = async (scheme: "light" | "dark") => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`/notes/${ID}`);
      const block = page.locator(".code-block").filter({ hasText: "pages per batch" });
      await expect(block.locator(".code-language")).toHaveText("TypeScript");
      const color = (text: string) =>
        block
          .locator("code span")
          .filter({ hasText: new RegExp(`^${text}$`) })
          .first()
          .evaluate((e) => getComputedStyle(e).color);
      return {
        keyword: await color("export"),
        number: await color("32"),
        comment: await color("// pages per batch"),
        text: await block.locator("code").evaluate((e) => getComputedStyle(e).color),
      };
    };
    const light = await colours("light");
    const dark = await colours("dark");
    for (const c of [light, dark]) {
      expect(new Set([c.keyword, c.number, c.comment, c.text]).size, JSON.stringify(c)).toBe(4);
    }
    expect(light.keyword).not.toBe(dark.keyword);
    expect(light.comment).not.toBe(dark.comment);
  });

  test("a diagram follows the colour scheme", async ({ page }) => {
    const fills = async (scheme: "light" | "dark") => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`/notes/${ID}`);
      const svg = page.locator("figure.diagram > svg").first();
      return {
        text: await svg
          .locator("text")
          .first()
          .evaluate((e) => getComputedStyle(e).fill),
        shape: await svg
          .locator("rect, polygon")
          .last()
          .evaluate((e) => getComputedStyle(e).fill),
      };
    };
    const light = await fills("light");
    const dark = await fills("dark");
    expect(light.text).not.toBe(dark.text);
    expect(light.shape).not.toBe(dark.shape);
  });
});

test("axe finds nothing serious on the note in either scheme, with a diagram's source open", async ({ page }) => {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`/notes/${ID}`);
    await page.locator("details.diagram-details").first().locator("summary").click();
    expect(await seriousViolations(page), scheme).toEqual([]);
  }
});

test("with JavaScript on, nothing in the page runs the hostile labels", async ({ page }) => {
  await page.goto(`/notes/${ID}`);
  await expect(page.locator("figure.diagram > svg")).toHaveCount(3);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});

test("the Markdown twin and the feed: agents get the Mermaid source, feed readers the drawing", async ({ request }) => {
  const md = await (await request.get(`/notes/${ID}.md`)).text();
  expect(md).toContain(`\`\`\`mermaid\n${FLOWCHART}\n\`\`\``);
  expect(md).toContain(`\`\`\`mermaid\n${SEQUENCE}\n\`\`\``);
  expect(md).not.toContain("<svg");
  const feed = await (await request.get("/feed.xml")).text();
  expect(feed).toMatch(/&lt;svg [^&]*role="img" aria-label="Flowchart/);
});
