import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptedMain } from "@/lib/content/accepted-main";
import { resetConfig } from "@/lib/env";
import { announceMainMoves } from "@/lib/events/announce-main";
import { getContentStore } from "@/lib/working-copy/content-store";
import { answer, noteFields, params, request, studioFixture, type Caller, type Json } from "@/lib/testing/studio";
import { acceptedNoteFile, commitWithGit } from "@/lib/testing/plain-git";
import { webhookReceiver, type Received } from "@/lib/testing/webhook-receiver";
import { closeWebhookOutbox, openWebhookOutbox, webhookOutbox } from "@/lib/webhooks";
import { noteFile } from "@/lib/store/testing";
import * as notes from "./notes/route";
import * as transitions from "./notes/[id]/transitions/route";
import * as publish from "./notes/[id]/publish/route";
import * as rename from "./phases/[slug]/rename/route";

/**
 * Events of commits the app did not make: a plain-git push to main is announced from its diff,
 * through the studio's own webhook queue, to a real receiver on loopback; once, across a restart,
 * never for a refused commit, and never twice for the studio's own publish.
 */

const SECRET = "a secret for main's events";
const BACKOFF = { firstMs: 300, maxMs: 1_200, giveUpAfterMs: 10 * 60_000 };

let f: Awaited<ReturnType<typeof studioFixture>>;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;

beforeAll(async () => {
  receiver = await webhookReceiver(SECRET);
  process.env.WEBHOOK_URLS = receiver.url;
  process.env.WEBHOOK_SECRET = SECRET;
  f = await studioFixture();
  await openWebhookOutbox({ backoff: BACKOFF, timeoutMs: 4_000 });
});
afterAll(async () => {
  await closeWebhookOutbox();
  await receiver.stop();
  delete process.env.WEBHOOK_URLS;
  delete process.env.WEBHOOK_SECRET;
  f.cleanup();
});

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
const git = (...args: string[]) => execFileSync("git", ["--git-dir", f.gitdir, ...args], { encoding: "utf8" }).trim();
/** Every event queued so far (the outbox's log, oldest first): what the receiver will get. */
const queued = async () => (await (await webhookOutbox()).deliveries()).reverse().map((d) => JSON.parse(d.body) as Json);
const about = (id: string) => (r: Received) => (r.json.note as Json)?.id === id;

/** The seed's AFN-021 (a published hypothesis) retracted, as someone would write it by hand. */
function retracted(): string {
  const text = fs.readFileSync(path.resolve("content/notes/AFN-021.md"), "utf8");
  return text.replace(/^status: hypothesis$/m, "status: retracted\nretraction_reason: The replay traces did not predict the router's choices.");
}

