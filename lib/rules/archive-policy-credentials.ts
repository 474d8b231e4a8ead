import { lintSource } from "@secretlint/core";
import { secretLintProfiler } from "@secretlint/profiler";
import { rules as recommendedRules } from "@secretlint/secretlint-rule-preset-recommend";
import type { PolicyHit } from "./archive-policy-patterns";

/**
 * Credentials and private keys: secretlint's recommended rule set is the rule set. Three extra
 * patterns cover what it genuinely does not look for in prose: a `password: …` / `api_key=…`
 * assignment, an `Authorization: Bearer …` value, and a user-and-password URL that secretlint's
 * basic-auth pattern lets through (a host name without a dot, a password with % or !).
 */

// secretlint 11's profiler records a performance mark per rule per lint and scans every recorded
// mark on each new one, so a long-running server slows down quadratically and never frees them
// (secretlint/secretlint#1633; upstream later made profiling opt-in, #1673). We never read the
// profile, so marks are switched off for this process. This only works on the module instance
// @secretlint/core marks on: next.config.ts keeps both packages external, so the server bundle
// does not get a copy of its own (issue 14, finding 2).
secretLintProfiler.mark = () => {};

// If a second copy ever comes back (a bundler change, a duplicate install), core's marks reach the
// process's performance timeline: say so once, loudly, instead of slowing down without a trace.
let copyChecked = false;
function checkOneProfilerCopy() {
  if (copyChecked) return;
  copyChecked = true;
  if (performance.getEntriesByType("mark").some((m) => m.name.startsWith("@core>"))) {
    console.error(
      "credential scan: @secretlint/core is recording profiler marks on a copy of @secretlint/profiler this module did not switch off; every scan will be slower than the last. Keep @secretlint/profiler in serverExternalPackages (next.config.ts).",
    );
  }
}

type LintConfig = Parameters<typeof lintSource>[0]["options"]["config"];

// The preset's rules, listed one by one: secretlint 11 ignores `disabled` for a rule inside a preset,
// and one of them must be off. Everything else is the recommended set as shipped.
const FILTER_COMMENTS = "@secretlint/secretlint-rule-filter-comments";
const config: LintConfig = {
  rules: recommendedRules
    // A "secretlint-disable" comment inside a note must not switch the policy off.
    .filter((rule) => rule.meta.id !== FILTER_COMMENTS)
    .map((rule) => ({
      id: rule.meta.id,
      rule,
      // Access key IDs (AKIA…) are only reported when asked for; a published key ID is account data.
      options: rule.meta.id === "@secretlint/secretlint-rule-aws" ? { enableIDScanRule: true } : {},
    })),
};

/** What each secretlint rule finds, in words a writer recognises. */
const FOUND: Record<string, string> = {
  "@secretlint/secretlint-rule-aws": "AWS access key",
  "@secretlint/secretlint-rule-gcp": "Google Cloud service-account key",
  "@secretlint/secretlint-rule-npm": "npm token",
  "@secretlint/secretlint-rule-slack": "Slack token or webhook",
  "@secretlint/secretlint-rule-basicauth": "user name and password in a URL",
  "@secretlint/secretlint-rule-openai": "OpenAI API key",
  "@secretlint/secretlint-rule-anthropic": "Anthropic API key",
  "@secretlint/secretlint-rule-linear": "Linear API token",
  "@secretlint/secretlint-rule-sendgrid": "SendGrid API key",
  "@secretlint/secretlint-rule-shopify": "Shopify token",
  "@secretlint/secretlint-rule-github": "GitHub token",
  "@secretlint/secretlint-rule-1password": "1Password service-account token",
  "@secretlint/secretlint-rule-database-connection-string": "database connection string with a password",
};
const PRIVATE_KEY_RULE = "@secretlint/secretlint-rule-privatekey";

export function credentialMessage(what: string): string {
  return `${what}: credentials are never public architecture, even expired ones; delete it (and revoke it if it was ever real), or write a placeholder such as <token>`;
}

const PRIVATE_KEY_MESSAGE =
  "private key: a key block proves an identity and cannot be published; delete the block (and replace the key if it was ever real), or name the key's role instead";

/** Keep at most four characters, and never more than a quarter of the secret. */
export function maskSecret(secret: string): string {
  const keep = Math.min(4, Math.floor(secret.length / 4));
  return `${secret.slice(0, keep)}…`;
}

