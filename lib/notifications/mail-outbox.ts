import "server-only";
import fs from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import nodemailer, { type Transporter } from "nodemailer";
import { config } from "@/lib/env";
import { allNotifications } from "./notifications";
import { mailSettingsOf, personSettings } from "./person-settings";
import type { Notification } from "./derive";

/**
 * Notifications by mail (with SMTP_URL), through a durable outbox: the instance that made a write
 * puts one file per mail under DATA_DIR/outbox/ (written to a temporary name and renamed, so a
 * crash leaves a whole file or none), and a sender in the same process delivers the files that are
 * due, deleting each once the SMTP server took it. A failure (server down, refused) keeps the file
 * with its attempts, last error and next try, backing off from 30 s to an hour; after
 * MAX_ATTEMPTS it moves to outbox/failed/. So a save or a publish never waits on the SMTP server,
 * and a restart or an outage loses no mail (the sender starts with the server, instrumentation.ts).
 *
 * Only the instance that made the write queues its mail (each instance has its own DATA_DIR), so a
 * site of several instances sends each mail once.
 */

export type OutboxMail = {
  id: string;
  to: string;
  subject: string;
  text: string;
  /** The notification: kind, its id and the person. */
  about: { kind: Notification["kind"]; id: string; person: string };
  queued: string;
  attempts: number;
  nextAt: string;
  lastError?: string;
};

export const MAX_ATTEMPTS = 12;
const FIRST_DELAY_MS = 30_000;
const MAX_DELAY_MS = 3_600_000;
const TICK_MS = 15_000;

const outboxDir = () => path.join(config().dataDir, "outbox");

/** The delay before the next try after `attempts` failed ones: 30 s, 1 min, 2 min, … at most an hour. */
export const retryDelay = (attempts: number) => Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, attempts - 1));

/** The mail of one notification, as plain text. */
export function mailOf(n: Notification, origin: string): { subject: string; text: string } {
  const lines = [
    n.text,
    ...(n.excerpt ? ["", `“${n.excerpt}”`] : []),
    "",
    `Open it: ${origin}${n.href}`,
    "",
    "—",
    `Your notifications: ${origin}/studio/notifications`,
  ];
  lines.push(`Choose what is mailed to you: ${origin}/studio/notifications/settings`);
  return { subject: `[Field Notes] ${n.text}`, text: `${lines.join("\n")}\n` };
}

/**
 * Queue the mail of the notifications one write gave (named by its record id or the publish
 * commit's 12 hex digits), for each person with an address who did not turn that kind off. Never
 * throws: mail must not fail a write (a problem is logged).
 */
export async function queueMailFor(eventId: string, origin: string): Promise<number> {
  const mail = config().mail;
  if (!mail) return 0;
  try {
    const concerned = (await allNotifications()).filter((n) => n.id === eventId);
    let queued = 0;
    for (const n of concerned) {
      const settings = mailSettingsOf(await personSettings(n.to));
      if (!settings.email || settings.off.includes(n.kind)) continue;
      const now = new Date().toISOString();
      await writeMail({
        id: `${now.replace(/[-:.]/g, "")}-${randomBytes(4).toString("hex")}`,
        to: settings.email,
        ...mailOf(n, origin),
        about: { kind: n.kind, id: n.id, person: n.to },
        queued: now,
        attempts: 0,
        nextAt: now,
      });
      queued++;
    }
    if (queued) kick();
    return queued;
  } catch (e) {
    console.error(`notification mail for ${eventId} was not queued: ${(e as Error).message}`);
    return 0;
  }
}

async function writeMail(m: OutboxMail, dir = outboxDir()): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${m.id}.json`);
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, `${JSON.stringify(m, null, 2)}\n`, { mode: 0o600 });
  await fs.rename(tmp, file);
}

/** The mails waiting in the outbox, oldest first. */
export async function outbox(): Promise<OutboxMail[]> {
  const dir = outboxDir();
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const mails = await Promise.all(
    names
      .filter((n) => n.endsWith(".json"))
      .sort()
      .map((n) =>
        fs
          .readFile(path.join(dir, n), "utf8")
          .then((t) => JSON.parse(t) as OutboxMail)
          .catch(() => null),
      ),
  );
  return mails.filter((m): m is OutboxMail => m !== null);
}

let transport: { url: string; transporter: Transporter } | null = null;
function transporter(url: string): Transporter {
  if (transport?.url !== url)
    transport = { url, transporter: nodemailer.createTransport(url, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 }) };
  return transport.transporter;
}

let sending: Promise<void> | null = null;

/** Deliver every mail that is due at `now` (one pass; a pass already running is joined, not doubled). */
export function deliverOutbox(now = Date.now()): Promise<void> {
  sending ??= deliver(now).finally(() => {
    sending = null;
  });
  return sending;
}

async function deliver(now: number): Promise<void> {
  const mail = config().mail;
  if (!mail) return;
  const dir = outboxDir();
  for (const m of await outbox()) {
    if (Date.parse(m.nextAt) > now) continue;
    const file = path.join(dir, `${m.id}.json`);
    try {
      await transporter(mail.smtpUrl).sendMail({ from: mail.from, to: m.to, subject: m.subject, text: m.text });
      await fs.rm(file, { force: true });
    } catch (e) {
      const attempts = m.attempts + 1;
      const failed = { ...m, attempts, lastError: (e as Error).message.slice(0, 500), nextAt: new Date(Date.now() + retryDelay(attempts)).toISOString() };
      if (attempts >= MAX_ATTEMPTS) {
        await writeMail(failed, path.join(dir, "failed"));
        await fs.rm(file, { force: true });
        console.error(`notification mail ${m.id} to ${m.to} given up after ${attempts} attempts: ${failed.lastError}`);
      } else {
        await writeMail(failed, dir);
        console.warn(`notification mail ${m.id} not sent (attempt ${attempts}, next at ${failed.nextAt}): ${failed.lastError}`);
      }
    }
  }
}

let timer: NodeJS.Timeout | null = null;

/** Deliver soon (after a write queued mail), without waiting for the next tick. */
function kick() {
  startMailer();
  setImmediate(() => void deliverOutbox().catch(() => undefined));
}

/** Start the sender: a pass every 15 s over the outbox (what a restart left, what failed before). */
export function startMailer(): void {
  if (timer || !config().mail) return;
  timer = setInterval(() => void deliverOutbox().catch((e) => console.error(`notification mail: ${(e as Error).message}`)), TICK_MS);
  timer.unref();
  kick();
}

/** Stop the sender (tests). */
export function stopMailer(): void {
  if (timer) clearInterval(timer);
  timer = null;
}
