import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { deflateSync } from "node:zlib";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { continueSecurely } from "@/lib/http/security-headers";
import { startSvgWorker, SVG_WORKER_BOUNDS } from "@/lib/assets/svg-thread";
import { answer, BASE, noteFields, params, request, studioFixture, type Caller } from "@/lib/testing/studio";
import * as list from "../../route";
import * as one from "../route";
import * as upload from "./route";

/**
 * Uploads made to hurt the server (issue 32): an SVG nested or crowded past what a sanitiser can
 * parse in reasonable time and memory, a PNG whose header names a pathological shape, and the
 * files real drawing programs write. Each heavy one ends with a refusal that names the limit, while
 * another request is answered beside it.
 */

// The SVG worker as the server runs it (here its TypeScript compiled by tsx's require hook, in the
// server by Next's bundler), so these uploads are sanitised where the server sanitises them.
const entry = fileURLToPath(new URL("../../../../../../lib/assets/svg-worker.ts", import.meta.url));
const spawn = (options: { resourceLimits: { maxOldGenerationSizeMb: number } }) =>
  new Worker(`require("tsx/cjs/api").register(); require(${JSON.stringify(entry)});`, { eval: true, ...options });

let f: Awaited<ReturnType<typeof studioFixture>>;
let id: string;
afterAll(() => startSvgWorker(null));
beforeAll(async () => {
  startSvgWorker(spawn);
  f = await studioFixture();
  const created = await answer(await list.POST(request(f.author, "POST", "/api/studio/notes", {}), params({})));
  const saved = await answer(
    await one.PUT(
      request(f.author, "PUT", `/api/studio/notes/${created.body.id}`, { revision: created.body.revision, note: noteFields("Hostile uploads") }),
      params({ id: created.body.id }),
    ),
  );
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  id = created.body.id;
});
afterAll(() => f.cleanup());

function post(c: Caller, bytes: Uint8Array, name: string): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)]), name);
  const req = new Request(`${BASE}/api/studio/notes/${id}/assets`, { method: "POST", headers: { ...c.headers, host: "studio.test" }, body: form });
  return upload.POST(req, params({ id })).then(answer);
}

/**
 * The upload's answer, and how long a reader asking for the note 50 ms after the upload started
 * waited, counted from when it meant to ask (a blocked event loop delays the asking itself).
 */
async function uploadBesideReader(bytes: Uint8Array, name: string) {
  const started = performance.now();
  const uploading = post(f.author, bytes, name);
  const reading = (async () => {
    const meant = started + 50;
    await new Promise((r) => setTimeout(r, 50));
    const read = await one.GET(request(f.reviewer, "GET", `/api/studio/notes/${id}`), params({ id }));
    expect(read.status).toBe(200);
    return performance.now() - meant;
  })();
  const [up, readerWaited] = await Promise.all([uploading, reading]);
  return { up, readerWaited, took: performance.now() - started };
}

const SVG_OPEN = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">`;

describe("an SVG too complex to sanitise", () => {
  it("20,000 nested groups (140 KB) are refused at once, naming the depth limit, and a reader is not held up", async () => {
    const svg = `${SVG_OPEN}${"<g>".repeat(20_000)}<rect width="1" height="1"/>${"</g>".repeat(20_000)}</svg>`;
    expect(svg.length).toBeLessThan(150_000);
    const { up, readerWaited } = await uploadBesideReader(Buffer.from(svg), "nested.svg");
    expect(up.status, JSON.stringify(up.body)).toBe(422);
    expect(up.body.error).toMatchObject({ code: "image-too-complex", where: [{ field: "file" }] });
    expect(up.body.error.message).toMatch(/nested more than 100 elements deep/);
    expect(readerWaited).toBeLessThan(2000);
  }, 120_000);

  it("150,000 rectangles (4.2 MB) are refused at once, naming the size limit of an SVG, and a reader is not held up", async () => {
    const svg = `${SVG_OPEN}${'<rect width="1" height="1"/>'.repeat(150_000)}</svg>`;
    expect(svg.length).toBeGreaterThan(4_100_000);
    const { up, readerWaited } = await uploadBesideReader(Buffer.from(svg), "crowded.svg");
    expect(up.status, JSON.stringify(up.body)).toBe(413);
    expect(up.body.error).toMatchObject({ code: "too-large", where: [{ field: "file" }] });
    expect(up.body.error.message).toMatch(/is 4\.\d MB, more than the 2\.0 MB an SVG may be/);
    expect(readerWaited).toBeLessThan(2000);
  }, 120_000);

  it("20,000 rectangles in 140 KB are refused at once, naming the element limit, and a reader is not held up", async () => {
    const svg = `${SVG_OPEN}${"<rect/>".repeat(20_000)}</svg>`;
    const { up, readerWaited } = await uploadBesideReader(Buffer.from(svg), "many.svg");
    expect(up.status, JSON.stringify(up.body)).toBe(422);
    expect(up.body.error).toMatchObject({ code: "image-too-complex", where: [{ field: "file" }] });
    expect(up.body.error.message).toMatch(/more than the 10,000 elements an SVG may have/);
    expect(readerWaited).toBeLessThan(2000);
  }, 120_000);

  it("a crowd of groups closed by end tags that close nothing is counted as the parser nests it", async () => {
    // </x> closes no open element: an HTML parser ignores it, so each <g> nests in the one before.
    const svg = `${SVG_OPEN}${"<g></x>".repeat(5_000)}</svg>`;
    const up = await post(f.author, Buffer.from(svg), "sneaky.svg");
    expect(up.status, JSON.stringify(up.body)).toBe(422);
    expect(up.body.error.message).toMatch(/nested more than 100 elements deep/);
  }, 120_000);
});