/** A URL keeps its shape with the password hidden, so the writer can find it; anything else is masked. */
function excerptOf(matched: string): string {
  const url = /^([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:)[^\s/?#@]*(@[^\s/?#]*)/i.exec(matched);
  return url ? `${url[1]}…${url[2]}` : maskSecret(matched);
}

export async function findCredentials(text: string): Promise<PolicyHit[]> {
  const hits = [...(await secretlintHits(text))];
  for (const extra of extraHits(text)) {
    // secretlint's finding wins where both saw the same secret.
    if (!hits.some((h) => extra.start < h.end && h.start < extra.end)) hits.push(extra);
  }
  return hits;
}

async function secretlintHits(text: string): Promise<PolicyHit[]> {
  try {
    const result = await lintSource({
      // ".md" keeps file-type rules (package.json, .npmrc, .p12) from assuming a file they cannot read.
      source: { content: text, filePath: "note.md", ext: ".md", contentType: "text" },
      options: { config, maskSecrets: true, noPhysicFilePath: true },
    });
    checkOneProfilerCopy();
    return result.messages.map((m) => {
      const [start, end] = m.range;
      const matched = text.slice(start, end);
      if (m.ruleId === PRIVATE_KEY_RULE) {
        const header = matched.split("\n")[0] ?? "";
        return { rule: "private-key", start, end, message: PRIVATE_KEY_MESSAGE, excerpt: `${header}…` };
      }
      const what = FOUND[m.ruleId] ?? "credential";
      return { rule: "credential", start, end, message: credentialMessage(what), excerpt: excerptOf(matched) };
    });
  } catch (e) {
    // Fail closed: a text we could not check for secrets is not cleared for publishing.
    const reason = e instanceof Error ? e.message : String(e);
    const message = `the credential scan could not run on this text (${reason}); it cannot be published until it can`;
    return [{ rule: "credential", start: 0, end: 0, message, excerpt: "" }];
  }
}

// Placeholders a writer uses to show a shape without a secret: <token>, ${TOKEN}, {{key}}, ***, xxxx, …
const PLACEHOLDER = /^(?:<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\}|\$[A-Z_][A-Z0-9_]*|[*x.…•-]+|redacted|\[redacted\])$/i;

// A reference to where the secret lives (config.secret, process.env.API_KEY, keys[0]) is not the secret.
const CODE_REFERENCE = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[[^\]]*\]|\(\))+$/;

/** A real secret has a digit or a symbol; words ("required", "none", "apiKey") are prose or code. */
function looksLikeSecret(value: string): boolean {
  if (PLACEHOLDER.test(value) || CODE_REFERENCE.test(value)) return false;
  return /[0-9]/.test(value) || /[^A-Za-z0-9]/.test(value);
}

const ASSIGNMENT =
  /(?<![\w-])(?:password|passwd|passphrase|api[_-]?key|api[_-]?token|access[_-]?token|auth[_-]?token|secret[_-]?key|client[_-]?secret|secret)["']?[ \t]*[:=][ \t]*["']?([^\s"'`,;()[\]{}<>]{6,})/gi;
const BEARER = /(?<![\w-])Bearer[ \t]+([A-Za-z0-9._~+/-]{16,}=*)/g;
// The scheme must start a word; without the look-behind, "a.a.a.…" is scanned from every dot (quadratic).
const URL_USERINFO = /(?<![\w+.-])[a-z][a-z0-9+.-]*:\/\/([^\s/?#@:]+):([^\s/?#@]+)@[^\s/?#]+/gi;

function extraHits(text: string): PolicyHit[] {
  const hits: PolicyHit[] = [];
  for (const m of text.matchAll(ASSIGNMENT)) {
    const value = m[1] ?? "";
    if (!looksLikeSecret(value)) continue;
    const start = (m.index ?? 0) + m[0].length - value.length;
    hits.push({ rule: "credential", start, end: start + value.length, message: credentialMessage("password or key assignment"), excerpt: maskSecret(value) });
  }
  for (const m of text.matchAll(BEARER)) {
    const value = m[1] ?? "";
    const start = (m.index ?? 0) + m[0].length - value.length;
    hits.push({ rule: "credential", start, end: start + value.length, message: credentialMessage("bearer token"), excerpt: maskSecret(value) });
  }
  for (const m of text.matchAll(URL_USERINFO)) {
    const password = m[2] ?? "";
    if (PLACEHOLDER.test(password)) continue;
    const start = m.index ?? 0;
    hits.push({ rule: "credential", start, end: start + m[0].length, message: credentialMessage("user name and password in a URL"), excerpt: excerptOf(m[0]) });
  }
  return hits;
}
