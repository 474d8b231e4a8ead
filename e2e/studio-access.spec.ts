import { expect, test } from "@playwright/test";
import { AUTHOR, createNote, ensureAccounts, fillRequired, fsckStrict, git, newToken, REVIEWER, save, signIn } from "./support/studio";

/** Who may see and do what, checked in the browser and against the server directly. */

// Each test signs in (scrypt) and most drive two pages; on a loaded machine a minute is too tight.
test.describe.configure({ timeout: 120_000 });

test.beforeAll(() => ensureAccounts());

test("a reviewer reads a draft but cannot save or publish it, whatever the browser sends", async ({ browser }) => {
  const authorContext = await browser.newContext();
  const author = await authorContext.newPage();
  await signIn(author, AUTHOR);
  const id = await createNote(author);
  await fillRequired(author, "Reviewed note");
  await author.getByLabel("Invariant", { exact: true }).fill("Holds.");
  await author.getByLabel("Claim boundary", { exact: true }).fill("Nothing more.");
  await save(author);
  await author.getByRole("button", { name: "Propose as hypothesis" }).click();
  await expect(author.getByRole("heading", { name: "Status: hypothesis" })).toBeVisible();
  await authorContext.close();

  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, REVIEWER);
  // From the studio list a reviewer lands on the draft's review page, not on an editor.
  await page
    .getByRole("table", { name: /^Unpublished/ })
    .getByRole("link", { name: new RegExp(`^${id} `) })
    .click();
  await page.waitForURL(`**/studio/notes/${id}/review`);
  // At the editor's address they read the draft, with the way to its review, and no buttons they may not use.
  await page.goto(`/studio/notes/${id}`);
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue("Reviewed note");
  await expect(page.getByLabel("Title", { exact: true })).not.toBeEditable();
  await expect(page.getByRole("link", { name: "the review page", exact: true })).toHaveAttribute("href", `/studio/notes/${id}/review`);
  await expect(page.getByRole("region", { name: "Review", exact: true })).toContainText("No open threads.");
  await expect(page.getByRole("button", { name: "Save", exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Publish/ })).toHaveCount(0);

  // The server refuses a forged request with the reviewer's own session.
  const view = await (await page.request.get(`/api/studio/notes/${id}`)).json();
  const forged = await page.request.post(`/api/studio/notes/${id}/publish`, { data: { revision: view.revision } });
  expect(forged.status()).toBe(403);
  expect((await forged.json()).error.message).toBe("only authors may do this; e2e-reviewer is signed in as a reviewer");
  const forgedSave = await page.request.put(`/api/studio/notes/${id}`, { data: { revision: view.revision, note: view.fields } });
  expect(forgedSave.status()).toBe(403);
  expect(git("ls-tree", "refs/heads/main", `notes/${id}.md`)).toBe("");
  await context.close();
});

test("an anonymous visitor cannot see a draft, and is sent to sign in from the studio", async ({ browser, page }) => {
  const authorContext = await browser.newContext();
  const author = await authorContext.newPage();
  await signIn(author, AUTHOR);
  const id = await createNote(author);
  await fillRequired(author, "Secret draft title");
  await save(author);
  await authorContext.close();

  const draft = await page.goto(`/studio/notes/${id}`);
  expect(draft?.status()).toBe(404);
  await expect(page.getByText("Secret draft title")).toHaveCount(0);
  const api = await page.request.get(`/api/studio/notes/${id}`);
  expect(api.status()).toBe(404);
  expect(await api.text()).not.toContain("Secret draft title");
  expect((await page.request.get(`/notes/${id}`)).status()).toBe(404);
  expect((await page.request.get("/api/studio/notes")).status()).toBe(401);

  await page.goto("/studio");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fstudio$/);
  await page.getByLabel("Account").fill(AUTHOR.name);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Not signed in" })).toHaveText("Not signed in: wrong account name or password.");
});

