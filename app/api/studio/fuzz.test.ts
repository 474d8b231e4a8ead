import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answer, noteFields as filledNote, params, request, studioFixture, type Caller, type Json } from "@/lib/testing/studio";
import { liveMarkup, XSS_PAYLOADS } from "@/lib/testing/xss";
import * as notes from "./notes/route";
import * as note from "./notes/[id]/route";
import * as transitions from "./notes/[id]/transitions/route";
import * as publish from "./notes/[id]/publish/route";
import * as threads from "./notes/[id]/threads/route";
import * as comments from "./notes/[id]/threads/[thread]/comments/route";
import * as comment from "./notes/[id]/threads/[thread]/comments/[comment]/route";
import * as resolve from "./notes/[id]/threads/[thread]/resolve/route";
import * as reopen from "./notes/[id]/threads/[thread]/reopen/route";
import * as verdicts from "./notes/[id]/verdicts/route";
import * as closePhase from "./phases/[slug]/close/route";
import * as reopenPhase from "./phases/[slug]/reopen/route";

/**
 * Every request body the studio API takes, fuzzed: arbitrary JSON, text that is not JSON, and
 * bodies shaped like the real thing whose strings come from the XSS corpus, odd Unicode and random
 * code units. Whatever arrives, the answer is a clear refusal or a success, never a 500, and no
 * HTML in any answer carries live markup. Bounded: about 200 bodies per endpoint.
 */

const RUNS = 200;

let f: Awaited<ReturnType<typeof studioFixture>>;
// The draft, thread and comment the bodies are aimed at; `revision` follows successful saves so
// shaped bodies keep reaching the code behind the compare-and-swap.
const target = { id: "", revision: "", noteRevision: "", thread: "", comment: "" };

beforeAll(async () => {
  f = await studioFixture();
  const created = await notes.POST(request(f.author, "POST", "/api/studio/notes", { note: filledNote("Fuzz target") }), params({})).then(answer);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const moved = await transitions
    .POST(
      request(f.author, "POST", `/api/studio/notes/${created.body.id}/transitions`, { to: "hypothesis", revision: created.body.revision }),
      params({ id: created.body.id }),
    )
    .then(answer);
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  target.id = created.body.id;
  target.revision = moved.body.revision;
  target.noteRevision = moved.body.noteRevision;
  const started = await threads
    .POST(
      request(f.reviewer, "POST", `/api/studio/notes/${target.id}/threads`, { section: "evidence", revision: target.noteRevision, text: "Which test?" }),
      params({ id: target.id }),
    )
    .then(answer);
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  target.thread = started.body.thread;
  target.comment = started.body.threads.find((t: Json) => t.id === target.thread).comments[0].id;
}, 60_000);
afterAll(() => f.cleanup());

// ---- bodies ------------------------------------------------------------------------------------

const hostile = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...XSS_PAYLOADS.map(([, p]) => p)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom("R&D", "<", '"', "%E0%A4", "\u0000", "\ud800", "\ufffe", "## Decision", "---", "AFN-001", "", " ", "6 architecture"),
  },
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 80 }) },
);
const markdown = fc.array(hostile, { maxLength: 6 }).map((parts) => parts.join(fc.sample(fc.constantFrom(" ", "\n", "\n\n"), 1)[0]));
// The draft's head (saves, status changes, publish) or the revision under review (threads, verdicts).
const revision = fc.oneof(fc.constant("CURRENT"), fc.constant("0".repeat(40)), hostile);
const reviewed = fc.oneof(fc.constant("REVIEWED"), fc.constant("0".repeat(40)), hostile);
const noteFields = fc.record(
  {
    title: hostile,
    summary: hostile,
    phase: fc.oneof(fc.constant("6 architecture"), hostile),
    tags: fc.array(hostile, { maxLength: 4 }),
    related: fc.array(fc.oneof(fc.constant("AFN-001"), hostile), { maxLength: 3 }),
    boundaries: fc.array(fc.oneof(fc.constant("structural-only"), hostile), { maxLength: 2 }),
    core: fc.oneof(fc.constant(null), fc.record({ rank: fc.double(), label: hostile })),
    sections: fc.record({ decision: markdown, invariant: markdown, rejectedShortcut: markdown, evidence: markdown, claimBoundary: markdown, notes: markdown }),
  },
  { requiredKeys: [] },
);

/** Anything at all: JSON of any shape, text that is not JSON, or a body shaped like the endpoint's. */
const body = (shaped: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? "null") },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 60 }) },
    { weight: 5, arbitrary: shaped.map((v) => JSON.stringify(v)) },
  );

type Endpoint = {
  name: string;
  caller: () => Caller;
  method: string;
  path: () => string;
  params: () => Record<string, string>;
  handler: (r: Request, c: never) => Promise<Response>;
  body: fc.Arbitrary<string>;
};

