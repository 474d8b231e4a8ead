/**
 * A real smart-HTTP git server for the tests: git's own `git http-backend`, run as a CGI program
 * behind a minimal bridge in Node, with basic auth. Nothing is mocked: clients (isomorphic-git in
 * the app, plain `git push` in the tests) speak the same protocol a git host speaks.
 *
 *   npx tsx e2e/support/git-server.ts --root /srv/git --port 8180 --user fn --password secret
 *
 * serves every bare repository under --root at http://127.0.0.1:<port>/<name>.git.
 */
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { timingSafeEqual } from "node:crypto";

export type GitServerOptions = { root: string; user: string; password: string; port?: number; host?: string };

export type GitServer = {
  /** http://127.0.0.1:<port> (no credentials in it). */
  readonly origin: string;
  readonly port: number;
  /** Stop answering: the listening socket closes and open connections are cut, like a host going down. */
  stop(): Promise<void>;
  /** Listen again on the same port. */
  start(): Promise<void>;
  /** Requests answered so far, by method and path (tests use it to see pushes happen). */
  readonly requests: number;
};

export async function startGitServer(options: GitServerOptions): Promise<GitServer> {
  const host = options.host ?? "127.0.0.1";
  const expected = Buffer.from(`Basic ${Buffer.from(`${options.user}:${options.password}`).toString("base64")}`);
  const sockets = new Set<Socket>();
  let requests = 0;

  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    requests++;
    const given = Buffer.from(req.headers.authorization ?? "");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      req.resume();
      res.writeHead(401, { "WWW-Authenticate": 'Basic realm="field-notes test git"', "Content-Type": "text/plain" });
      res.end("authentication required\n");
      return;
    }
    const url = new URL(req.url ?? "/", "http://git.invalid");
    const env: Record<string, string | undefined> = {
      PATH: process.env.PATH,
      GIT_PROJECT_ROOT: options.root,
      GIT_HTTP_EXPORT_ALL: "1",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      // receive-pack is only offered to an authenticated user (http.receivepack's default).
      REMOTE_USER: options.user,
      REMOTE_ADDR: req.socket.remoteAddress ?? "127.0.0.1",
      REQUEST_METHOD: req.method ?? "GET",
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers["content-type"] ?? "",
      GATEWAY_INTERFACE: "CGI/1.1",
      SERVER_PROTOCOL: "HTTP/1.1",
    };
    if (req.headers["content-length"]) env.CONTENT_LENGTH = req.headers["content-length"];
    if (req.headers["content-encoding"]) env.HTTP_CONTENT_ENCODING = req.headers["content-encoding"];
    if (req.headers["git-protocol"]) env.GIT_PROTOCOL = String(req.headers["git-protocol"]);

    const cgi = spawn("git", ["http-backend"], { env: env as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "pipe"] });
    req.pipe(cgi.stdin);
    cgi.stdin.on("error", () => undefined);
    let stderr = "";
    cgi.stderr.on("data", (d: Buffer) => (stderr += d.toString()));

    // CGI output: header lines, a blank line, then the body.
    let head = Buffer.alloc(0);
    let headersDone = false;
    cgi.stdout.on("data", (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      let end = head.indexOf("\r\n\r\n");
      let sep = 4;
      if (end < 0) {
        end = head.indexOf("\n\n");
        sep = 2;
      }
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString("latin1").split(/\r?\n/)) {
        const i = line.indexOf(":");
        if (i <= 0) continue;
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (name.toLowerCase() === "status") status = Number.parseInt(value, 10) || 200;
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      res.write(head.subarray(end + sep));
    });
    cgi.on("close", (code) => {
      if (!headersDone) {
        if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
        res.end(`git http-backend failed (${code}): ${stderr}`);
        return;
      }
      res.end();
    });
    res.on("close", () => {
      if (cgi.exitCode === null) cgi.kill();
    });
  };

  let server: http.Server | null = null;
  let port = options.port ?? 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = http.createServer(handler);
      s.on("connection", (socket) => {
        sockets.add(socket);
        socket.on("close", () => sockets.delete(socket));
      });
      s.once("error", reject);
      s.listen(port, host, () => {
        port = (s.address() as AddressInfo).port;
        server = s;
        resolve();
      });
    });

  await listen();
  return {
    get origin() {
      return `http://${host}:${port}`;
    },
    get port() {
      return port;
    },
    get requests() {
      return requests;
    },
    async stop() {
      const s = server;
      server = null;
      if (!s) return;
      const closed = new Promise<void>((resolve) => s.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    async start() {
      if (!server) await listen();
    },
  };
}

// Run as a program: serve until interrupted.
if (process.argv[1] && /git-server\.[cm]?[jt]s$/.test(process.argv[1])) {
  const args = process.argv.slice(2);
  const value = (name: string, fallback?: string) => {
    const i = args.indexOf(name);
    const v = i >= 0 ? args[i + 1] : fallback;
    if (v === undefined) {
      console.error(`usage: git-server.ts --root <folder of bare repositories> --port <port> --user <name> --password <password>\nmissing ${name}`);
      process.exit(2);
    }
    return v;
  };
  startGitServer({ root: value("--root"), port: Number(value("--port", "0")), user: value("--user"), password: value("--password") }).then(
    (s) => console.log(`git smart-HTTP server on ${s.origin}/<repository>.git`),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
