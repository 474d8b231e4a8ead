import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The git host's webhook is signed with HMAC-SHA256 over the raw body, keyed by
 * CONTENT_WEBHOOK_SECRET: GitHub (and Forgejo, GitLab-compatible setups) send
 * `X-Hub-Signature-256: sha256=<hex>`, Gitea and Gogs `X-Gitea-Signature: <hex>` /
 * `X-Gogs-Signature: <hex>`. The comparison is timing-safe; anything else is refused.
 */

export type SignatureVerdict = { ok: true; header: string } | { ok: false; why: string };

const HEADERS: Array<{ name: string; prefix: string }> = [
  { name: "x-hub-signature-256", prefix: "sha256=" },
  { name: "x-gitea-signature", prefix: "" },
  { name: "x-gogs-signature", prefix: "" },
];

export function signBody(body: Uint8Array | string, secret: string): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}

export function verifyWebhook(body: Uint8Array | string, headers: Headers, secret: string | null): SignatureVerdict {
  if (!secret) return { ok: false, why: "webhooks are not accepted: CONTENT_WEBHOOK_SECRET is not set on this instance" };
  const present = HEADERS.filter((h) => headers.has(h.name));
  if (present.length === 0) return { ok: false, why: "the request is not signed: send X-Hub-Signature-256 (GitHub) or X-Gitea-Signature (Gitea)" };
  const want = Buffer.from(signBody(body, secret), "hex");
  for (const h of present) {
    const value = (headers.get(h.name) ?? "").trim();
    const hex = value.toLowerCase().startsWith(h.prefix) ? value.slice(h.prefix.length) : "";
    if (!/^[0-9a-f]{64}$/i.test(hex)) continue;
    const got = Buffer.from(hex, "hex");
    if (got.length === want.length && timingSafeEqual(got, want)) return { ok: true, header: h.name };
  }
  return { ok: false, why: `the signature in ${present.map((h) => h.name).join(", ")} does not match this body and CONTENT_WEBHOOK_SECRET` };
}
