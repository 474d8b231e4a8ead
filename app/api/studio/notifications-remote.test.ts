import fs from "node:fs";
import path from "node:path";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGitServer, type GitServer } from "@/e2e/support/git-server";
import { resetConfig } from "@/lib/env";
import { resetRemoteConfig } from "@/lib/store";
import { git, tempDir } from "@/lib/store/testing";
import { getAccountsStore } from "@/lib/auth/account-file";
import { addAccount } from "@/lib/auth/accounts";
import { sessionSecret } from "@/lib/auth/secret";
import { sessionClaims } from "@/lib/auth/sessions";
import { getContentStore } from "@/lib/working-copy/content-store";
import { answer, BASE, noteFields, params, request, type Caller } from "@/lib/testing/studio";
import * as list from "./notes/route";
import * as one from "./notes/[id]/route";
import * as threads from "./notes/[id]/threads/route";
import * as notifications from "./notifications/route";
import * as read from "./notifications/read/route";

/**
 * Two instances of one site on a git remote (content and accounts each in a repository served by
 * git's http-backend, each instance with its own DATA_DIR): a mention written through one instance
 * notifies exactly the person named on both, and a notification marked read on one is read on the
 * other, with no store but the two repositories.
 */

let server: GitServer;
let root: string;
const saved = { ...process.env };

/** Act as the instance whose data folder is `dir`. */
function as(dir: string) {
  process.env.DATA_DIR = path.join(root, dir);
  resetConfig();
}

/** The instance's next poll: fetch the content and the accounts. */
async function sync(dir: string) {
  as(dir);
  await (await getContentStore()).remote!.sync();
  await (await getAccountsStore(path.join(root, dir))).remote!.sync();
}

const session = async (name: string): Promise<Caller> => {
  const jwt = await encode({ token: { name, ...(await sessionClaims(name)) }, secret: sessionSecret() });
  return { label: name, headers: { cookie: `next-auth.session-token=${jwt}` } };
};

beforeAll(async () => {
  root = tempDir("notifications-remote");
  fs.mkdirSync(path.join(root, "repos"));
  for (const repo of ["content.git", "accounts.git"]) git(root, "init", "--bare", "-q", "-b", "main", path.join(root, "repos", repo));
  server = await startGitServer({ root: path.join(root, "repos"), user: "fn", password: "notifications-remote-password" });
  Object.assign(process.env, {
    CONTENT_REMOTE: `${server.origin}/content.git`,
    ACCOUNTS_REMOTE: `${server.origin}/accounts.git`,
    CONTENT_REMOTE_USER: "fn",
    CONTENT_REMOTE_TOKEN: "notifications-remote-password",
    CONTENT_POLL_SECONDS: "3600",
    NEXTAUTH_SECRET: "one session secret shared by every instance",
    SITE_URL: BASE,
  });
  delete process.env.CONTENT_REPO;
  resetRemoteConfig();
  as("a");
  for (const [name, role] of [
    ["ada", "author"],
    ["rita", "reviewer"],
    ["sam", "reviewer"],
  ] as const) {
    await addAccount(name, role, `${name}'s long password`);
  }
}, 60_000);

afterAll(async () => {
  process.env = saved;
  resetConfig();
  resetRemoteConfig();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

const listOn = async (dir: string, name: string) => {
  as(dir);
  const res = await answer(await notifications.GET(request(await session(name), "GET", "/api/studio/notifications"), params({})));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { unread: number; items: { id: string; kind: string; note: string; to: string }[] };
};

describe("notifications on a two-instance site", () => {
  it("a mention through one instance notifies exactly the person named, on both; read on one is read on the other", async () => {
    as("a");
    const ada = await session("ada");
    const created = await answer(await list.POST(request(ada, "POST", "/api/studio/notes", { note: noteFields("Told on both instances") }), params({})));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const opened = await answer(await one.GET(request(ada, "GET", `/api/studio/notes/${id}`), params({ id })));

    await sync("b");
    const rita = await session("rita");
    const thread = await answer(
      await threads.POST(
        request(rita, "POST", `/api/studio/notes/${id}/threads`, {
          section: "decision",
          revision: opened.body.noteRevision,
          text: "@sam is this the kernel you meant?",
        }),
        params({ id }),
      ),
    );
    expect(thread.status, JSON.stringify(thread.body)).toBe(201);
    await sync("a");

    for (const dir of ["a", "b"]) {
      const sam = await listOn(dir, "sam");
      expect(
        sam.items.map((n) => [n.kind, n.note, n.id]),
        `instance ${dir}`,
      ).toEqual([["mention", id, thread.body.thread]]);
      expect(sam.unread, `instance ${dir}`).toBe(1);
      for (const other of ["ada", "rita"])
        expect(
          (await listOn(dir, other)).items.filter((n) => n.note === id),
          `${other} on ${dir}`,
        ).toEqual([]);
    }

    as("a");
    const marked = await answer(
      await read.POST(request(await session("sam"), "POST", "/api/studio/notifications/read", { ids: [thread.body.thread] }), params({})),
    );
    expect(marked.body.unread).toBe(0);
    await sync("b");
    expect((await listOn("b", "sam")).unread).toBe(0);
  }, 180_000); // every write and sync goes through git's http-backend: generous on a loaded machine
});
