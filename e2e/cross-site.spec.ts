import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import http from "node:http";
import { expect, test } from "@playwright/test";
import { contentRepoPath } from "./support/content-repo";
import { foreignSite } from "./support/foreign-site";
import { AUTHOR, ensureAccounts, newToken, signIn } from "./support/studio";

/**
 * Cross-site request forgery (issue 14, finding 3) and the sign-in address (finding 4), against
 * the production server: a page on another port of the same host, in Chromium, with the author
 * signed in on the app, cannot write as them; a script with a token still can.
 */

test.describe.configure({ timeout: 120_000 });
test.beforeAll(() => ensureAccounts());

/** A new note's fields that the server accepts (so a refusal is the guard's, not the schema's), titled `title`. */
const noteBody = (title: string) =>
  JSON.stringify({
    note: {
      title,
      summary: `What ${title} decides.`,
      phase: "6 architecture",
      tags: ["e2e"],
      sections: { decision: `Decide ${title}.`, invariant: "", rejectedShortcut: "", evidence: "", claimBoundary: "", notes: "" },
    },
  });

/** Whether any branch of the content repository holds `marker` (a forged write would). */
function written(marker: string): boolean {
  const refs = execFileSync("git", ["--git-dir", contentRepoPath(), "for-each-ref", "--format=%(refname)", "refs/heads"], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean);
  try {
    execFileSync("git", ["--git-dir", contentRepoPath(), "grep", "-q", "-F", marker, ...refs], { stdio: "ignore" });
    return true;
  } catch (e) {
    if ((e as { status?: number }).status === 1) return false;
    throw e;
  }
}

test("a page on another port of the same host cannot create a draft as the signed-in author (no-cors fetch with credentials)", async ({ browser, baseURL }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, AUTHOR);
  const marker = `forged-${randomUUID()}`;
  const target = `${baseURL}/api/studio/notes`;
  const site = await foreignSite(`<!doctype html><title>other site</title><script>
    fetch(${JSON.stringify(target)}, { method: "POST", credentials: "include", mode: "no-cors", body: ${JSON.stringify(noteBody(marker))} })
      .then(() => { document.title = "sent"; }, () => { document.title = "failed"; });
  </script>`);
  try {
    const answer = page.waitForResponse((r) => r.url() === target && r.request().method() === "POST");
    await page.goto(site.url);
    // The browser sent it (the page's fetch resolved, opaque), and the server refused it: a 403 here
    // is only the cross-site guard's, which judges only requests that carry the session cookie.
    const response = await answer;
    expect(response.status()).toBe(403);
    await expect(page).toHaveTitle("sent");
  } finally {
    await site.close();
  }
  expect(written(marker)).toBe(false);
  const list = await (await page.request.get("/api/studio/notes")).text();
  expect(list).not.toContain(marker);
  await context.close();
});

test("curl with the session cookie and a foreign Origin gets 403, a text/plain body 415; the site's own origin and token clients still write", async ({
  browser,
  playwright,
  baseURL,
}) => {
  const context = await browser.newContext();
  await signIn(await context.newPage(), AUTHOR);
  const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  await context.close();
  const curl = await playwright.request.newContext({ baseURL });
  const post = (headers: Record<string, string>, body: string) => curl.post("/api/studio/notes", { headers, data: body });

  const forged = `forged-${randomUUID()}`;
  const foreign = await post({ cookie, origin: "http://127.0.0.1:1", "content-type": "application/json" }, noteBody(forged));
  expect(foreign.status()).toBe(403);
  expect((await foreign.json()).error.code).toBe("cross-site");
  const sameSite = await post({ cookie, "sec-fetch-site": "same-site", "content-type": "application/json" }, noteBody(forged));
  expect(sameSite.status()).toBe(403);
  const plain = await post({ cookie, origin: baseURL!, "content-type": "text/plain;charset=UTF-8" }, noteBody(forged));
  expect(plain.status()).toBe(415);
  expect((await plain.json()).error.code).toBe("unsupported-media-type");
  expect(written(forged)).toBe(false);

  // The site's own origin with JSON: the studio's own request, which works.
  const own = `own-${randomUUID()}`;
  const ok = await post({ cookie, origin: baseURL!, "content-type": "application/json" }, noteBody(own));
  expect(ok.status(), await ok.text()).toBe(201);
  expect(written(own)).toBe(true);

  // A token client, from anywhere, with JSON: works; with text/plain: 415.
  const token = newToken(AUTHOR.name);
  const agent = `agent-${randomUUID()}`;
  const byToken = await post({ authorization: `Bearer ${token}`, origin: "https://elsewhere.example", "content-type": "application/json" }, noteBody(agent));
  expect(byToken.status(), await byToken.text()).toBe(201);
  expect(written(agent)).toBe(true);
  const tokenPlain = await post({ authorization: `Bearer ${token}`, "content-type": "text/plain" }, "{}");
  expect(tokenPlain.status()).toBe(415);
  await curl.dispose();
});

/** One password sign-in through next-auth's own endpoints, from a chosen local address (as a client on another machine would). */
async function signInFrom(localAddress: string, baseURL: string, form: { name: string; password: string }, forwardedFor: string): Promise<string | null> {
  const url = new URL(baseURL);
  const call = (method: string, path: string, headers: Record<string, string>, body?: string) =>
    new Promise<{ headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const request = http.request({ host: url.hostname, port: url.port, localAddress, method, path, headers }, (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve({ headers: response.headers, body: text }));
      });
      request.on("error", reject);
      request.end(body);
    });
  const csrf = await call("GET", "/api/auth/csrf", { "x-forwarded-for": forwardedFor });
  const cookie = (csrf.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
  const body = new URLSearchParams({ csrfToken: JSON.parse(csrf.body).csrfToken, name: form.name, password: form.password, json: "true" }).toString();
  const answer = await call(
    "POST",
    "/api/auth/callback/credentials",
    { cookie, "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": forwardedFor },
    body,
  );
  // next-auth answers where it would send the browser; a failure names its reason in ?error=.
  return new URL(JSON.parse(answer.body).url, baseURL).searchParams.get("error");
}

test("failed sign-ins are counted against the connection's address, whatever X-Forwarded-For says", async ({ baseURL, page }) => {
  // The attacker connects from 127.0.0.2 (all of 127/8 is this machine) and forges a fresh
  // X-Forwarded-For on every attempt, each at a different account so only the address counts.
  const run = Date.now();
  for (let i = 0; i < 10; i++) {
    expect(await signInFrom("127.0.0.2", baseURL!, { name: `e2e-spray-${run}-${i}`, password: "a wrong guess" }, `198.51.100.${i + 1}`)).toBe(
      "wrong account name or password",
    );
  }
  expect(await signInFrom("127.0.0.2", baseURL!, { name: `e2e-spray-${run}-x`, password: "a wrong guess" }, "203.0.113.77")).toMatch(
    /^too many failed sign-ins; try again in \d+ seconds?$/,
  );
  // The right password from that address waits too; from another address (the browser, on 127.0.0.1) it works.
  expect(await signInFrom("127.0.0.2", baseURL!, AUTHOR, "203.0.113.78")).toMatch(/^too many failed sign-ins/);
  await signIn(page, AUTHOR);
  await expect(page.getByText("Signed in as")).toContainText(AUTHOR.name);
});
