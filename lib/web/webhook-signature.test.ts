import { describe, expect, it } from "vitest";
import { signBody, verifyWebhook } from "./webhook-signature";

const SECRET = "a-webhook-secret-of-some-length";
const body = JSON.stringify({ ref: "refs/heads/main", after: "0".repeat(40) });
const headers = (h: Record<string, string>) => new Headers(h);

describe("the webhook's signature (HMAC-SHA256 over the raw body)", () => {
  it("accepts GitHub's X-Hub-Signature-256 and Gitea's X-Gitea-Signature", () => {
    const sig = signBody(body, SECRET);
    expect(verifyWebhook(body, headers({ "x-hub-signature-256": `sha256=${sig}` }), SECRET)).toEqual({ ok: true, header: "x-hub-signature-256" });
    expect(verifyWebhook(body, headers({ "x-gitea-signature": sig }), SECRET)).toEqual({ ok: true, header: "x-gitea-signature" });
    expect(verifyWebhook(Buffer.from(body), headers({ "x-gitea-signature": sig.toUpperCase() }), SECRET).ok).toBe(true);
  });

  it("refuses an unsigned request, a wrong secret, a changed body and a malformed header", () => {
    expect(verifyWebhook(body, headers({}), SECRET)).toMatchObject({ ok: false, why: expect.stringMatching(/not signed/) });
    expect(verifyWebhook(body, headers({ "x-hub-signature-256": `sha256=${signBody(body, "another-secret-entirely")}` }), SECRET)).toMatchObject({
      ok: false,
      why: expect.stringMatching(/does not match/),
    });
    expect(verifyWebhook(`${body} `, headers({ "x-hub-signature-256": `sha256=${signBody(body, SECRET)}` }), SECRET).ok).toBe(false);
    expect(verifyWebhook(body, headers({ "x-hub-signature-256": signBody(body, SECRET) }), SECRET).ok).toBe(false); // GitHub's header needs "sha256="
    expect(verifyWebhook(body, headers({ "x-gitea-signature": "sha256=zz" }), SECRET).ok).toBe(false);
    expect(verifyWebhook(body, headers({ "x-gitea-signature": signBody(body, SECRET).slice(0, 62) }), SECRET).ok).toBe(false);
  });

  it("refuses everything while no secret is configured, however it is signed", () => {
    expect(verifyWebhook(body, headers({ "x-gitea-signature": signBody(body, "") }), null)).toMatchObject({
      ok: false,
      why: expect.stringMatching(/CONTENT_WEBHOOK_SECRET is not set/),
    });
  });
});
