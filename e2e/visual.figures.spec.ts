import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { AUTHOR, ensureAccounts, newToken } from "./support/studio";
import { api, freezeRunFacts, settle } from "./support/visual";

/**
 * Visual snapshots of a published note with a figure, a Mermaid diagram and highlighted code, at a
 * phone and a laptop width, light and dark (baselines beside the other shots, in
 * e2e/visual.spec.ts-snapshots/). Issue 16 asks for this picture: the image at its reserved size,
 * the diagram drawn on the server in the page's colours, the code in both themes.
 *
 * It publishes a note, which every listing shows (home, the studio list), so it runs in a project of
 * its own after all the other shots (project "visual-figures", which depends on "visual" in
 * playwright.config.ts). Retake only these with
 *
 *   npm run test:visual -- --project=visual-figures --no-deps --update-snapshots=changed
 *
 * The note's id depends on how many notes the run wrote before it (with or without the other
 * shots' setup), so it is replaced by a fixed one before each shot, as freezeRunFacts does for
 * commit ids and dates.
 */

test.describe.configure({ mode: "serial" });

const FIXED_ID = "AFN-900";
let id = "";

/** A bar chart drawn by sharp from SVG: 1600 px wide, so the page offers its 640 and 1280 px copies. */
const chart = () =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900">
        <rect width="1600" height="900" fill="#f4f1ea"/>
        <g fill="#2b6cb0">${[220, 380, 560, 610, 640, 650].map((h, i) => `<rect x="${160 + i * 230}" y="${800 - h}" width="150" height="${h}"/>`).join("")}</g>
        <rect x="120" y="800" width="1400" height="6" fill="#333"/>
      </svg>`,
    ),
  )
    .png()
    .toBuffer();

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  ensureAccounts();
  const token = newToken(AUTHOR.name);
  const created = await api(request, token, "POST", "/api/studio/notes", {});
  id = created.id;
  const upload = await request.post(`/api/studio/notes/${id}/assets`, {
    headers: { authorization: `Bearer ${token}` },
    multipart: { file: { name: "throughput.png", mimeType: "image/png", buffer: await chart() } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const { path } = (await upload.json()) as { path: string };
  const saved = await api(request, token, "PUT", `/api/studio/notes/${id}`, {
    revision: created.revision,
    note: {
      title: "Batch the decode steps until throughput stops climbing",
      summary: "Throughput grows with the batch up to 32 sequences and is flat after; the scheduler batches up to 32.",
      phase: "6 architecture",
      tags: ["decode", "scheduling"],
      related: [],
      boundaries: [],
      core: null,
      sections: {
        decision: [
          "Batch decode steps up to 32 sequences; past that, start a new batch.",
          "",
          "```ts",
          "// The scheduler's rule, as shipped.",
          "export function nextBatch(waiting: Sequence[], limit = 32): Sequence[] {",
          '  return waiting.filter((s) => s.state === "ready").slice(0, limit);',
          "}",
          "```",
        ].join("\n"),
        invariant: "A sequence is in at most one batch at a time.",
        rejectedShortcut: "One batch of every waiting sequence: latency grows with the queue.",
        evidence: [
          "Tokens per second by batch size, on the reference card:",
          "",
          `![Bar chart: throughput rises from batch 1 to 32 and is flat from 32 to 64](${path})`,
          "",
          "How a step moves through the scheduler:",
          "",
          "```mermaid",
          "flowchart LR",
          "  W[Waiting] --> R{Ready?}",
          "  R -- yes --> B[Batch of up to 32]",
          "  R -- no --> W",
          "  B --> D[Decode step]",
          "```",
        ].join("\n"),
        claimBoundary: "Says nothing about prefill batches.",
        notes: "",
      },
    },
  });
  const proposed = await api(request, token, "POST", `/api/studio/notes/${id}/transitions`, { to: "hypothesis", revision: saved.revision });
  await api(request, token, "POST", `/api/studio/notes/${id}/publish`, { revision: proposed.revision });
});

const WIDTHS = [
  // At 390 px the column is the viewport: the 640 px copy is enough. At 1280 the 42rem column takes the 1280 px copy.
  { viewport: { width: 390, height: 844 }, copy: "-640w.png" },
  { viewport: { width: 1280, height: 800 }, copy: "-1280w.png" },
] as const;

for (const colorScheme of ["light", "dark"] as const) {
  for (const { viewport, copy } of WIDTHS) {
    test(`figure note, ${viewport.width} px, ${colorScheme}, looks as reviewed`, async ({ browser, baseURL }) => {
      const context = await browser.newContext({ baseURL, colorScheme, viewport });
      try {
        const page = await context.newPage();
        expect((await page.goto(`/notes/${id}`))?.status()).toBe(200);
        await expect(page.locator("figure.diagram svg")).toBeVisible();
        const img = page.getByRole("img", { name: /^Bar chart: throughput rises/ });
        await img.scrollIntoViewIfNeeded();
        // The browser chose the copy that fits the column, not the stored 1600 px file.
        await expect.poll(() => img.evaluate((e: HTMLImageElement) => e.complete && e.naturalWidth > 0 && e.currentSrc)).toMatch(new RegExp(`${copy}$`));
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.waitForLoadState("networkidle");
        await settle(page);
        await freezeRunFacts(page);
        await page.evaluate(
          ([from, to]) => {
            const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              if (node.nodeValue?.includes(from!)) node.nodeValue = node.nodeValue.replaceAll(from!, to!);
            }
            document.title = document.title.replaceAll(from!, to!);
          },
          [id, FIXED_ID],
        );
        await expect(page).toHaveScreenshot(`figure-note-${viewport.width}-${colorScheme}.png`, { fullPage: true, timeout: 30_000, maxDiffPixels: 300 });
      } finally {
        await context.close();
      }
    });
  }
}
