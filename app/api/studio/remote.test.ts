import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGitServer, type GitServer } from "@/e2e/support/git-server";
import { resetRemoteConfig, openMirror } from "@/lib/store";
import { git, tempDir } from "@/lib/store/testing";
import { parseNote, serializeNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";
import type { ContentStore } from "@/lib/store/types";
import { getContentStore } from "@/lib/working-copy/content-store";
import { answer, noteFields, params, request, studioFixture, type Caller } from "@/lib/testing/studio";
import * as list from "./notes/route";
import * as one from "./notes/[id]/route";
import * as transitions from "./notes/[id]/transitions/route";
import * as publish from "./notes/[id]/publish/route";

/**
 * Two instances of the studio on one git remote (git's own http-backend), polling once an hour so
 * that nothing but the write itself brings the other's refs: this process's app, and a second
 * instance's mirror that writes what that instance's studio would.
 */

const USER = "fn";
const PASSWORD = "studio-remote-password";
const saved = { ...process.env };
let server: GitServer;
let root: string;
let remoteDir: string;
let f: Awaited<ReturnType<typeof studioFixture>>;
/** The other instance: a mirror of the same remote with its own local repository. */
let other: ContentStore<Note>;
const ada = { name: "ada", email: "ada@users.field-notes.invalid" };

const api = {
  create: (c: Caller) => list.POST(request(c, "POST", "/api/studio/notes", {}), params({})).then(answer),
  save: (c: Caller, id: string, body: unknown) => one.PUT(request(c, "PUT", `/api/studio/notes/${id}`, body), params({ id })).then(answer),
  transition: (c: Caller, id: string, body: unknown) =>
    transitions.POST(request(c, "POST", `/api/studio/notes/${id}/transitions`, body), params({ id })).then(answer),
  publish: (c: Caller, id: string, body: unknown) => publish.POST(request(c, "POST", `/api/studio/notes/${id}/publish`, body), params({ id })).then(answer),
};

const onRemote = (rev: string) => git(remoteDir, "rev-parse", rev);

/** A note as the other instance's studio writes it: valid, a hypothesis, with `order`. */
function noteText(id: string, order: number, title = `Written on the other instance (${id})`): string {
  const seed = parseNote(fs.readFileSync(path.resolve("content/notes/AFN-019.md"), "utf8"));
  if (!seed.ok) throw new Error("seed note AFN-019 does not parse");
  return serializeNote({ ...seed.note, id, title, status: "hypothesis", order, core: undefined, related: [], superseded_by: undefined });
}

function ordersOnRemote(): Map<string, number> {
  const out = new Map<string, number>();
  for (const file of git(remoteDir, "ls-tree", "--name-only", "refs/heads/main", "notes/").split("\n")) {
    const order = /^order: (\d+)$/m.exec(git(remoteDir, "show", `refs/heads/main:${file}`))?.[1];
    if (order) out.set(file.replace(/^notes\/|\.md$/g, ""), Number(order));
  }
  return out;
}

beforeAll(async () => {
  root = tempDir("studio-remote");
  fs.mkdirSync(path.join(root, "repos"));
  remoteDir = path.join(root, "repos", "content.git");
  git(root, "init", "--bare", "-q", "-b", "main", remoteDir);
  server = await startGitServer({ root: path.join(root, "repos"), user: USER, password: PASSWORD });
  process.env.CONTENT_REMOTE = `${server.origin}/content.git`;
  process.env.CONTENT_REMOTE_USER = USER;
  process.env.CONTENT_REMOTE_TOKEN = PASSWORD;
  process.env.CONTENT_POLL_SECONDS = "3600";
  delete process.env.ACCOUNTS_REMOTE;
  resetRemoteConfig();
  f = await studioFixture();
  // This instance starts first and gives the empty remote the seed; the other clones it.
  await getContentStore();
  const namespaces = ["refs/heads/", "refs/reviews/", "refs/approved/", "refs/discarded/"];
  other = await openMirror(path.join(root, "other.git"), {
    remote: { url: `${server.origin}/content.git`, user: USER, token: PASSWORD, namespaces },
    seedDir: null,
    label: "the other instance",
    pollSeconds: 3600,
    parse: parseNote,
  });
}, 60_000);

afterAll(async () => {
  process.env = saved;
  resetRemoteConfig();
  await server?.stop();
  f?.cleanup();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("a write catches up with the remote ref it moves", () => {
  it("a note the other instance created a moment ago is saved here (not a 404), from its newest revision (not a 409 showing an older one)", async () => {
    await other.remote!.sync();
    const main = (await other.resolve("refs/heads/main"))!;
    const id = "AFN-060";
    const created = await other.commit({
      ref: `refs/heads/drafts/${id}`,
      expected: null,
      parent: main,
      author: ada,
      message: `${id}: new note`,
      changes: { [`notes/${id}.md`]: noteText(id, 60) },
    });
    const edited = await other.commit({
      ref: `refs/heads/drafts/${id}`,
      expected: created.commit,
      author: ada,
      message: `${id}: edit title`,
      changes: { [`notes/${id}.md`]: noteText(id, 60, "Edited on the other instance") },
    });
    // This instance has not polled: its studio sees the draft only if the save catches up first.
    const saved = await api.save(f.author, id, { revision: edited.commit, note: noteFields("Saved here from the newest revision") });
    expect(saved.status, JSON.stringify(saved.body).slice(0, 400)).toBe(200);
    expect(onRemote(`refs/heads/drafts/${id}^`)).toBe(edited.commit);
  });
});

describe("two instances publishing new notes at once", () => {
  it("each takes its own editorial order, decided on the tip its commit lands on", async () => {
    const created = await api.create(f.author);
    const id = created.body.id as string;
    const filled = await api.save(f.author, id, { revision: created.body.revision, note: noteFields("Published here") });
    const proposed = await api.transition(f.author, id, { to: "hypothesis", revision: filled.body.revision });
    expect(proposed.status).toBe(200);

    // The other instance publishes its own new note just before this instance's push reaches the remote.
    const store = await getContentStore();
    const link = store.remote!;
    const push = link.push;
    let theirs: { id: string; order: number } | null = null;
    link.push = async (ref, expected, next, moveLocal) => {
      if (ref === "refs/heads/main" && !theirs) {
        await other.remote!.sync();
        const main = (await other.resolve("refs/heads/main"))!;
        const order = Math.max(...[...(await other.snapshot(main)).notes].flatMap((n) => (n.ok ? [n.note.order] : []))) + 1;
        theirs = { id: "AFN-070", order };
        await other.commit({
          ref: "refs/heads/main",
          expected: main,
          author: ada,
          message: "Publish AFN-070",
          changes: { "notes/AFN-070.md": noteText("AFN-070", order) },
        });
      }
      return push(ref, expected, next, moveLocal);
    };
    try {
      const published = await api.publish(f.author, id, { revision: proposed.body.revision });
      expect(published.status, JSON.stringify(published.body).slice(0, 400)).toBe(200);
    } finally {
      link.push = push;
    }
    const orders = ordersOnRemote();
    expect(theirs).not.toBeNull();
    expect(orders.get("AFN-070")).toBe(theirs!.order);
    expect(orders.get(id)).toBe(theirs!.order + 1);
    expect(new Set(orders.values()).size).toBe(orders.size);
  });
});
