import fs from "node:fs";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/env";
import { deliverOutbox, outbox, stopMailer } from "@/lib/notifications/mail-outbox";
import { answer, BASE, noteFields, params, request, studioFixture, type Caller, type Json } from "@/lib/testing/studio";
import * as list from "./notes/route";
import * as one from "./notes/[id]/route";
import * as transitions from "./notes/[id]/transitions/route";
import * as requests from "./notes/[id]/review-requests/route";
import * as settings from "./notifications/settings/route";

/**
 * Notification mail against a real SMTP server started here (the smtp-server package on loopback):
 * a review request reaches the reviewer's address with a link to the review page; a kind turned
 * off is not mailed; with the SMTP server down the request is answered as before, the mail waits
 * in the outbox with its failed attempt, and is delivered once the server is back.
 */

type Received = { to: string[]; raw: string };
const received: Received[] = [];
let smtp: SMTPServer;
let port = 0;
let f: Awaited<ReturnType<typeof studioFixture>>;

function startSmtp(at = 0): Promise<number> {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (c: Buffer) => (raw += c.toString("utf8")));
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  return new Promise((resolve) => smtp.listen(at, "127.0.0.1", () => resolve((smtp.server.address() as AddressInfo).port)));
}
const stopSmtp = () => new Promise<void>((resolve) => smtp.close(() => resolve()));

/** Wait (up to 10 s) until `check` holds. */
async function until(check: () => boolean | Promise<boolean>, what: string) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > 10_000) throw new Error(`waited 10 s for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  port = await startSmtp();
  f = await studioFixture();
  process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
  process.env.MAIL_FROM = "Field Notes <notes@studio.test>";
  resetConfig();
  for (const [caller, email, off] of [
    [f.reviewer, "rita@mail.test", []],
    [f.secondReviewer, "sam@mail.test", ["review-request"]],
  ] as [Caller, string, string[]][]) {
    const saved = await answer(await settings.PUT(request(caller, "PUT", "/api/studio/notifications/settings", { email, off }), params({})));
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  }
}, 60_000);

afterAll(async () => {
  stopMailer();
  await stopSmtp().catch(() => undefined);
  delete process.env.SMTP_URL;
  delete process.env.MAIL_FROM;
  resetConfig();
  f.cleanup();
});

async function proposed(title: string): Promise<{ id: string; revision: string }> {
  const created = await answer(await list.POST(request(f.author, "POST", "/api/studio/notes", { note: noteFields(title) }), params({})));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as string;
  const moved = await answer(
    await transitions.POST(
      request(f.author, "POST", `/api/studio/notes/${id}/transitions`, { to: "hypothesis", revision: created.body.revision }),
      params({ id }),
    ),
  );
  const opened = await answer(await one.GET(request(f.author, "GET", `/api/studio/notes/${id}`), params({ id })));
  expect(moved.status).toBe(200);
  return { id, revision: opened.body.noteRevision as string };
}

const ask = async (id: string, revision: string, reviewers: string[]): Promise<{ status: number; body: Json; ms: number }> => {
  const started = performance.now();
  const res = await answer(await requests.POST(request(f.author, "POST", `/api/studio/notes/${id}/review-requests`, { revision, reviewers }), params({ id })));
  return { ...res, ms: performance.now() - started };
};

/** A mail's body with quoted-printable soft line breaks undone. */
const bodyOf = (raw: string) => raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");

describe("notification mail", () => {
  it("a review request reaches the named reviewer's address, with a link to the review page; a kind turned off is not mailed", async () => {
    const { id, revision } = await proposed("Mailed to the reviewer");
    expect((await ask(id, revision, ["rita", "sam"])).status).toBe(201);
    await until(() => received.some((m) => m.to.includes("rita@mail.test")), "rita's mail");
    const mail = received.find((m) => m.to.includes("rita@mail.test"))!;
    expect(mail.raw).toMatch(/^From: Field Notes <notes@studio\.test>/m);
    expect(mail.raw).toMatch(/^Subject: \[Field Notes\] ada asks you to review/m);
    expect(bodyOf(mail.raw)).toContain(`${BASE}/studio/notes/${id}/review`);
    await until(async () => (await outbox()).length === 0, "an empty outbox");
    // sam turned review requests off.
    expect(received.filter((m) => m.to.includes("sam@mail.test"))).toEqual([]);
  });

  it("with the SMTP server down the request is answered as before and the mail waits; once the server is back it is delivered", async () => {
    await stopSmtp();
    received.length = 0;
    const { id, revision } = await proposed("Mailed after an outage");
    const asked = await ask(id, revision, ["rita"]);
    expect(asked.status).toBe(201);
    expect(asked.ms, "the request does not wait on the SMTP server").toBeLessThan(5_000);

    // The first delivery fails: the mail stays, with its attempt, its error and a later try.
    await until(async () => (await outbox()).some((m) => m.attempts >= 1), "a failed attempt");
    const [waiting] = await outbox();
    expect(waiting).toMatchObject({
      to: "rita@mail.test",
      about: { kind: "review-request", person: "rita" },
      attempts: 1,
      lastError: expect.stringMatching(/ECONNREFUSED|connect/i),
    });
    expect(Date.parse(waiting!.nextAt)).toBeGreaterThan(Date.now() + 20_000);
    expect(fs.readdirSync(path.join(f.dataDir, "outbox")).filter((n) => n.endsWith(".json"))).toHaveLength(1);

    // The server comes back; the next pass at the retry time delivers it, and the outbox empties.
    await startSmtp(port);
    await deliverOutbox(Date.parse(waiting!.nextAt) + 1);
    expect(received).toHaveLength(1);
    expect(received[0]!.to).toEqual(["rita@mail.test"]);
    expect(bodyOf(received[0]!.raw)).toContain(`${BASE}/studio/notes/${id}/review`);
    expect(await outbox()).toEqual([]);
  });
});
