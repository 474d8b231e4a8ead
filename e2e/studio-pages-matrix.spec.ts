import { expect, test } from "@playwright/test";
import { PAGE_RULES, pageUrl, studioPageFiles } from "../lib/testing/studio-page-rules";
import { AUTHOR, ensureAccounts, newToken, REVIEWER, signIn } from "./support/studio";

/**
 * Every studio page, found from the page files themselves, opened in the browser by an anonymous
 * visitor, an author and a reviewer: the anonymous one is sent to sign in or gets a 404 as the
 * page's rule says (lib/testing/studio-page-rules.ts), and both roles open it. A page file with no
 * rule fails here, as it does in app/authorization-matrix.test.ts.
 */

let draft = "";
test.beforeAll(async ({ playwright, baseURL }) => {
  ensureAccounts();
  // A draft to fill [id] with, made as an agent would (token, JSON API).
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${newToken(AUTHOR.name)}` } });
  const created = await api.post("/api/studio/notes", { data: {} });
  expect(created.status()).toBe(201);
  draft = (await created.json()).id;
  await api.dispose();
});

const files = studioPageFiles();

test("every studio page file has a rule", () => {
  expect(files).toEqual(Object.keys(PAGE_RULES).sort());
});

test("an anonymous visitor is sent to sign in, or gets a 404 at a draft's address", async ({ page }) => {
  for (const file of files) {
    const rule = PAGE_RULES[file];
    const url = pageUrl(file, { id: draft });
    const res = await page.goto(url);
    if (rule === "public") expect(res?.status(), url).toBe(200);
    if (rule === "404") {
      expect(res?.status(), url).toBe(404);
      await expect(page.getByText(draft)).toHaveCount(0);
    }
    if (rule === "sign-in" || rule === "author") {
      expect(new URL(page.url()).pathname, url).toBe("/sign-in");
      expect(new URL(page.url()).searchParams.get("callbackUrl"), url).toBe(url);
    }
  }
});

for (const account of [AUTHOR, REVIEWER]) {
  test(`${account.name} opens every studio page`, async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, account);
    for (const file of files) {
      const url = pageUrl(file, { id: draft });
      if (PAGE_RULES[file] === "public") continue;
      const res = await page.goto(url);
      // A reviewer at an authors' page gets a 404 that stays at its address.
      expect(res?.status(), `${account.name} ${url}`).toBe(PAGE_RULES[file] === "author" && account === REVIEWER ? 404 : 200);
      expect(new URL(page.url()).pathname, `${account.name} ${url}`).toBe(url);
    }
    await context.close();
  });
}
