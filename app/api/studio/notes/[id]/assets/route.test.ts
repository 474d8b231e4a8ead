import { execFileSync } from "node:child_process";
import exifr from "exifr";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answer, BASE, noteFields, params, request, studioFixture, type Caller, type Json } from "@/lib/testing/studio";
import * as list from "../../route";
import * as one from "../route";
import * as transitions from "../transitions/route";
import * as publish from "../publish/route";
import * as upload from "./route";
import * as served from "@/app/assets/[id]/[file]/route";

/**
 * Images in notes through the studio API, against a real content repository: what an upload keeps
 * (no metadata, no script), what it refuses and how it says so, that nothing is committed until the
 * save that references the image, and who can see a draft's image.
 */

let f: Awaited<ReturnType<typeof studioFixture>>;
beforeAll(async () => {
  f = await studioFixture();
});
afterAll(() => f.cleanup());

const git = (...args: string[]) => execFileSync("git", ["--git-dir", f.gitdir, ...args], { encoding: "utf8", maxBuffer: 64 << 20 }).trim();
const gitBytes = (...args: string[]) => execFileSync("git", ["--git-dir", f.gitdir, ...args], { maxBuffer: 64 << 20 });
const refs = () => git("for-each-ref", "--format=%(refname) %(objectname)");

function uploadRequest(c: Caller, id: string, bytes: Uint8Array, name: string, type: string): Request {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
  return new Request(`${BASE}/api/studio/notes/${id}/assets`, { method: "POST", headers: { ...c.headers, host: "studio.test" }, body: form });
}
const api = {
  create: (c: Caller) => list.POST(request(c, "POST", "/api/studio/notes", {}), params({})).then(answer),
  read: (c: Caller, id: string) => one.GET(request(c, "GET", `/api/studio/notes/${id}`), params({ id })).then(answer),
  save: (c: Caller, id: string, body: unknown) => one.PUT(request(c, "PUT", `/api/studio/notes/${id}`, body), params({ id })).then(answer),
  transition: (c: Caller, id: string, body: unknown) =>
    transitions.POST(request(c, "POST", `/api/studio/notes/${id}/transitions`, body), params({ id })).then(answer),
  publish: (c: Caller, id: string, body: unknown) => publish.POST(request(c, "POST", `/api/studio/notes/${id}/publish`, body), params({ id })).then(answer),
  upload: (c: Caller, id: string, bytes: Uint8Array, name: string, type = "application/octet-stream") =>
    upload.POST(uploadRequest(c, id, bytes, name, type), params({ id })).then(answer),
  get: (c: Caller, url: string) => {
    const [, , id, file] = url.split("/");
    return served.GET(new Request(`${BASE}${url}`, { headers: { ...c.headers, host: "studio.test" } }), params({ id: id!, file: file! }));
  },
};

const note = (evidence: string) => noteFields("Attention mask figure", { summary: "A figure shows which blocks the kernel skips.", sections: { evidence } });