test("signing in is one request to next-auth, the token having been fetched while the form showed", async ({ page }) => {
  await page.goto("/sign-in?callbackUrl=%2Fstudio");
  await page.getByLabel("Account").fill(AUTHOR.name);
  await page.getByLabel("Password").fill(AUTHOR.password);
  // Fetched on load, not on the press (next-auth/react's signIn() asked for the providers, the token
  // and, after, the session: three more round trips between "Sign in" and the studio).
  await expect.poll(() => page.evaluate(() => performance.getEntriesByType("resource").some((e) => e.name.endsWith("/api/auth/csrf")))).toBe(true);
  const asked: string[] = [];
  page.on("request", (r) => {
    const { pathname } = new URL(r.url());
    if (pathname.startsWith("/api/auth/")) asked.push(`${r.method()} ${pathname}`);
  });
  await page.getByRole("button", { name: "Sign in" }).click();
  // What the sign-in page asked, up to the moment the studio's address commits (not what the studio asks).
  await page.waitForURL((url) => url.pathname === "/studio", { waitUntil: "commit" });
  expect(asked).toEqual(["POST /api/auth/callback/credentials"]);
  await expect(page.getByText(`Signed in as ${AUTHOR.name}`)).toBeVisible();
});

test("a sign-in sent before the page's script runs never puts the password in an address", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/sign-in?callbackUrl=%2Fstudio");
  await page.getByLabel("Account").fill(AUTHOR.name);
  await page.getByLabel("Password").fill(AUTHOR.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // next-auth refuses a post without its token and sends the browser back to sign in.
  await page.waitForURL((url) => url.pathname === "/sign-in");
  await expect(page.getByRole("heading", { name: "Sign in to the studio" })).toBeVisible();
  const address = new URL(page.url());
  expect([...address.searchParams.keys()]).not.toContain("password");
  expect([...address.searchParams.values()]).not.toContain(AUTHOR.password);
  await context.close();
});

test("failed sign-ins on an account slow it down, with a message that says how long", async ({ page }) => {
  const name = `e2e-guess-${Date.now()}`;
  await page.goto("/sign-in");
  const alert = page.getByRole("alert").filter({ hasText: "Not signed in" });
  for (let i = 1; i <= 5; i++) {
    await page.getByLabel("Account").fill(name);
    await page.getByLabel("Password").fill(`wrong guess number ${i}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(alert).toHaveText("Not signed in: wrong account name or password.");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  }
  await page.getByLabel("Password").fill("wrong guess number 6");
  await page.getByRole("button", { name: "Sign in" }).click();
  // Five failures are free; the sixth attempt waits 15 s after the fifth (lib/auth/sign-in.ts).
  await expect(alert).toHaveText(/^Not signed in: too many failed sign-ins; try again in (1[0-5]|[1-9]) seconds?\.$/);
});

test("an agent with a token does what an author does, through the same rules (as curl would)", async ({ playwright, baseURL }) => {
  const token = newToken(AUTHOR.name);
  const agent = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  const created = await agent.post("/api/studio/notes", { data: {} });
  expect(created.status()).toBe(201);
  const { id, revision } = await created.json();
  const note = {
    title: `Agent note ${id}`,
    summary: "Written by an agent through the studio API.",
    phase: "6 architecture",
    tags: ["agents"],
    related: [],
    boundaries: [],
    core: null,
    sections: { decision: "Use the API.", invariant: "Same rules as people.", rejectedShortcut: "", evidence: "", claimBoundary: "Only this note.", notes: "" },
  };
  const saved = await agent.put(`/api/studio/notes/${id}`, { data: { revision, note } });
  expect(saved.status()).toBe(200);
  const forged = await agent.put(`/api/studio/notes/${id}`, {
    data: { revision: (await saved.json()).revision, note: { ...note, status: "verified-structural" } },
  });
  expect(forged.status()).toBe(422);
  const proposed = await agent.post(`/api/studio/notes/${id}/transitions`, { data: { to: "hypothesis", revision: (await saved.json()).revision } });
  expect(proposed.status()).toBe(200);
  const published = await agent.post(`/api/studio/notes/${id}/publish`, { data: { revision: (await proposed.json()).revision } });
  expect(published.status()).toBe(200);
  expect(git("log", "-1", "--format=%an", "refs/heads/main", "--", `notes/${id}.md`)).toBe("e2e-author");
  await agent.dispose();

  // A revoked token stops at once.
  const revoked = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  const { execFileSync } = await import("node:child_process");
  execFileSync("node_modules/.bin/tsx", ["scripts/user.ts", "revoke", token.split("_")[1] ?? ""], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR },
  });
  expect((await revoked.get("/api/studio/notes")).status()).toBe(401);
  await revoked.dispose();
});

test.afterAll(async () => {
  // Everything the studio wrote is a well-formed git repository.
  expect(await fsckStrict()).toBe("");
});
