import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answer, noteFields, params, request, studioFixture, type Caller, type Json } from "@/lib/testing/studio";
import * as list from "./notes/route";
import * as one from "./notes/[id]/route";
import * as transitions from "./notes/[id]/transitions/route";
import * as publish from "./notes/[id]/publish/route";
import * as threads from "./notes/[id]/threads/route";
import * as comments from "./notes/[id]/threads/[thread]/comments/route";
import * as verdicts from "./notes/[id]/verdicts/route";
import * as requests from "./notes/[id]/review-requests/route";
import * as notifications from "./notifications/route";
import * as read from "./notifications/read/route";
import * as unread from "./notifications/unread/route";
import * as settings from "./notifications/settings/route";
import * as feed from "./notifications/feed/route";
import * as feedOf from "./notifications/feed/[token]/route";
import * as people from "./people/route";
import * as feedXml from "@/app/feed.xml/route";
import * as llms from "@/app/llms.txt/route";
import * as llmsFull from "@/app/llms-full.txt/route";
import * as agentIndex from "@/app/agents/index.json/route";
import * as pagesTxt from "@/app/agents/pages.txt/route";
import * as noteFormats from "@/app/agents/notes/[file]/route";
import * as capsules from "@/app/agents/capsules/[file]/route";
import * as searchJson from "@/app/agents/search.json/route";

/**
 * Notifications through the studio API against a real content repository: who is told of a
 * mention, a reply, a review request, a verdict and a publish (exactly the people concerned, never
 * the actor), read markers, the per-person feed behind its secret address, and nothing of any of
 * it on a public surface or an agent format.
 */

let f: Awaited<ReturnType<typeof studioFixture>>;
beforeAll(async () => {
  f = await studioFixture();
});
afterAll(() => f.cleanup());

const base = (id: string) => `/api/studio/notes/${id}`;
const api = {
  create: (c: Caller, body: unknown) => list.POST(request(c, "POST", "/api/studio/notes", body), params({})).then(answer),
  read: (c: Caller, id: string) => one.GET(request(c, "GET", base(id)), params({ id })).then(answer),
  transition: (c: Caller, id: string, body: unknown) => transitions.POST(request(c, "POST", `${base(id)}/transitions`, body), params({ id })).then(answer),
  publish: (c: Caller, id: string, body: unknown) => publish.POST(request(c, "POST", `${base(id)}/publish`, body), params({ id })).then(answer),
  thread: (c: Caller, id: string, body: unknown) => threads.POST(request(c, "POST", `${base(id)}/threads`, body), params({ id })).then(answer),
  reply: (c: Caller, id: string, thread: string, text: string) =>
    comments.POST(request(c, "POST", `${base(id)}/threads/${thread}/comments`, { text }), params({ id, thread })).then(answer),
  verdict: (c: Caller, id: string, body: unknown) => verdicts.POST(request(c, "POST", `${base(id)}/verdicts`, body), params({ id })).then(answer),
  ask: (c: Caller, id: string, body: unknown) => requests.POST(request(c, "POST", `${base(id)}/review-requests`, body), params({ id })).then(answer),
  list: (c: Caller) => notifications.GET(request(c, "GET", "/api/studio/notifications"), params({})).then(answer),
  markRead: (c: Caller, body: unknown) => read.POST(request(c, "POST", "/api/studio/notifications/read", body), params({})).then(answer),
  markUnread: (c: Caller, body: unknown) => unread.POST(request(c, "POST", "/api/studio/notifications/unread", body), params({})).then(answer),
  settings: (c: Caller) => settings.GET(request(c, "GET", "/api/studio/notifications/settings"), params({})).then(answer),
  saveSettings: (c: Caller, body: unknown) => settings.PUT(request(c, "PUT", "/api/studio/notifications/settings", body), params({})).then(answer),
  newFeed: (c: Caller) => feed.POST(request(c, "POST", "/api/studio/notifications/feed", {}), params({})).then(answer),
  dropFeed: (c: Caller) => feed.DELETE(request(c, "DELETE", "/api/studio/notifications/feed", {}), params({})).then(answer),
  feed: (url: string) => {
    const token = url.split("/").pop() ?? "";
    return feedOf.GET(new Request(url, { headers: { host: "studio.test" } }), params({ token }));
  },
  people: (c: Caller) => people.GET(request(c, "GET", "/api/studio/people"), params({})).then(answer),
};

const ok = (r: { status: number; body: Json }, status = 200) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
};

const mark = Date.now().toString(36);
const MENTION = `Zorblax${mark} @sam which kernel test fails? cc @nobody-here, a@b is no mention.`;
const REPLY = `Quillfen${mark} test_masked_blocks fails; @rita see the evidence.`;