/** A JPEG as a phone writes it: GPS position, camera owner and serial in EXIF. */
const gpsJpeg = () =>
  sharp({ create: { width: 320, height: 200, channels: 3, background: "#3a6ea5" } })
    .jpeg()
    .withExif({
      IFD0: { Artist: "Jane Private", Make: "PhoneCo", Model: "P1" },
      IFD1: {},
      IFD2: { BodySerialNumber: "SN-12345" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 2400/100", GPSLongitudeRef: "E", GPSLongitude: "2/1 21/1 300/100" },
    })
    .toBuffer();

async function newNote(): Promise<{ id: string; revision: string }> {
  const created = await api.create(f.author);
  expect(created.status).toBe(201);
  const saved = await api.save(f.author, created.body.id, { revision: created.body.revision, note: note("Measured on the reference kernel.") });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return { id: created.body.id, revision: saved.body.revision };
}

describe("uploading an image", () => {
  it("keeps the pixels, drops the GPS position and every other metadata, and commits the image with the save that references it", async () => {
    const { id, revision } = await newNote();
    const input = await gpsJpeg();
    expect(await exifr.gps(input)).toMatchObject({ latitude: expect.closeTo(48.8567, 3) }); // the fixture really carries a position

    const before = refs();
    const up = await api.upload(f.author, id, input, "IMG_0001.jpg", "image/jpeg");
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body).toMatchObject({
      path: expect.stringMatching(new RegExp(`^assets/${id}/[0-9a-f]{40}\\.jpg$`)),
      type: "image/jpeg",
      width: 320,
      height: 200,
    });
    expect(up.body.url).toBe(`/${up.body.path}`);
    expect(refs()).toBe(before); // staged, not committed

    const saved = await api.save(f.author, id, { revision, note: note(`The mask:\n\n![Block mask: grey blocks are skipped](${up.body.path})\n`) });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const commit = saved.body.revision as string;
    expect(git("diff-tree", "--no-commit-id", "--name-only", "-r", commit).split("\n").sort()).toEqual([up.body.path, `notes/${id}.md`].sort());

    const stored = gitBytes("cat-file", "blob", `${commit}:${up.body.path}`);
    expect(await exifr.parse(stored, { tiff: true, gps: true, ifd1: true, exif: true, xmp: true, iptc: true })).toBeUndefined();
    expect(await exifr.gps(stored)).toBeUndefined();
    expect(stored.includes(Buffer.from("Jane Private"))).toBe(false);
    expect(stored.includes(Buffer.from("SN-12345"))).toBe(false);
    const m = await sharp(stored).metadata();
    expect([m.format, m.width, m.height, m.exif]).toEqual(["jpeg", 320, 200, undefined]);
    expect(git("fsck", "--strict", "--no-dangling")).toBe("");
  });

  it("removes script, event handlers and external references from an SVG", async () => {
    const { id } = await newNote();
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" onload="alert(1)"><script>alert(2)</script><image href="https://tracker.example/p.png" width="1" height="1"/><rect width="40" height="20" fill="#c33" onclick="alert(3)"/></svg>`;
    const up = await api.upload(f.author, id, Buffer.from(svg), "figure.svg", "image/svg+xml");
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body.cleaned.join("\n")).toMatch(/script/);
    const staged = gitBytes("cat-file", "blob", up.body.path.split("/")[2].split(".")[0]).toString("utf8");
    expect(staged).not.toMatch(/script|onload|onclick|tracker\.example|alert/i);
    expect(staged).toMatch(/<rect/);
  });

  it("refuses a 20 MB file, a text file named .png and a reviewer, saying what and where, and commits nothing", async () => {
    const { id } = await newNote();
    const before = refs();
    const objects = git("count-objects", "-v");

    const big = await api.upload(f.author, id, Buffer.alloc(20 * 1024 * 1024, 7), "huge.png", "image/png");
    expect(big.status).toBe(413);
    expect(big.body.error).toMatchObject({ code: "too-large", where: [{ field: "file" }] });
    expect(big.body.error.message).toMatch(/larger than the 5\.0 MB an image may be/);

    const text = await api.upload(f.author, id, Buffer.from("just some words, not pixels\n"), "photo.png", "image/png");
    expect(text.status).toBe(415);
    expect(text.body.error).toMatchObject({ code: "unsupported-image", where: [{ field: "file" }] });
    expect(text.body.error.message).toMatch(/"photo\.png" is not a PNG, JPEG, WebP, GIF or SVG image by its contents/);

    expect((await api.upload(f.reviewer, id, await gpsJpeg(), "a.jpg")).status).toBe(403);
    expect((await api.upload(f.anonymous, id, await gpsJpeg(), "a.jpg")).status).toBe(401);
    expect((await api.upload(f.author, "AFN-999", await gpsJpeg(), "a.jpg")).status).toBe(404);

    expect(refs()).toBe(before);
    expect(git("count-objects", "-v")).toBe(objects); // not even a loose object
    expect(git("fsck", "--strict", "--no-dangling")).toBe("");
  });
});

