import { expect, test, type Page } from "@playwright/test";
import { foreignSite } from "./support/foreign-site";
import { AUTHOR, createNote, ensureAccounts, section, signIn } from "./support/studio";

/**
 * Security headers (issue 14, finding 6) on the production build: every answer carries them, pages
 * run under a Content-Security-Policy without 'unsafe-inline' scripts and still work (no violation
 * reported, the studio's Markdown editor types), and no page can be framed by another site.
 */

test.describe.configure({ timeout: 120_000 });
test.beforeAll(() => ensureAccounts());

const scriptSrc = (policy: string | undefined) =>
  policy
    ?.split(";")
    .map((d) => d.trim())
    .find((d) => d.startsWith("script-src")) ?? "";
const nonceOf = (policy: string | undefined) => /'nonce-([A-Za-z0-9_-]+)'/.exec(scriptSrc(policy))?.[1];

function expectBaseHeaders(headers: Record<string, string>) {
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  // The e2e site is plain http: no HSTS (lib/http/csp.test.ts holds the https case).
  expect(headers["strict-transport-security"]).toBeUndefined();
}

test("a public page, the studio, sign-in and the API carry the security headers; a public page's nonce is stable per commit, the studio's is fresh", async ({
  page,
  request,
}) => {
  const home = await request.get("/");
  expectBaseHeaders(home.headers());
  const policy = home.headers()["content-security-policy"];
  expect(scriptSrc(policy)).toMatch(/^script-src 'self' 'nonce-[A-Za-z0-9_-]{22}' 'strict-dynamic'$/);
  expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  // A public page is served without Next's client runtime: no script for the nonce to admit.
  expect(await home.text()).not.toMatch(/<script\b/);
  // Same commit, same origin: the same nonce, so a cached page and a 304 agree with the header.
  expect(nonceOf((await request.get("/")).headers()["content-security-policy"])).toBe(nonceOf(policy));
  expect(nonceOf((await request.get("/notes/AFN-001")).headers()["content-security-policy"])).toBe(nonceOf(policy));

  const api = await request.get("/api/studio/notes");
  expect(api.status()).toBe(401);
  expectBaseHeaders(api.headers());
  expect(api.headers()["content-security-policy"]).toContain("default-src 'none'");

  const signInPage = await request.get("/sign-in");
  expectBaseHeaders(signInPage.headers());
  const first = nonceOf(signInPage.headers()["content-security-policy"]);
  expect(first).toMatch(/^[A-Za-z0-9_-]{22}$/);
  // Next wrote the nonce on its own scripts, and there is no script without it.
  const scripts = [...(await signInPage.text()).matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${first}"`);
  expect(nonceOf((await request.get("/sign-in")).headers()["content-security-policy"])).not.toBe(first);

  await signIn(page, AUTHOR);
  const studio = await page.request.get("/studio");
  expect(studio.status()).toBe(200);
  expectBaseHeaders(studio.headers());
  expect(nonceOf(studio.headers()["content-security-policy"])).toMatch(/^[A-Za-z0-9_-]{22}$/);
});

/** Collect every CSP violation a page reports, as events and as console errors. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const consoleErrors: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to (execute|load|apply|frame|connect|evaluate)/i.test(m.text())) consoleErrors.push(m.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  });
  return async () => [...consoleErrors, ...(await page.evaluate(() => (window as unknown as { __violations?: string[] }).__violations ?? []))];
}

/** Next's client runtime started (it sets window.next), i.e. its nonce'd scripts ran. */
const hydrated = (page: Page) => page.waitForFunction(() => Boolean((window as unknown as { next?: { version?: string } }).next?.version));

test("public pages, sign-in, the studio list and the editor run under the policy with no violation, and the editor types", async ({ page }) => {
  const violations = await watchViolations(page);
  // Public pages run no script at all (they are served without Next's client runtime).
  for (const path of ["/", "/notes/AFN-001", "/search?q=admission"]) {
    await page.goto(path);
    await page.waitForLoadState("load");
    expect(await page.evaluate(() => "next" in window), path).toBe(false);
    expect(await violations(), path).toEqual([]);
  }
  await page.goto("/sign-in");
  await hydrated(page);
  expect(await violations(), "/sign-in").toEqual([]);
  await signIn(page, AUTHOR);
  await hydrated(page);
  expect(await violations(), "/studio").toEqual([]);
  const id = await createNote(page);
  await hydrated(page);
  await section(page, "Decision").click();
  await section(page, "Decision").pressSequentially("Typed under the policy.");
  await expect(section(page, "Decision")).toHaveValue("Typed under the policy.");
  expect(await violations(), `/studio/notes/${id}`).toEqual([]);
});

test("another site cannot frame the sign-in page or the studio", async ({ page, baseURL }) => {
  const site = await foreignSite(`<!doctype html><title>framer</title>
    <iframe id="a" src="${baseURL}/sign-in"></iframe><iframe id="b" src="${baseURL}/studio"></iframe>`);
  const refusals: string[] = [];
  page.on("console", (m) => {
    if (/frame-ancestors|Refused to (display|frame)/i.test(m.text())) refusals.push(m.text());
  });
  try {
    await page.goto(site.url);
    await expect.poll(() => refusals.length).toBeGreaterThanOrEqual(2);
    for (const frame of page.frames().filter((f) => f !== page.mainFrame())) {
      // A refused frame is left on Chromium's error page: no sign-in form, no studio.
      expect(await frame.locator("#sign-in-name").count()).toBe(0);
      expect(await frame.getByText("Sign in to the studio").count()).toBe(0);
    }
  } finally {
    await site.close();
  }
});
