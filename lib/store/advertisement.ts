import { DEFAULT_BRANCH } from "./default-branch";

/**
 * A remote's ref advertisement (`GET …/info/refs?service=git-upload-pack`, protocol v0/v1), as the
 * mirror needs it read.
 *
 * isomorphic-git's `fetch` resolves the remote's HEAD after every fetch, even when it was told which
 * ref to fetch, and throws "Could not find HEAD." when the remote lists no HEAD (isomorphic-git
 * issue #1654). A remote lists none when its HEAD names a branch that does not exist: the state a
 * repository created empty on a host whose default branch is "master" (or anything but "main") is
 * in once the app has pushed main to it, that is, after every first deployment on such a host.
 * git itself fetches from it without complaint; the mirror never reads the remote's HEAD. So before
 * isomorphic-git parses the advertisement, a remote that lists refs but no HEAD is said to have its
 * HEAD on the first ref it lists (main when it lists main); the fetch then gets what it was asked
 * for. That value only reaches isomorphic-git's own tracking refs, which nothing reads.
 */

type Line = { start: number; end: number; text: string | null };

/** Pkt-lines of `body`: each with its bytes' range and its payload (null for a flush). Null if malformed. */
function pktLines(body: Buffer): Line[] | null {
  const lines: Line[] = [];
  let at = 0;
  while (at < body.length) {
    if (at + 4 > body.length) return null;
    const len = Number.parseInt(body.toString("latin1", at, at + 4), 16);
    if (!Number.isInteger(len) || (len !== 0 && len < 4) || at + Math.max(len, 4) > body.length) return null;
    if (len === 0) {
      lines.push({ start: at, end: at + 4, text: null });
      at += 4;
    } else {
      lines.push({ start: at, end: at + len, text: body.toString("latin1", at + 4, at + len) });
      at += len;
    }
  }
  return lines;
}

const pkt = (payload: string) => {
  const bytes = Buffer.from(payload, "latin1");
  return Buffer.concat([Buffer.from((bytes.length + 4).toString(16).padStart(4, "0"), "latin1"), bytes]);
};

/**
 * The advertisement with `symref=HEAD:<ref>` added to its capabilities when it lists refs but no
 * HEAD; otherwise (HEAD listed, no refs at all, protocol v2, anything unexpected) the same bytes.
 */
export function nameHeadIfMissing(body: Buffer): Buffer {
  const lines = pktLines(body);
  if (!lines || !lines[0]?.text?.startsWith("# service=")) return body;
  const refLines = lines.slice(1).filter((l) => l.text !== null);
  const first = refLines[0];
  if (!first?.text) return body;
  const nul = first.text.indexOf("\0");
  if (nul < 0) return body;
  const names = refLines.map((l) => (l.text ?? "").split("\0")[0]!.trim().split(" ")[1] ?? "");
  if (names[0] === "capabilities^{}" || names.includes("HEAD")) return body;
  const capabilities = first.text.slice(nul + 1).replace(/\n$/, "");
  if (capabilities.split(" ").some((c) => c.startsWith("symref=HEAD:"))) return body;
  const target = names.find((n) => n === DEFAULT_BRANCH) ?? names.find((n) => n.startsWith("refs/heads/")) ?? names[0]!;
  const rewritten = pkt(`${first.text.slice(0, nul)}\0${capabilities} symref=HEAD:${target}\n`);
  return Buffer.concat([body.subarray(0, first.start), rewritten, body.subarray(first.end)]);
}

export const isUploadPackAdvertisement = (method: string | undefined, url: string) =>
  (method ?? "GET").toUpperCase() === "GET" && /\/info\/refs\?(.*&)?service=git-upload-pack(&|$)/.test(url);