describe("an image in a note", () => {
  it("needs alt text: a save without it is a field error with the line, and nothing is committed", async () => {
    const { id, revision } = await newNote();
    const up = await api.upload(f.author, id, await gpsJpeg(), "a.jpg");
    const before = refs();
    const refused = await api.save(f.author, id, { revision, note: note(`First line.\n\n![](${up.body.path})`) });
    expect(refused.status).toBe(422);
    expect(refused.body.error.where).toEqual([{ field: "sections.evidence", line: 3, message: expect.stringMatching(/has no alt text/) }]);
    expect(refs()).toBe(before);

    const elsewhere = await api.save(f.author, id, { revision, note: note(`![A chart](https://example.org/chart.png)`) });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.error.where[0].message).toMatch(/outside the archive/);
    const unknown = await api.save(f.author, id, { revision, note: note(`![A chart](assets/${id}/${"0".repeat(40)}.png)`) });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.where[0].message).toMatch(/is not in the repository: upload the image again/);
    expect(refs()).toBe(before);
  });

  it("is seen by signed-in people only while a draft, and by everyone, cached for a year, once published with its note", async () => {
    const { id, revision } = await newNote();
    const up = await api.upload(f.author, id, await gpsJpeg(), "a.jpg");
    expect((await api.get(f.anonymous, up.body.url)).status).toBe(404); // uploaded, not saved
    expect((await api.get(f.reviewer, up.body.url)).status).toBe(200);

    const saved = await api.save(f.author, id, { revision, note: note(`![Block mask](${up.body.path})`) });
    const anonymous = await api.get(f.anonymous, up.body.url);
    expect(anonymous.status).toBe(404);
    expect(anonymous.headers.get("cache-control")).toBe("no-store");
    const signedIn = await api.get(f.reviewer, up.body.url);
    expect([signedIn.status, signedIn.headers.get("content-type"), signedIn.headers.get("cache-control")]).toEqual([200, "image/jpeg", "private, no-cache"]);

    const proposed = await api.transition(f.author, id, { to: "hypothesis", revision: saved.body.revision });
    const published = await api.publish(f.author, id, { revision: proposed.body.revision });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(git("diff-tree", "--no-commit-id", "--name-only", "-r", published.body.commit).split("\n").sort()).toEqual([up.body.path, `notes/${id}.md`].sort());

    const open = await api.get(f.anonymous, up.body.url);
    expect([open.status, open.headers.get("content-type"), open.headers.get("cache-control")]).toEqual([
      200,
      "image/jpeg",
      "public, max-age=31536000, immutable",
    ]);
    expect((await sharp(Buffer.from(await open.arrayBuffer())).metadata()).width).toBe(320);
    expect(git("fsck", "--strict", "--no-dangling")).toBe("");
  });
});

describe("a wide image's narrower copies (the page's srcset)", () => {
  it("are made from the one stored image on request, in its type and without metadata, seen by whoever sees the image, and never committed", async () => {
    const { id, revision } = await newNote();
    const wide = await sharp({ create: { width: 1600, height: 900, channels: 3, background: "#7a4ea5" } })
      .jpeg()
      .withExif({ IFD0: { Artist: "Jane Private" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 2400/100" } })
      .toBuffer();
    const up = await api.upload(f.author, id, wide, "wide.jpg");
    const copy = (width: number) => (up.body.url as string).replace(/\.jpg$/, `-${width}w.jpg`);
    const widthOf = async (response: Response) => (await sharp(Buffer.from(await response.arrayBuffer())).metadata()).width;

    // A draft's copies are the draft's: signed-in people only, like the image.
    expect((await api.get(f.anonymous, copy(640))).status).toBe(404);
    const staged = await api.get(f.reviewer, copy(640));
    expect([staged.status, staged.headers.get("cache-control")]).toEqual([200, "private, no-cache"]);
    expect(await widthOf(staged)).toBe(640);

    const saved = await api.save(f.author, id, { revision, note: note(`![A wide plot](${up.body.path})`) });
    const proposed = await api.transition(f.author, id, { to: "hypothesis", revision: saved.body.revision });
    const published = await api.publish(f.author, id, { revision: proposed.body.revision });
    expect(published.status, JSON.stringify(published.body)).toBe(200);

    for (const width of [640, 1280]) {
      const open = await api.get(f.anonymous, copy(width));
      expect([open.status, open.headers.get("content-type"), open.headers.get("cache-control")]).toEqual([
        200,
        "image/jpeg",
        "public, max-age=31536000, immutable",
      ]);
      const bytes = Buffer.from(await open.clone().arrayBuffer());
      expect(await widthOf(open)).toBe(width);
      expect(await exifr.parse(bytes)).toBeUndefined();
    }
    // Only the widths the pages name, only narrower than the image: no request makes arbitrary resizes.
    expect((await api.get(f.anonymous, copy(1000))).status).toBe(404);
    expect((await api.get(f.anonymous, copy(2400))).status).toBe(404);
    const small = await api.upload(f.author, id, await gpsJpeg(), "small.jpg");
    expect((await api.get(f.reviewer, (small.body.url as string).replace(/\.jpg$/, "-640w.jpg"))).status).toBe(404);

    // The copies are cache, not content: the note's folder holds the one image.
    expect(git("ls-tree", "-r", "--name-only", "refs/heads/main", `assets/${id}`)).toBe(up.body.path);
    expect(git("fsck", "--strict", "--no-dangling")).toBe("");
  });
});
