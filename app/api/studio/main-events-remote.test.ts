import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGitServer, type GitServer } from "@/e2e/support/git-server";
import { announceMainMoves } from "@/lib/events/announce-main";
import { parseNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";
import { openMirror, resetRemoteConfig } from "@/lib/store";
import { git, tempDir } from "@/lib/store/testing";
import type { ContentStore } from "@/lib/store/types";
import { acceptedNoteFile, commitWithGit } from "@/lib/testing/plain-git";
import { answer, noteFields, params, request, studioFixture, type Caller, type Json } from "@/lib/testing/studio";
import { webhookReceiver } from "@/lib/testing/webhook-receiver";
import { closeWebhookOutbox, openWebhookOutbox, webhookOutbox } from "@/lib/webhooks";
import { getContentStore } from "@/lib/working-copy/content-store";
import { CONTENT_NAMESPACES } from "@/lib/working-copy/layout";
import * as notes from "./notes/route";
import * as transitions from "./notes/[id]/transitions/route";
import * as publish from "./notes/[id]/publish/route";

/**
 * Two instances of one site on a git remote (git's own http-backend), each catching up with main's
 * moves: a plain-git push to the remote is announced by exactly one of them, and a studio publish
 * on one is announced by it alone. Both instances queue into this process's one outbox, so what it
 * holds is what the two would send together.
 */

const USER = "fn";
const PASSWORD = "main-events-remote-password";
const SECRET = "a secret for main's events on a remote";
const saved = { ...process.env };
let server: GitServer;
let root: string;
let remoteDir: string;
let f: Awaited<ReturnType<typeof studioFixture>>;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
let here: ContentStore<Note>;
let other: ContentStore<Note>;

const api = {
  create: (c: Caller, body: unknown) => notes.POST(request(c, "POST", "/api/studio/notes", body), params({})).then(answer),
  transition: (c: Caller, id: string, body: unknown) =>
    transitions.POST(request(c, "POST", `/api/studio/notes/${id}/transitions`, body), params({ id })).then(answer),
  publish: (c: Caller, id: string, body: unknown) => publish.POST(request(c, "POST", `/api/studio/notes/${id}/publish`, body), params({ id })).then(answer),
};
const ok = (r: { status: number; body: Json }, status = 200) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
};
const queued = async () => (await (await webhookOutbox()).deliveries()).reverse().map((d) => JSON.parse(d.body) as Json);
const onRemote = (rev: string) => git(remoteDir, "rev-parse", rev);
/** Both instances poll (a sync) and catch up at the same moment; what each did, sorted. */
const bothCatchUp = async () => {
  await Promise.all([here.remote!.sync(), other.remote!.sync()]);
  const moves = await Promise.all([announceMainMoves(here), announceMainMoves(other)]);
  return moves.map((m) => m?.kind ?? "nothing").sort();
};

beforeAll(async () => {
  root = tempDir("main-events-remote");
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
  receiver = await webhookReceiver(SECRET);
  process.env.WEBHOOK_URLS = receiver.url;
  process.env.WEBHOOK_SECRET = SECRET;
  f = await studioFixture();
  await openWebhookOutbox({ backoff: { firstMs: 300, maxMs: 1_200, giveUpAfterMs: 600_000 }, timeoutMs: 4_000 });
  // This instance gives the empty remote the seed; the other clones it.
  here = await getContentStore();
  other = await openMirror(path.join(root, "other.git"), {
    remote: { url: `${server.origin}/content.git`, user: USER, token: PASSWORD, namespaces: CONTENT_NAMESPACES },
    seedDir: null,
    label: "the other instance",
    pollSeconds: 3600,
    parse: parseNote,
  });
}, 60_000);

afterAll(async () => {
  await closeWebhookOutbox();
  await receiver?.stop();
  process.env = saved;
  resetRemoteConfig();
  await server?.stop();
  f?.cleanup();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("main's events on two instances of one remote", () => {
  it("the marker starts once, at the remote's main, and travels with the content", async () => {
    // The one whose swap from nothing won starts it; the other finds it set (or loses the swap).
    expect(await bothCatchUp()).toContain("started");
    await Promise.all([here.remote!.sync(), other.remote!.sync()]);
    expect(onRemote("refs/announced/main")).toBe(onRemote("refs/heads/main"));
    expect(await other.resolve("refs/announced/main")).toBe(onRemote("refs/heads/main"));
    expect(await queued()).toEqual([]);
  });

  it("a plain-git push to the remote that publishes one note and retracts another is delivered once, by one instance", async () => {
    const retracted = fs
      .readFileSync(path.resolve("content/notes/AFN-021.md"), "utf8")
      .replace(/^status: hypothesis$/m, "status: retracted\nretraction_reason: Superseded by measurements on the remote.");
    commitWithGit(remoteDir, { "notes/AFN-950.md": acceptedNoteFile("AFN-950", "Pushed to the remote."), "notes/AFN-021.md": retracted });
    const pushed = onRemote("refs/heads/main");

    expect(await bothCatchUp()).toEqual(["announced", "lost"]);
    expect(await bothCatchUp()).toEqual(["nothing", "nothing"]);
    expect(onRemote("refs/announced/main")).toBe(pushed);
    const told = await queued();
    expect(told.map((e) => [e.type, e.note.id, e.revision])).toEqual([
      ["note.status_changed", "AFN-021", pushed],
      ["note.published", "AFN-950", pushed],
    ]);
    const got = await receiver.waitFor(2);
    expect(got.every((r) => r.signed)).toBe(true);
  });

  it("a studio publish on one instance is delivered once: the other finds it announced", async () => {
    const created = ok(await api.create(f.author, { note: noteFields("Published on one of two instances") }), 201);
    const proposed = ok(await api.transition(f.author, created.id, { to: "hypothesis", revision: created.revision }));
    ok(await api.publish(f.author, created.id, { revision: proposed.revision }));
    expect(onRemote("refs/announced/main")).toBe(onRemote("refs/heads/main"));
    expect(await bothCatchUp()).toEqual(["nothing", "nothing"]);
    const told = (await queued()).filter((e) => e.type === "note.published" && e.note.id === created.id);
    expect(told).toHaveLength(1);
    await receiver.waitFor(1, (r) => r.json.type === "note.published" && (r.json.note as Json).id === created.id);
  });
});
