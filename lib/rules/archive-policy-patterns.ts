import { fenceStep } from "@/lib/notes/fences";
import type { PolicyRule } from "./archive-policy";

/**
 * The archive policy's own patterns: personal contact details, local paths, network addresses,
 * private URLs and pasted conversations. Each finder returns offsets into the text it was given.
 * They are written against the words architecture notes really use ("I/O", "tokenizer.json",
 * "Qwen3.8-Flash-Next", "12:30", "https://example.org/docs"), which must never match.
 */

export type PolicyHit = { rule: PolicyRule; start: number; end: number; message: string; excerpt: string };

const EXCERPT_MAX = 80;

function hit(rule: PolicyRule, start: number, matched: string, message: string): PolicyHit {
  const excerpt = matched.length > EXCERPT_MAX ? `${matched.slice(0, EXCERPT_MAX - 1)}…` : matched;
  return { rule, start, end: start + matched.length, message, excerpt };
}

/** Sentence punctuation after a path or URL belongs to the sentence. */
function trimTrailing(s: string): string {
  return s.replace(/[.,:;!?]+$/, "");
}

// ---- e-mail -----------------------------------------------------------------------------------

const EMAIL_MESSAGE =
  "e-mail address: personal contact details are not public architecture; remove it or describe the role instead (the maintainer, the reviewer)";