describe("an SVG within the limits", () => {
  it("is sanitised in the worker thread: 8,000 elements take seconds there, and a reader is answered meanwhile", async () => {
    const svg = `${SVG_OPEN}${'<rect x="1" y="2" width="3" height="4" fill="#c33"/>'.repeat(8_000)}</svg>`;
    const { up, readerWaited } = await uploadBesideReader(Buffer.from(svg), "busy.svg");
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(readerWaited).toBeLessThan(2000);
  }, 120_000);

  it("is refused, never a 500, when the worker passes its time or memory bound, and the next SVG gets a new worker", async () => {
    const svg = Buffer.from(`${SVG_OPEN}<rect width="10" height="10" fill="#c33"/></svg>`);
    try {
      startSvgWorker(spawn, { ...SVG_WORKER_BOUNDS, ms: 50 });
      const slow = await post(f.author, svg, "slow.svg");
      expect(slow.status, JSON.stringify(slow.body)).toBe(422);
      expect(slow.body.error).toMatchObject({ code: "image-too-complex", where: [{ field: "file" }] });
      expect(slow.body.error.message).toMatch(/took longer than the 0\.05 s an SVG may take/);

      startSvgWorker(spawn, { ...SVG_WORKER_BOUNDS, heapMb: 8 });
      const hungry = await post(f.author, svg, "hungry.svg");
      expect(hungry.status, JSON.stringify(hungry.body)).toBe(422);
      expect(hungry.body.error.message).toMatch(/needed more than the 8 MB an SVG may take/);
    } finally {
      startSvgWorker(spawn);
    }
    expect((await post(f.author, svg, "fine.svg")).status).toBe(201);
  }, 120_000);
});

describe("an SVG's references", () => {
  it("keep url(#local) and lose every url() that points elsewhere, in any presentation attribute or style", async () => {
    const svg = [
      SVG_OPEN,
      `<defs><linearGradient id="g"><stop offset="0" stop-color="#c33"/></linearGradient><clipPath id="c"><rect width="10" height="10"/></clipPath></defs>`,
      `<rect width="10" height="10" fill="url(#g)" clip-path="url('#c')"/>`,
      `<rect width="10" height="10" fill="url(https://tracker.example/fill.svg#p)"/>`,
      `<rect width="10" height="10" stroke="url( 'http://tracker.example/stroke.svg#p' )"/>`,
      `<rect width="10" height="10" filter="url(//tracker.example/filter.svg#f)"/>`,
      `<rect width="10" height="10" clip-path="url(https://tracker.example/clip.svg#c)"/>`,
      `<rect width="10" height="10" mask="url(https://tracker.example/mask.svg#m)"/>`,
      `<path d="M0 0L10 10" marker-end="url(https://tracker.example/marker.svg#m)"/>`,
      `<rect width="10" height="10" style="fill: u\\72l(https://tracker.example/escaped.svg#p)"/>`,
      `</svg>`,
    ].join("");
    const up = await post(f.author, Buffer.from(svg), "refs.svg");
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const stored = await served(up.body.url);
    expect(stored).not.toMatch(/tracker\.example/);
    expect(stored).toContain('fill="url(#g)"');
    expect(stored).toContain("clip-path=\"url('#c')\"");
    for (const attribute of ["fill", "stroke", "filter", "clip-path", "mask", "marker-end", "style"])
      expect(up.body.cleaned.join("\n"), attribute).toMatch(new RegExp(`the ${attribute}="`));
  });
});

