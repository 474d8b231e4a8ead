import { getContentStore } from "@/lib/working-copy/content-store";
import fs from "node:fs";
import path from "node:path";
import { parseFeed } from "@rowanmanning/feed-parser";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPublishedView } from "@/lib/content/published";
import { lastChanges } from "@/lib/content/last-change";
import { git, noteFile, tempDir } from "@/lib/store/testing";
import { studioFixture } from "@/lib/testing/studio";
import { decodeEntities, liveMarkup, XSS_PAYLOADS } from "@/lib/testing/xss";
import { atomFeed } from "@/lib/public/atom";

/**
 * /feed.xml built from a real content repository holding notes full of hostile text: the XSS
 * corpus and the characters that break XML (`&`, `<`, `"`) in the title, summary, tags, phase and
 * sections. A subscriber's reader must get a well-formed Atom document whose titles, summaries and
 * categories say exactly what the author wrote, and whose one HTML element runs nothing.
 */

type Hostile = { id: string; title: string; summary: string; tags: string[]; phase: string; body: string };

// One line per field: titles, tags and phases are single lines in the note schema.
const oneLine = (s: string, max: number) =>
  s
    .replace(/\s*\n\s*/g, " ")
    .trim()
    .slice(0, max)
    .trim();

const hostile: Hostile[] = [
  {
    id: "AFN-801",
    title: `R&D <"quoted"> & 'apostrophe' ]]> &amp; done`,
    summary: `Summary with R&D, a < and a " and &lt;not an entity&gt;`,
    tags: ["R&D", "<", '"', "a&b<c>\"d'"],
    phase: `R&D <"phase"> & more`,
    body: "Plain R&D <b>bold</b> and a [link](/notes/AFN-001) & more.",
  },
  ...XSS_PAYLOADS.map(([name, payload], i) => ({
    id: `AFN-${810 + i}`,
    title: oneLine(`${name}: ${payload}`, 200),
    summary: oneLine(`Summary ${payload}`, 600),
    tags: [oneLine(payload, 60), `tag ${i}`],
    phase: oneLine(`Phase ${payload}`, 120),
    body: `Before ${payload} after`,
  })),
];

let f: Awaited<ReturnType<typeof studioFixture>>;
let xml: string;
beforeAll(async () => {
  f = await studioFixture();
  await getContentStore(); // creates and seeds the repository
  // Commit the notes with plain git, as an agent would: the app must cope with whatever lands on main.
  const work = tempDir("feed");
  git(work, "clone", "--quiet", f.gitdir, ".");
  for (const n of hostile) {
    const file = noteFile(n.id, n.summary, {
      title: n.title,
      tags: n.tags,
      phase: n.phase,
      sections: { decision: n.body, invariant: n.body, rejectedShortcut: "", evidence: n.body, claimBoundary: "Says nothing else.", notes: "" },
    });
    fs.writeFileSync(path.join(work, "notes", `${n.id}.md`), file);
  }
  git(work, "add", "-A");
  git(work, "commit", "--quiet", "-m", "Notes full of hostile text");
  git(work, "push", "--quiet", "origin", "HEAD:refs/heads/main");
  fs.rmSync(work, { recursive: true, force: true });
  // What the route serves, without Next's request scope (the origin is the configured SITE_URL).
  const view = await getPublishedView();
  xml = await atomFeed({ view, origin: process.env.SITE_URL ?? "", changes: await lastChanges(view), titles: {} });
}, 60_000);
afterAll(() => f.cleanup());

/** Every element named `name` anywhere under `node`, as fast-xml-parser represents them. */
function elements(node: unknown, name: string, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(node)) node.forEach((n) => elements(n, name, out));
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === name) (Array.isArray(value) ? value : [value]).forEach((v) => out.push(typeof v === "object" ? v : { "#text": v }));
      elements(value, name, out);
    }
  }
  return out;
}

const strict = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: false,
  isArray: (name) => ["entry", "category", "link"].includes(name),
});

describe("/feed.xml with hostile notes", () => {
  it("is well-formed XML to a strict parser", () => {
    const verdict = XMLValidator.validate(xml);
    expect(verdict).toBe(true);
  });

  it("carries every hostile note, and an Atom reader reads each title, summary and tag exactly as written", () => {
    const feed = parseFeed(xml);
    expect(feed.meta.type).toBe("atom");
    for (const n of hostile) {
      const item = feed.items.find((i) => i.url === `${process.env.SITE_URL}/notes/${n.id}`);
      expect(item, n.id).toBeDefined();
      // This reader decodes HTML entities in element text once more after XML's (a literal "&amp;"
      // reads as "&"), not in attributes; the strict parser below holds the exact characters.
      expect(item?.title).toBe(decodeEntities(`${n.id}: ${n.title}`));
      expect(item?.description).toBe(decodeEntities(n.summary));
      expect(item?.categories.map((c) => c.label)).toEqual([...n.tags, n.phase]);
    }
  });

  it("says titles, summaries and categories as text: the strict parser gets back the very characters written", () => {
    const doc = strict.parse(xml) as { feed: { entry: Record<string, unknown>[] } };
    for (const n of hostile) {
      const entry = doc.feed.entry.find((e) => (e.id as string).endsWith(`/notes/${n.id}`));
      expect(entry, n.id).toBeDefined();
      const title = entry?.title as { "#text": string; "@type": string };
      const summary = entry?.summary as { "#text": string; "@type": string };
      expect(title).toEqual({ "#text": `${n.id}: ${n.title}`, "@type": "text" });
      expect(summary).toEqual({ "#text": n.summary, "@type": "text" });
      const categories = (entry?.category as Record<string, string>[]).map((c) => c["@label"]);
      expect(categories).toEqual([...n.tags, n.phase]);
      for (const link of entry?.link as Record<string, string>[]) expect(URL.canParse(link["@href"] ?? ""), link["@href"]).toBe(true);
    }
  });

  it("holds no live tag in any element of type html", () => {
    const doc = strict.parse(xml);
    const html = ["title", "subtitle", "summary", "content", "rights"]
      .flatMap((name) => elements(doc, name))
      .filter((e) => e["@type"] === "html" || e["@type"] === "xhtml");
    expect(html.length).toBe(hostile.length + 21); // each entry's content, and nothing else
    for (const e of html) expect(liveMarkup(String(e["#text"] ?? "")), String(e["#text"]).slice(0, 200)).toEqual([]);
    // The payloads are there, as text a reader sees, not gone: the escaping kept what was written.
    const r = doc.feed.entry.find((e: Record<string, unknown>) => (e.id as string).endsWith("/notes/AFN-801"));
    expect(r.content["#text"]).toContain("Plain R&#x26;D &#x3C;b>bold&#x3C;/b>");
    expect(r.content["#text"]).toContain(`href="${process.env.SITE_URL}/notes/AFN-001"`);
  });
});
