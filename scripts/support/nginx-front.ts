// tsx scripts/support/nginx-front.ts <upstream host:port>
//
// deploy/nginx-cache.conf as it ships (run by e2e/support/nginx.ts, as the e2e tests run it) in front
// of the app at <upstream>, with a cache folder of its own, on a free loopback port. Prints one line,
// `listening http://127.0.0.1:<port>`, once nginx has bound it; on SIGTERM or SIGINT stops nginx and
// removes its folders. For scripts written in plain JavaScript (scripts/check-agents.mjs).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startNginx } from "../../e2e/support/nginx";

async function main() {
  const upstream = process.argv[2];
  if (!upstream || !/^[\w.-]+:\d+$/.test(upstream)) throw new Error("usage: nginx-front.ts <upstream host:port>");
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-nginx-front-"));
  fs.chmodSync(cache, 0o777); // nginx's workers (nobody, under a root master) write here
  const nginx = await startNginx("nginx-cache.conf", { FIELD_NOTES_UPSTREAM: upstream, FIELD_NOTES_CACHE: cache });
  const stop = async () => {
    await nginx.stop();
    fs.rmSync(cache, { recursive: true, force: true });
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop());
  process.once("SIGINT", () => void stop());
  console.log(`listening ${nginx.url}`);
  // Stay up until told to stop.
  setInterval(() => {}, 1 << 30);
}

main().catch((e) => {
  console.error(`nginx-front: ${(e as Error).message}`);
  process.exit(1);
});