const EMAIL = /(?<![\w.+%/-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![\w-])/g;

// The user:password part of a URL is a URL credential, reported as such, not an e-mail address.
const URL_AUTHORITY_SO_FAR = /[a-z][a-z0-9+.-]*:\/\/[^\s/?#@]*$/i;

export function findEmails(text: string): PolicyHit[] {
  return [...text.matchAll(EMAIL)]
    .filter((m) => !URL_AUTHORITY_SO_FAR.test(text.slice(Math.max(0, (m.index ?? 0) - 300), m.index)))
    .map((m) => hit("email", m.index ?? 0, m[0], EMAIL_MESSAGE));
}

// ---- local paths ------------------------------------------------------------------------------

const PATH_MESSAGE =
  'local file path: paths on a personal machine reveal user names and private layout; name the file by its role in the project instead (for example "the pinned tokenizer.json")';

const PATH_CHARS = String.raw`[^\s\`'"<>()\[\]{}|,;*]`;
const HOME_OR_TEMP = String.raw`(?:~|/(?:home|Users|root|tmp|var/folders|private/(?:tmp|var)|Volumes|mnt))/`;
// Home folders, temp folders and mounted volumes. A path must begin a word, so URL paths
// ("https://example.org/tmp/x") and slashes inside words ("I/O", "and/or", "N/A") never match.
const UNIX_PATH = new RegExp(String.raw`(?<![\w.~/\\-])${HOME_OR_TEMP}${PATH_CHARS}+`, "g");
const BARE_PREFIX = new RegExp(`^${HOME_OR_TEMP}$`);
// Any drive letter, either slash: C:\Users\…, D:/models/…
const WINDOWS_PATH = new RegExp(String.raw`(?<![\w/\\])[A-Za-z]:[\\/]${PATH_CHARS}+`, "g");
const UNC_PATH = new RegExp(String.raw`(?<![\w\\])\\\\[A-Za-z0-9._$-]+\\${PATH_CHARS}+`, "g");
const FILE_URL = new RegExp(String.raw`\bfile://${PATH_CHARS}+`, "gi");

export function findLocalPaths(text: string): PolicyHit[] {
  const hits: PolicyHit[] = [];
  for (const pattern of [UNIX_PATH, WINDOWS_PATH, UNC_PATH, FILE_URL]) {
    for (const m of text.matchAll(pattern)) {
      const path = trimTrailing(m[0]);
      if (BARE_PREFIX.test(path)) continue; // "/tmp/." is a folder named in a sentence, not a path of anyone's
      hits.push(hit("local-path", m.index ?? 0, path, PATH_MESSAGE));
    }
  }
  // D:/Users/x is one path, not a Windows path with a Unix one inside it.
  return hits.filter((h) => !hits.some((o) => o !== h && o.start <= h.start && h.end <= o.end && o.end - o.start > h.end - h.start));
}

// ---- network addresses and private URLs -------------------------------------------------------

const ADDRESS_MESSAGE =
  "network address: IP addresses and local ports describe unpublished infrastructure; describe the role of the machine instead (the inference host, the cache node)";
const PRIVATE_URL_MESSAGE =
  "private URL: links to localhost, private networks or internal host names are unreachable for readers and reveal unpublished infrastructure; link a public page or describe the service instead";

const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
// Four dotted octets, not part of a longer dotted run ("1.2.3.4.5") and not glued to a word ("v1.2.3.4").
const IPV4 = new RegExp(String.raw`(?<![\w.])${OCTET}(?:\.${OCTET}){3}(?![\w]|\.\d)`, "g");
// Candidates only; URL() decides what is a real IPv6 address, so times (12:30, 12:30:45) and
// ratios (1:2:3) never pass.
const IPV6_CANDIDATE = /(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{1,4}|\d{1,3}(?:\.\d{1,3}){3})?(?![\w:])/g;
const LOCALHOST_PORT = /(?<![\w.-])localhost:\d{1,5}(?!\d)/gi;
const URL_PATTERN = /(?<![\w+.-])[a-z][a-z0-9+.-]*:\/\/[^\s<>"'`)\]]+(?:\][^\s<>"'`)]*)?/gi;

export function findNetworkAddresses(text: string): PolicyHit[] {
  const hits: PolicyHit[] = [];
  for (const m of text.matchAll(IPV4)) hits.push(hit("network-address", m.index ?? 0, m[0], ADDRESS_MESSAGE));
  for (const m of text.matchAll(IPV6_CANDIDATE)) {
    if (isIPv6(m[0])) hits.push(hit("network-address", m.index ?? 0, m[0], ADDRESS_MESSAGE));
  }
  for (const m of text.matchAll(LOCALHOST_PORT)) hits.push(hit("network-address", m.index ?? 0, m[0], ADDRESS_MESSAGE));
  for (const m of text.matchAll(URL_PATTERN)) {
    const url = trimTrailing(m[0]);
    if (/^file:/i.test(url)) continue; // a local path, reported as one
    const host = hostOf(url);
    if (host !== null && isPrivateHost(host)) hits.push(hit("private-url", m.index ?? 0, hidePassword(url), PRIVATE_URL_MESSAGE));
  }
  return hits;
}

function isIPv6(candidate: string): boolean {
  if (!/[0-9A-Fa-f]/.test(candidate)) return false; // a bare "::" is punctuation
  try {
    new URL(`http://[${candidate}]/`);
    return true;
  } catch {
    return false;
  }
}

function hostOf(url: string): string | null {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^\s/?#@]*@)?(\[[^\]\s]*\]|[^\s/?#:]*)/i.exec(url);
  return m?.[1] ? m[1].toLowerCase().replace(/\.$/, "") : null;
}

const PRIVATE_SUFFIXES = [".localhost", ".local", ".internal", ".lan", ".corp", ".intranet", ".localdomain", ".home.arpa"];

function isPrivateHost(host: string): boolean {
  if (host.startsWith("[")) return isPrivateIPv6(host.slice(1, -1));
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) return isPrivateIPv4(v4.slice(1).map(Number));
  if (host === "localhost" || PRIVATE_SUFFIXES.some((s) => host.endsWith(s))) return true;
  // A single-label name (http://buildbox:8080) only resolves inside someone's network.
  return !host.includes(".");
}

function isPrivateIPv4([a = 0, b = 0]: number[]): boolean {
  return (
    a === 0 || // this network, 0.0.0.0
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT, also used by overlay VPNs
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168)
  );
}

function isPrivateIPv6(address: string): boolean {
  let host: string;
  try {
    host = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return false;
  }
  return host === "::1" || host === "::" || /^f[cd][0-9a-f]{0,2}:/.test(host) || /^fe[89ab][0-9a-f]?:/.test(host);
}

function hidePassword(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:)[^\s/?#@]*@/i, "$1…@");
}

// ---- conversations and private prompts --------------------------------------------------------

const CONVERSATION_MESSAGE =
  "conversation: this reads as a pasted chat or prompt transcript; summarise what was decided instead, and show template syntax as `inline code` with placeholders";

/*
 * What counts as transcript structure, and what is architecture:
 * - A speaker turn is a line that begins (after optional "> " quote markers and ** or _ emphasis)
 *   with a speaker label and a colon: "User:", "**Assistant:**", "> human:". Counted inside code
 *   fences too, because pasted chats usually arrive in one. List items ("- User: …") are not turns:
 *   they are how a note explains message roles.
 * - A chat-template control token (<|im_start|>, [INST], <<SYS>>, <start_of_turn>, …) counts only
 *   outside inline code and code fences. Inside code it is template syntax being explained, which
 *   is exactly what notes about chat templates do.
 * - A field is flagged only when it has two or more such markers, and then every marker is reported.
 *   One line starting "System:" or one stray token in prose is not a conversation; prose that talks
 *   about "control tokens" or "the system message" never matches at all.
 */
const SPEAKER_TURN =
  /^[ \t]*(?:>[ \t]*)*(?:\*\*|__|\*|_)?(?:user|assistant|human|ai|system|system prompt|claude|chatgpt|gpt|gemini|copilot|bot|me)(?:\*\*|__|\*|_)?[ \t]*:(?:\*\*|__|\*|_)?(?=[ \t]|$)/i;
const CONTROL_TOKEN =
  /<\|(?:im_start|im_end|im_sep|endoftext|eot_id|start_header_id|end_header_id|begin_of_text|user|assistant|system|end)\|>|\[\/?INST\]|<<\/?SYS>>|<(?:start_of_turn|end_of_turn)>/g;
const INLINE_CODE = /(`+)(?:(?!\1)[^\n])+?\1(?!`)/g;

export function findConversation(text: string): PolicyHit[] {
  const markers: PolicyHit[] = [];
  let fence: string | null = null;
  let offset = 0;
  for (const line of text.split("\n")) {
    const step = fenceStep(fence, line);
    const inFence = fence !== null || step.isFence;
    fence = step.fence;
    const turn = SPEAKER_TURN.exec(line);
    if (turn) {
      const lead = turn[0].length - turn[0].trimStart().length;
      markers.push(hit("conversation", offset + lead, line.trim(), CONVERSATION_MESSAGE));
    } else if (!inFence) {
      const code = [...line.matchAll(INLINE_CODE)].map((m) => [m.index ?? 0, (m.index ?? 0) + m[0].length] as const);
      for (const m of line.matchAll(CONTROL_TOKEN)) {
        const at = m.index ?? 0;
        if (code.some(([s, e]) => at >= s && at < e)) continue;
        markers.push(hit("conversation", offset + at, line.slice(at).trim(), CONVERSATION_MESSAGE));
      }
    }
    offset += line.length + 1;
  }
  return markers.length >= 2 ? markers : [];
}