describe("SVG as drawing programs write it", () => {
  it("is accepted with its XML declaration (Inkscape), its editor's attributes removed and said so", async () => {
    const inkscape = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!-- Created with Inkscape (http://www.inkscape.org/) -->

<svg
   width="80mm"
   height="40mm"
   viewBox="0 0 80 40"
   version="1.1"
   id="svg1"
   inkscape:version="1.3 (0e150ed6c4, 2023-07-21)"
   sodipodi:docname="mask.svg"
   xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
   xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
   xmlns="http://www.w3.org/2000/svg"
   xmlns:svg="http://www.w3.org/2000/svg">
  <sodipodi:namedview
     id="namedview1"
     pagecolor="#ffffff"
     bordercolor="#000000"
     inkscape:document-units="mm" />
  <defs
     id="defs1" />
  <g
     inkscape:label="Layer 1"
     inkscape:groupmode="layer"
     id="layer1">
    <rect
       style="fill:#3a6ea5;stroke-width:0.264583"
       id="rect1"
       width="60"
       height="20"
       x="10"
       y="10" />
  </g>
</svg>
`;
    const up = await post(f.author, Buffer.from(inkscape), "mask.svg");
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body).toMatchObject({ type: "image/svg+xml", width: expect.any(Number), height: expect.any(Number) });
    const stored = await served(up.body.url);
    expect(stored).toMatch(/<rect[^>]*fill:#3a6ea5/);
    expect(stored).not.toMatch(/sodipodi|inkscape:/);
  });

  it("is accepted with its XML declaration and DOCTYPE (Illustrator)", async () => {
    const illustrator = `<?xml version="1.0" encoding="utf-8"?>
<!-- Generator: Adobe Illustrator 27.0.0, SVG Export Plug-In . SVG Version: 6.00 Build 0)  -->
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg version="1.1" id="Layer_1" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" x="0px" y="0px"
\t viewBox="0 0 200 100" style="enable-background:new 0 0 200 100;" xml:space="preserve">
<rect x="10" y="10" fill="#CC3333" width="180" height="80"/>
</svg>
`;
    const up = await post(f.author, Buffer.from(illustrator), "chart.svg");
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body).toMatchObject({ width: 200, height: 100 });
    expect(await served(up.body.url)).toMatch(/<rect[^>]*fill="#CC3333"/);
  });
});

describe("a served SVG", () => {
  it("keeps its own sandboxed policy through the proxy, without the page's nonce", async () => {
    const up = await post(f.author, Buffer.from(`${SVG_OPEN}<rect width="10" height="10" fill="#c33"/></svg>`), "plain.svg");
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const { GET } = await import("@/app/assets/[id]/[file]/route");
    const [, , assetId, file] = (up.body.url as string).split("/");
    const own = (await GET(new Request(`${BASE}${up.body.url}`, { headers: f.reviewer.headers }), params({ id: assetId!, file: file! }))).headers.get(
      "content-security-policy",
    );
    expect(own).toMatch(/\bsandbox\b/);
    // Next keeps the proxy's header over the route's when both set one: the proxy's is what the browser gets.
    for (const path of [up.body.url, `/assets/${id}/${"0".repeat(40)}.svg`, `/assets/${id}/${"0".repeat(40)}-640w.png`]) {
      const proxied = await continueSecurely(new NextRequest(`${BASE}${path}`, { headers: { host: "studio.test" } }));
      const policy = proxied.headers.get("content-security-policy");
      expect(policy, path).toBe(own);
      expect(policy).not.toMatch(/nonce-/);
    }
  });
});

/** A PNG's bytes from its header and raw rows (8-bit greyscale), as a PNG encoder would write them. */
function png(width: number, height: number, rows: Buffer): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(rows, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

describe("a raster image of a pathological shape", () => {
  it("a 1 × 39,000,000 px PNG (under the pixel limit) is refused from its header, naming the side limit", async () => {
    const bytes = png(1, 39_000_000, Buffer.alloc(2 * 39_000_000)); // each row: filter byte 0, one black pixel
    expect(bytes.length).toBeLessThan(100_000);
    const { up, readerWaited, took } = await uploadBesideReader(bytes, "tall.png");
    expect(up.status, JSON.stringify(up.body)).toBe(422);
    expect(up.body.error).toMatchObject({ code: "too-many-pixels", where: [{ field: "file" }] });
    expect(up.body.error.message).toMatch(/1×39000000 pixels: an image is at most 16384 pixels on a side/);
    expect(readerWaited).toBeLessThan(2000);
    expect(took).toBeLessThan(5000);
  }, 120_000);
});

async function served(url: string): Promise<string> {
  const [, , assetId, file] = url.split("/");
  const { GET } = await import("@/app/assets/[id]/[file]/route");
  const response = await GET(new Request(`${BASE}${url}`, { headers: { ...f.reviewer.headers, host: "studio.test" } }), params({ id: assetId!, file: file! }));
  expect(response.status).toBe(200);
  return response.text();
}
