import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { parseNote, serializeNote } from "@/lib/notes/markdown";
import { ensureContentRepo } from "@/lib/store";
import { git, tempDir } from "@/lib/store/testing";
import { checkRepository } from "./check";

/** content:check holds images committed with plain git to the studio's rules: exist, allowed, clean, safe, referenced. */

const CONTENT = path.resolve(__dirname, "../../content");
let bare: string;
let work: string;

beforeAll(async () => {
  bare = path.join(tempDir("check-images"), "content.git");
  await ensureContentRepo(bare, CONTENT);
  work = tempDir("check-images-work");
  git(work, "clone", "--quiet", bare, ".");
});

/** Writes the files into assets/AFN-001/ under their blob ids; answers each one's path. */
function addAssets(files: Record<string, { bytes: Buffer; ext: string }>): Record<string, string> {
  const dir = path.join(work, "assets", "AFN-001");
  fs.mkdirSync(dir, { recursive: true });
  const paths: Record<string, string> = {};
  for (const [key, { bytes, ext }] of Object.entries(files)) {
    const tmp = path.join(work, "tmp-asset");
    fs.writeFileSync(tmp, bytes);
    const blob = git(work, "hash-object", tmp);
    fs.renameSync(tmp, path.join(dir, `${blob}.${ext}`));
    paths[key] = `assets/AFN-001/${blob}.${ext}`;
  }
  return paths;
}

function commitDraft(branch: string, evidence: string) {
  const file = path.join(work, "notes", "AFN-001.md");
  const parsed = parseNote(fs.readFileSync(file, "utf8"));
  if (!parsed.ok) throw new Error("seed note");
  fs.writeFileSync(file, serializeNote({ ...parsed.note, sections: { ...parsed.note.sections, evidence } }));
  git(work, "add", "-A");
  git(work, "commit", "--quiet", "-m", "Figures added with plain git");
  git(work, "push", "--quiet", "--force", "origin", `HEAD:refs/heads/${branch}`);
  return checkRepository(bare, { ref: `refs/heads/${branch}` });
}

const png = () => sharp({ create: { width: 30, height: 20, channels: 3, background: "#484" } }).png().toBuffer();

describe("content:check on images committed with plain git", () => {
  it("passes a clean image that its note shows with alt text", async () => {
    git(work, "checkout", "--quiet", "-B", "drafts/AFN-001", "origin/main");
    const { clean } = addAssets({ clean: { bytes: await png(), ext: "png" } });
    const r = await commitDraft("drafts/AFN-001", `Measured.\n\n![A green block](${clean})`);
    expect(r.findings).toEqual([]);
  });

  it("reports metadata, unsafe SVG, a text file named .png, a missing file, missing alt text, a wrong name and an unreferenced file", async () => {
    git(work, "checkout", "--quiet", "-B", "drafts/AFN-002", "origin/main");
    const gps = await sharp(await png()).jpeg().withExif({ IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 0/1" } }).toBuffer();
    const a = addAssets({
      clean: { bytes: await png(), ext: "png" },
      gps: { bytes: gps, ext: "jpg" },
      svg: { bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4" onload="alert(1)"><rect width="4" height="4"/></svg>'), ext: "svg" },
      text: { bytes: Buffer.from("not an image\n"), ext: "png" },
      spare: { bytes: await sharp({ create: { width: 5, height: 5, channels: 3, background: "#000" } }).png().toBuffer(), ext: "png" },
    });
    const renamed = `assets/AFN-001/${"1".repeat(40)}.png`;
    fs.copyFileSync(path.join(work, a.clean!), path.join(work, renamed));
    const missing = `assets/AFN-001/${"2".repeat(40)}.png`;
    const evidence = [`![](${a.clean})`, `![A photo](${a.gps})`, `![A drawing](${a.svg})`, `![A chart](${a.text})`, `![Gone](${missing})`, `![Renamed](${renamed})`].join("\n\n");
    const { findings } = await commitDraft("drafts/AFN-002", evidence);
    const text = findings.map((f) => `${f.file}:${f.line}: ${f.rule}: ${f.message}`).join("\n");
    expect(text).toMatch(/AFN-001\.md:\d+: images: the image assets\/AFN-001\/[0-9a-f]{40}\.png has no alt text/);
    expect(text).toMatch(/images: assets\/AFN-001\/[0-9a-f]{40}\.jpg carries metadata \(EXIF\)/);
    expect(text).toMatch(/images: assets\/AFN-001\/[0-9a-f]{40}\.svg is an unsafe SVG: the onload="alert\(1\)" attribute of <svg>/);
    expect(text).toMatch(/images: assets\/AFN-001\/[0-9a-f]{40}\.png is not a PNG, JPEG, WebP, GIF or SVG image by its bytes/);
    expect(text).toContain(`images: ${missing} is not in the repository`);
    expect(text).toContain(`${renamed}:1: images: its name says blob 111111111111…`);
    expect(text).toContain(`${a.spare}:1: images: unreferenced image: notes/AFN-001.md does not show it`);
    // Each finding in the note points at the line of the file that holds the image.
    const lines = fs.readFileSync(path.join(work, "notes", "AFN-001.md"), "utf8").split("\n");
    const alt = findings.find((f) => /no alt text/.test(f.message))!;
    expect(lines[alt.line - 1]).toBe(`![](${a.clean})`);
  });
});
