import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../../scripts/support/free-port";

/**
 * Runs Debian's nginx with one of the deploy/ files, unchanged except for the values its header
 * says envsubst fills in (FIELD_NOTES_*), inside a minimal nginx.conf of our own: its own prefix
 * folder, pid, logs and temp paths, in the foreground, on a free loopback port. Used by the export
 * tests and `npm run bench:export`.
 */

export const NGINX = process.env.NGINX_PATH || "/usr/sbin/nginx";

export { freePort };

/** `envsubst '${A} ${B}'`: only the named variables are replaced; any other FIELD_NOTES_ one left is an error. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  let out = template;
  for (const [name, value] of Object.entries(values)) out = out.split(`\${${name}}`).join(value);
  const left = /\$\{(FIELD_NOTES_[A-Z_]+)\}/.exec(out);
  if (left) throw new Error(`the nginx template still names \${${left[1]}}: give it a value`);
  return out;
}

export type RunningNginx = { url: string; port: number; prefix: string; stop: () => Promise<void>; errorLog: () => string };

/** Start nginx with deploy/<file> filled in with `values`, listening on `port` (default: a free one). */
export async function startNginx(file: string, values: Record<string, string>, chosenPort?: number): Promise<RunningNginx> {
  if (!fs.existsSync(NGINX)) throw new Error(`nginx is not installed at ${NGINX}: npm test installs Debian's nginx (apt-get install nginx)`);
  const port = chosenPort ?? (await freePort());
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-nginx-"));
  // nginx's workers run as nobody when the master is root: they must read and write in here.
  fs.chmodSync(prefix, 0o777);
  for (const dir of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) fs.mkdirSync(path.join(prefix, "tmp", dir), { recursive: true, mode: 0o777 });
  const site = fillTemplate(fs.readFileSync(path.resolve("deploy", file), "utf8"), { FIELD_NOTES_LISTEN: `127.0.0.1:${port}`, ...values });
  fs.writeFileSync(path.join(prefix, "site.conf"), site);
  const temp = (name: string) => `${name}_temp_path ${path.join(prefix, "tmp", name === "client_body" ? "body" : name)};`;
  fs.writeFileSync(
    path.join(prefix, "nginx.conf"),
    [
      "worker_processes 1;",
      `pid ${path.join(prefix, "nginx.pid")};`,
      `error_log ${path.join(prefix, "error.log")} warn;`,
      "events { worker_connections 512; }",
      "http {",
      "  access_log off;",
      `  ${temp("client_body")} ${temp("proxy")} ${temp("fastcgi")} ${temp("uwsgi")} ${temp("scgi")}`,
      `  include ${path.join(prefix, "site.conf")};`,
      "}",
      "",
    ].join("\n"),
  );
  const child: ChildProcess = spawn(NGINX, ["-p", prefix, "-c", path.join(prefix, "nginx.conf"), "-g", "daemon off;"], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
  const errorLog = () => {
    try {
      return stderr + fs.readFileSync(path.join(prefix, "error.log"), "utf8");
    } catch {
      return stderr;
    }
  };
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    }
    fs.rmSync(prefix, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const pidFile = path.join(prefix, "nginx.pid");
  const until = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) {
      const log = errorLog();
      await stop();
      throw new Error(`nginx exited with ${child.exitCode} on deploy/${file}:\n${log}`);
    }
    // nginx writes its pid file after it has bound the port; a connection alone might reach
    // another server already on that port.
    const pid = fs.existsSync(pidFile) ? fs.readFileSync(pidFile, "utf8").trim() : "";
    if (pid === String(child.pid)) return { url, port, prefix, stop, errorLog };
    if (Date.now() > until) {
      const log = errorLog();
      await stop();
      throw new Error(`nginx did not listen on ${url} within 15 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