const endpoints: Endpoint[] = [
  {
    name: "create note",
    caller: () => f.author,
    method: "POST",
    path: () => "/api/studio/notes",
    params: () => ({}),
    handler: notes.POST,
    body: body(fc.record({ note: noteFields }, { requiredKeys: [] })),
  },
  {
    name: "save draft",
    caller: () => f.author,
    method: "PUT",
    path: () => `/api/studio/notes/${target.id}`,
    params: () => ({ id: target.id }),
    handler: note.PUT,
    body: body(fc.record({ revision, note: noteFields, reason: fc.option(hostile, { nil: undefined }) }, { requiredKeys: ["revision", "note"] })),
  },
  {
    name: "change status",
    caller: () => f.author,
    method: "POST",
    path: () => `/api/studio/notes/${target.id}/transitions`,
    params: () => ({ id: target.id }),
    handler: transitions.POST,
    body: body(
      fc.record(
        {
          to: fc.oneof(fc.constantFrom("draft", "hypothesis", "verified-checkpoint", "superseded", "retracted"), hostile),
          revision,
          reason: hostile,
          superseded_by: hostile,
        },
        { requiredKeys: ["to", "revision"] },
      ),
    ),
  },
  {
    name: "publish",
    caller: () => f.author,
    method: "POST",
    path: () => `/api/studio/notes/${target.id}/publish`,
    params: () => ({ id: target.id }),
    handler: publish.POST,
    body: body(fc.record({ revision, main: revision }, { requiredKeys: ["revision"] })),
  },
  {
    name: "start thread",
    caller: () => f.reviewer,
    method: "POST",
    path: () => `/api/studio/notes/${target.id}/threads`,
    params: () => ({ id: target.id }),
    handler: threads.POST,
    body: body(
      fc.record(
        { section: fc.oneof(fc.constantFrom("decision", "evidence"), hostile), quote: hostile, revision: reviewed, text: markdown },
        { requiredKeys: ["section", "revision", "text"] },
      ),
    ),
  },
  {
    name: "reply",
    caller: () => f.author,
    method: "POST",
    path: () => `/api/studio/notes/${target.id}/threads/${target.thread}/comments`,
    params: () => ({ id: target.id, thread: target.thread }),
    handler: comments.POST,
    body: body(fc.record({ text: markdown })),
  },
  {
    name: "edit comment",
    caller: () => f.reviewer,
    method: "PATCH",
    path: () => `/api/studio/notes/${target.id}/threads/${target.thread}/comments/${target.comment}`,
    params: () => ({ id: target.id, thread: target.thread, comment: target.comment }),
    handler: comment.PATCH,
    body: body(fc.record({ text: markdown })),
  },
  {
    name: "resolve",
    caller: () => f.author,
    method: "POST",
    path: () => `/api/studio/notes/${target.id}/threads/${target.thread}/resolve`,
    params: () => ({ id: target.id, thread: target.thread }),
    handler: resolve.POST,
    body: body(fc.constant({})),
  },
  {
    name: "reopen thread",
    caller: () => f.author,
    method: "POST",
    path: () => `/api/studio/notes/${target.id}/threads/${target.thread}/reopen`,
    params: () => ({ id: target.id, thread: target.thread }),
    handler: reopen.POST,
    body: body(fc.constant({})),
  },
  {
    name: "verdict",
    caller: () => f.reviewer,
    method: "POST",
    path: () => `/api/studio/notes/${target.id}/verdicts`,
    params: () => ({ id: target.id }),
    handler: verdicts.POST,
    body: body(
      fc.record(
        { verdict: fc.oneof(fc.constantFrom("approve", "request-changes"), hostile), revision: reviewed, summary: markdown },
        { requiredKeys: ["verdict", "revision"] },
      ),
    ),
  },
  {
    name: "close phase",
    caller: () => f.author,
    method: "POST",
    path: () => "/api/studio/phases/agent-operations/close",
    params: () => ({ slug: "agent-operations" }),
    handler: closePhase.POST,
    body: body(fc.record({ noDeltaWhy: markdown }, { requiredKeys: [] })),
  },
  {
    name: "reopen phase",
    caller: () => f.author,
    method: "POST",
    path: () => "/api/studio/phases/agent-operations/reopen",
    params: () => ({ slug: "agent-operations" }),
    handler: reopenPhase.POST,
    body: body(fc.record({ reason: markdown })),
  },
];

/**
 * Every string in an answer that is HTML (its key says so). Other strings are the author's text as
 * data (a title, a section's Markdown) and may hold "<script>" as written; the pages that show them
 * escape or sanitise them, which lib/render's fuzz and the e2e XSS run check.
 */
function htmlStrings(value: unknown, key = ""): string[] {
  if (typeof value === "string") return /html/i.test(key) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((v) => htmlStrings(v, key));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => htmlStrings(v, k));
  return [];
}

describe("fuzzed request bodies of the studio API", () => {
  for (const e of endpoints) {
    it(`${e.name}: never a 500, never live markup in the answer`, async () => {
      const seen = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(e.body, async (raw) => {
          const text = raw.replaceAll('"CURRENT"', JSON.stringify(target.revision)).replaceAll('"REVIEWED"', JSON.stringify(target.noteRevision));
          const req = new Request(`http://studio.test${e.path()}`, {
            method: e.method,
            headers: { ...e.caller().headers, host: "studio.test", "content-type": "application/json" },
            body: text,
          });
          const res = await e.handler(req, { params: Promise.resolve(e.params()) } as never);
          seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
          const json = (await res.json()) as Json;
          expect(res.status, `${e.name} ${text.slice(0, 300)} → ${JSON.stringify(json).slice(0, 300)}`).toBeLessThan(500);
          if (res.status >= 400) expect(json.error?.message, "a refusal says what is wrong").toEqual(expect.any(String));
          for (const html of htmlStrings(json)) expect(liveMarkup(html), html.slice(0, 200)).toEqual([]);
          // Keep the shaped bodies current: a save or status change moves the draft's revision.
          if (res.status < 300 && json.id === target.id && typeof json.revision === "string") {
            target.revision = json.revision;
            if (typeof json.noteRevision === "string") target.noteRevision = json.noteRevision;
          }
        }),
        { numRuns: RUNS },
      );
      // The fuzz reached past the body parser: some bodies were refused on the merits or accepted.
      expect(
        [...seen.keys()].some((s) => s !== 400 && s !== 415),
        `${e.name} statuses ${JSON.stringify([...seen])}`,
      ).toBe(true);
    }, 60_000);
  }
});