/** A hypothesis draft by ada, proposed for publishing: its id and current revision. */
async function proposedNote(title: string): Promise<{ id: string; revision: string }> {
  const created = ok(
    await api.create(f.author, {
      note: noteFields(title, {
        sections: { rejectedShortcut: "Masking scores after loading every block.", evidence: "- a kernel test that fails when a masked block is loaded" },
      }),
    }),
    201,
  );
  const proposed = ok(await api.transition(f.author, created.id, { to: "hypothesis", revision: created.revision }));
  return { id: created.id, revision: proposed.revision };
}

const kindsOf = (body: Json, id: string) => (body.items as Json[]).filter((n) => n.note === id).map((n) => n.kind);

describe("notifications", () => {
  let id: string;
  let thread: string;

  beforeAll(async () => {
    ({ id } = await proposedNote("Told, not polled"));
    const opened = ok(await api.read(f.reviewer, id));
    thread = ok(await api.thread(f.reviewer, id, { section: "evidence", revision: opened.noteRevision, text: MENTION }), 201).thread;
  });

  it("a mention notifies exactly the person named: not the writer, not the author, not an unknown name", async () => {
    const sam = ok(await api.list(f.secondReviewer));
    expect(sam.items).toEqual([
      expect.objectContaining({
        kind: "mention",
        note: id,
        to: "sam",
        by: { id: "rita", name: "rita" },
        href: `/studio/notes/${id}/review#thread-${thread}`,
        read: false,
        text: `rita mentioned you on ${id} (Told, not polled), Evidence`,
      }),
    ]);
    expect(sam.unread).toBe(1);
    for (const other of [f.author, f.reviewer, f.secondAuthor]) expect(kindsOf(ok(await api.list(other)), id), other.label).toEqual([]);
  });

  it("a reply tells the thread's earlier speakers, and a mention in it the person named (once: a mention, not also a reply)", async () => {
    ok(await api.reply(f.author, id, thread, REPLY), 201);
    expect(kindsOf(ok(await api.list(f.reviewer)), id)).toEqual(["mention"]);
    ok(await api.reply(f.secondReviewer, id, thread, "Agreed."), 201);
    expect(kindsOf(ok(await api.list(f.reviewer)), id)).toEqual(["reply", "mention"]);
    expect(kindsOf(ok(await api.list(f.author)), id)).toEqual(["reply"]);
    expect(kindsOf(ok(await api.list(f.secondReviewer)), id)).toEqual(["mention"]);
  });

  it("a review request tells the reviewers it names; a verdict the note's author; a publish its author and reviewers", async () => {
    const opened = ok(await api.read(f.author, id));
    ok(await api.ask(f.author, id, { revision: opened.noteRevision, reviewers: ["sam"], text: "Please look at the evidence." }), 201);
    const sam = ok(await api.list(f.secondReviewer));
    expect(sam.items[0]).toMatchObject({ kind: "review-request", href: `/studio/notes/${id}/review`, excerpt: "Please look at the evidence." });
    expect(kindsOf(ok(await api.list(f.reviewer)), id)).not.toContain("review-request");

    ok(await api.verdict(f.secondReviewer, id, { verdict: "approve", revision: opened.noteRevision }), 201);
    expect(ok(await api.list(f.author)).items[0]).toMatchObject({ kind: "verdict", text: `sam approved ${id} (Told, not polled)` });

    const published = ok(await api.publish(f.author, id, { revision: opened.revision }));
    // sam approved it: one of its reviewers.
    expect(ok(await api.list(f.secondReviewer)).items.filter((n: Json) => n.kind === "publish")).toEqual([
      expect.objectContaining({
        id: published.commit.slice(0, 12),
        note: id,
        href: `/notes/${id}/history#r-${published.commit.slice(0, 12)}`,
        text: `ada published ${id} (Told, not polled)`,
      }),
    ]);
    // rita commented but gave no verdict: not one of its reviewers. ada published it herself.
    expect(kindsOf(ok(await api.list(f.reviewer)), id)).not.toContain("publish");
    expect(kindsOf(ok(await api.list(f.author)), id)).not.toContain("publish");
  });

  it("marks read one by one or all at once, and one back to unread; the count follows, per person", async () => {
    const before = ok(await api.list(f.reviewer));
    expect(before.unread).toBe(before.items.length);
    const first = before.items[0].id as string;
    const after = ok(await api.markRead(f.reviewer, { ids: [first] }));
    expect(after.unread).toBe(before.unread - 1);
    expect(after.items.find((n: Json) => n.id === first).read).toBe(true);
    expect(ok(await api.list(f.secondReviewer)).unread).toBeGreaterThan(0); // someone else's marker
    expect(ok(await api.markUnread(f.reviewer, { id: first })).unread).toBe(before.unread);
    expect(ok(await api.markRead(f.reviewer, { all: true })).unread).toBe(0);
    expect(ok(await api.list(f.reviewer)).items.every((n: Json) => n.read)).toBe(true);
    // One read by "all" can be marked unread again, and read again.
    expect(ok(await api.markUnread(f.reviewer, { id: first })).unread).toBe(1);
    expect(ok(await api.markRead(f.reviewer, { ids: [first] })).unread).toBe(0);
  });

  it("refuses a bad mark with a clear error saying where", async () => {
    const bad = await api.markRead(f.reviewer, { ids: ["not-an-id"] });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("12 hexadecimal characters");
    expect((await api.markRead(f.reviewer, {})).status).toBe(400);
    const badMail = await api.saveSettings(f.reviewer, { email: "not an address", off: ["gossip"] });
    expect(badMail.status).toBe(400);
    expect(JSON.stringify(badMail.body)).toMatch(/e-mail address/);
  });

  it("lists everyone a mention can name, for the comment box", async () => {
    expect(ok(await api.people(f.author)).people.map((p: Json) => p.name)).toEqual(["ada", "grace", "rita", "sam"]);
  });

  it("gives each person a feed behind a secret address, which a new address or a revocation ends", async () => {
    const { url } = ok(await api.newFeed(f.secondReviewer), 201);
    expect(url).toMatch(/^http:\/\/studio\.test\/api\/studio\/notifications\/feed\/fnf_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    const res = await api.feed(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/atom\+xml/);
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
    const xml = await res.text();
    expect(xml).toContain(`rita mentioned you on ${id}`);
    expect(xml).toContain(`href="http://studio.test/studio/notes/${id}/review#thread-${thread}"`);
    expect(xml).not.toContain("Quillfen"); // ada's reply mentions rita, not sam
    expect(ok(await api.settings(f.secondReviewer)).feed).toEqual({ created: expect.any(String) });

    const { url: second } = ok(await api.newFeed(f.secondReviewer), 201);
    expect((await api.feed(url)).status).toBe(404);
    expect((await api.feed(second)).status).toBe(200);
    expect(ok(await api.dropFeed(f.secondReviewer)).feed).toBeNull();
    expect((await api.feed(second)).status).toBe(404);
    expect((await api.feed("http://studio.test/api/studio/notifications/feed/anything")).status).toBe(404);
  });

  it("keeps each person's mail choices", async () => {
    expect(ok(await api.settings(f.author))).toEqual({ mail: { email: null, off: [] }, mailEnabled: false, feed: null });
    const saved = ok(await api.saveSettings(f.author, { email: " ada@example.org ", off: ["publish", "reply"] }));
    expect(saved.mail).toEqual({ email: "ada@example.org", off: ["reply", "publish"] });
    expect(ok(await api.settings(f.author)).mail).toEqual(saved.mail);
  });

  it("shows nothing of a notification on any public surface or agent format", async () => {
    const get = (path: string) => new Request(`http://studio.test${path}`, { headers: { host: "studio.test" } });
    const file = (name: string) => params({ file: name });
    const bodies: [string, Response | Promise<Response>][] = [
      ["/feed.xml", feedXml.GET(get("/feed.xml"))],
      ["/llms.txt", llms.GET(get("/llms.txt"))],
      ["/llms-full.txt", llmsFull.GET(get("/llms-full.txt"))],
      ["/agents/index.json", agentIndex.GET(get("/agents/index.json"))],
      ["/agents/pages.txt", pagesTxt.GET(get("/agents/pages.txt"))],
      [`/agents/notes/${id}.json`, noteFormats.GET(get(`/agents/notes/${id}.json`), file(`${id}.json`))],
      [`/agents/notes/${id}.md`, noteFormats.GET(get(`/agents/notes/${id}.md`), file(`${id}.md`))],
      [`/agents/capsules/${id}.json`, capsules.GET(get(`/agents/capsules/${id}.json`), file(`${id}.json`))],
      [`/agents/search.json?q=Zorblax${mark}`, searchJson.GET(get(`/agents/search.json?q=Zorblax${mark}`))],
    ];
    for (const [path, response] of bodies) {
      const res = await response;
      const text = await res.text();
      expect(res.status, path).toBeLessThan(500);
      for (const word of [`Quillfen${mark}`, "mentioned you", "replied in your thread", "asks you to review", "/api/studio/notifications", "fnf_"]) {
        expect(text, `${path} must not show "${word}"`).not.toContain(word);
      }
      if (!path.startsWith("/agents/search.json")) expect(text, path).not.toContain(`Zorblax${mark}`);
    }
    // And the studio API admits nothing to someone not signed in.
    expect((await api.list(f.anonymous)).status).toBe(401);
    expect((await api.people(f.anonymous)).status).toBe(401);
  });
});