describe("events of main's commits the app did not make", () => {
  it("a first start announces nothing old; a plain-git commit that publishes one note and retracts another is told once, signed, and not again after a restart", async () => {
    expect(await announceMainMoves()).toMatchObject({ kind: "started" });
    expect(await queued()).toEqual([]);

    commitWithGit(f.gitdir, { "notes/AFN-940.md": acceptedNoteFile("AFN-940", "Published with plain git."), "notes/AFN-021.md": retracted() });
    const pushed = git("rev-parse", "refs/heads/main");
    expect(await announceMainMoves()).toMatchObject({ kind: "announced", to: pushed, events: 2 });

    const got = await receiver.waitFor(2);
    // One commit: its events in the order of the notes' ids.
    expect(got.map((r) => [r.json.type, (r.json.note as Json).id])).toEqual([
      ["note.status_changed", "AFN-021"],
      ["note.published", "AFN-940"],
    ]);
    for (const r of got) {
      expect(r.signed, `${r.json.type} is signed`).toBe(true);
      expect(r.json).toMatchObject({ revision: pushed, actor: { id: "a@example.org", name: "Agent" } });
    }
    const changed = got.find(about("AFN-021"))!.json as Json;
    expect(changed).toMatchObject({ from: "hypothesis", to: "retracted", reason: "The replay traces did not predict the router's choices." });
    const published = got.find(about("AFN-940"))!.json as Json;
    expect(published).toMatchObject({ first_time: true, url: "http://studio.test/notes/AFN-940" });

    // A restart: the queue closed and opened again, the catch-up run again; the marker says it is done.
    await closeWebhookOutbox();
    await openWebhookOutbox({ backoff: BACKOFF, timeoutMs: 4_000 });
    expect(await announceMainMoves()).toBeNull();
    expect((await queued()).length).toBe(2);
  });

  it("a refused plain-git commit (a verified note nobody approved) is not served, so not announced", async () => {
    const before = (await queued()).length;
    commitWithGit(f.gitdir, { "notes/AFN-941.md": noteFile("AFN-941", "Verified by nobody.", { phase: "6 architecture" }) });
    const store = await getContentStore();
    const tip = git("rev-parse", "refs/heads/main");
    expect((await acceptedMain(store, tip)).refusal).toMatchObject({ commit: tip, rule: "review" });
    expect(await announceMainMoves()).toBeNull();
    expect((await queued()).length).toBe(before);
    // Put right by the next commit (the note as a hypothesis), main is served again and the range told by its diff: one note published.
    commitWithGit(f.gitdir, { "notes/AFN-941.md": acceptedNoteFile("AFN-941", "A hypothesis after all.") });
    expect(await announceMainMoves()).toMatchObject({ kind: "announced", events: 1 });
    expect((await queued()).slice(before)).toMatchObject([{ type: "note.published", first_time: true, note: { id: "AFN-941", status: "hypothesis" } }]);
  });

  it("a studio publish is delivered once, by the studio, and the catch-up after it finds nothing to tell", async () => {
    const created = ok(await api.create(f.author, { note: noteFields("Published in the studio") }), 201);
    const proposed = ok(await api.transition(f.author, created.id, { to: "hypothesis", revision: created.revision }));
    const before = (await queued()).filter((e) => e.note?.id === created.id && e.type === "note.published").length;
    ok(await api.publish(f.author, created.id, { revision: proposed.revision }));
    expect(await announceMainMoves()).toBeNull();
    const told = (await queued()).filter((e) => e.note?.id === created.id && e.type === "note.published");
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ actor: { id: "ada" }, revision: git("rev-parse", "refs/heads/main") });
    expect(before).toBe(0);
    await receiver.waitFor(1, (r) => r.json.type === "note.published" && about(created.id)(r));
  });

  it("a phase renamed in the studio is claimed as told: the catch-up after it finds nothing, and the next publish is the studio's to tell", async () => {
    await announceMainMoves(); // the marker at main, whatever ran before
    const slug = "8-11-performance-architecture";
    ok(await rename.POST(request(f.author, "POST", `/api/studio/phases/${slug}/rename`, { name: "Performance, renamed" }), params({ slug })).then(answer));
    expect(await announceMainMoves()).toBeNull();
    const created = ok(await api.create(f.author, { note: noteFields("Published after a rename") }), 201);
    const proposed = ok(await api.transition(f.author, created.id, { to: "hypothesis", revision: created.revision }));
    ok(await api.publish(f.author, created.id, { revision: proposed.revision }));
    expect(await announceMainMoves()).toBeNull();
    expect((await queued()).filter((e) => e.note?.id === created.id && e.type === "note.published")).toHaveLength(1);
  });

  it("a studio publish on top of a plain-git commit not told yet is told once, with that commit, by the catch-up", async () => {
    const created = ok(await api.create(f.author, { note: noteFields("Published after a push") }), 201);
    const proposed = ok(await api.transition(f.author, created.id, { to: "hypothesis", revision: created.revision }));
    commitWithGit(f.gitdir, { "notes/AFN-980.md": acceptedNoteFile("AFN-980", "Pushed just before a studio publish.") });
    ok(await api.publish(f.author, created.id, { revision: proposed.revision }));
    // The studio could not claim its commit (the marker was behind it): nothing of it is queued yet.
    expect((await queued()).filter((e) => e.note?.id === created.id && e.type === "note.published")).toHaveLength(0);
    expect(await announceMainMoves()).toMatchObject({ kind: "announced", events: 2 });
    expect(await announceMainMoves()).toBeNull();
    const told = (await queued()).filter((e) => e.type === "note.published" && [created.id, "AFN-980"].includes(e.note?.id));
    expect(told.map((e) => e.note.id)).toEqual(["AFN-980", created.id]);
    expect(told[1]).toMatchObject({ actor: { id: "ada" }, revision: git("rev-parse", "refs/heads/main") });
  });

  it("the WebSub hub is told of every feed a plain-git commit changed, as after a studio publish", async () => {
    const pings: string[] = [];
    let told: () => void = () => undefined;
    const hub = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
        if (form.get("hub.mode") === "publish") pings.push(form.get("hub.url") ?? "");
        res.writeHead(204).end();
        told();
      });
    });
    await new Promise<void>((resolve) => hub.listen(0, "127.0.0.1", resolve));
    process.env.WEBSUB_HUB = `http://127.0.0.1:${(hub.address() as AddressInfo).port}/hub`;
    resetConfig();
    try {
      commitWithGit(f.gitdir, { "notes/AFN-995.md": acceptedNoteFile("AFN-995", "Pinged to the hub.") });
      const all = ["/feed.xml", "/feed.xml?status=hypothesis", "/tags/storage/feed.xml", "/phases/6-architecture/feed.xml"].map(
        (p) => `http://studio.test${p}`,
      );
      const arrived = new Promise<void>((resolve) => (told = () => pings.length >= all.length && resolve()));
      expect(await announceMainMoves()).toMatchObject({ kind: "announced", events: 1 });
      // A generous bound, only so that a missing ping fails with words rather than the test's timeout.
      const late = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`the hub got ${pings.length} of ${all.length} pings within 15 s`)), 15_000).unref(),
      );
      await Promise.race([arrived, late]);
      expect(pings.sort()).toEqual(all.sort());
    } finally {
      delete process.env.WEBSUB_HUB;
      resetConfig();
      hub.closeAllConnections();
      await new Promise((resolve) => hub.close(resolve));
    }
  });
});
