import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { commitWithGit } from "./support/content-repo";
import { AUTHOR, ensureAccounts, newToken } from "./support/studio";

/**
 * A commit pushed to main with plain git is announced by the running server on its own (the
 * catch-up started at start, lib/events/announce-main.ts): a receiver an author subscribed in the
 * studio gets one signed `note.published` for it, without any request to the site. ID PFX-957 is
 * this file's own.
 */

const SECRET = "an e2e secret for main's events";
type Got = { type: string; note: { id: string } | null; revision: string; actor: { name: string }; signed: boolean };

test("a plain-git publish reaches a subscribed receiver once, signed, with no request to the site", async ({ request }) => {
  test.setTimeout(60_000);
  const got: Got[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const expected = Buffer.from(`sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`);
      const sent = Buffer.from(String(req.headers["x-hub-signature-256"] ?? ""));
      got.push({ ...JSON.parse(body.toString("utf8")), signed: sent.length === expected.length && timingSafeEqual(sent, expected) });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    ensureAccounts();
    const token = newToken(AUTHOR.name);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const subscribed = await request.post("/api/studio/webhooks", {
      headers: { authorization: `Bearer ${token}` },
      data: { url, secret: SECRET, events: ["note.published"] },
    });
    expect(subscribed.status(), await subscribed.text()).toBe(201);

    const id = "PFX-957";
    const note = [
      "---",
      `id: ${id}`,
      'title: "Told without a request"',
      'summary: "A note published with plain git that the server announces on its own."',
      "status: hypothesis",
      "boundaries: []",
      'phase: "6 architecture"',
      "tags: []",
      "order: 957",
      "related: []",
      "---",
      "",
      ...["Decision", "Invariant", "Rejected shortcut", "Evidence", "Claim boundary"].map((h) => `## ${h}\n\n${h} of ${id}.\n`),
    ].join("\n");
    const commit = commitWithGit({ [`notes/${id}.md`]: note }, { message: `Publish ${id} from plain git` });

    await expect.poll(() => got.filter((e) => e.note?.id === id).length, { timeout: 30_000 }).toBe(1);
    const [event] = got.filter((e) => e.note?.id === id);
    expect(event).toMatchObject({ type: "note.published", revision: commit, actor: { name: "Plain Git Agent" }, signed: true });
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
