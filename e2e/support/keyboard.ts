import type { Locator, Page } from "@playwright/test";

/**
 * Walking a page by keyboard alone, for the studio's and the review page's keyboard tests: no click,
 * no fill, no selectOption, only Tab, Enter, Space, Escape, the arrows and typed characters.
 */

/** Press Tab (or Shift+Tab) until the locator has focus; fails if it is not reached. */
export async function tabTo(page: Page, target: Locator, { back = false, max = 120 } = {}): Promise<void> {
  const handle = await target.elementHandle();
  if (!handle) throw new Error(`nothing to tab to: ${target}`);
  for (let i = 0; i < max; i++) {
    if (await handle.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
  }
  throw new Error(`Tab never reached ${target} in ${max} presses`);
}

/** Type as a person does, one key at a time. */
export const typeKeys = (page: Page, text: string) => page.keyboard.type(text, { delay: 5 });

/** Sign in through the form by keyboard: Tab to the account field, type, Tab, type, Enter. */
export async function signInByKeyboard(page: Page, account: { name: string; password: string }, to: string): Promise<void> {
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(to)}`);
  await tabTo(page, page.getByLabel("Account"));
  await typeKeys(page, account.name);
  await page.keyboard.press("Tab");
  await typeKeys(page, account.password);
  await page.keyboard.press("Enter");
  await page.waitForURL((url) => url.pathname === to);
}
