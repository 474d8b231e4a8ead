import { describe, expect, it } from "vitest";
import { hashPassword, passwordProblem, verifyPassword } from "./password";

describe("password hashes", () => {
  it("accept the password they were made from and nothing else", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(hash).not.toContain("correct horse");
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse batterY", hash)).toBe(false);
    expect(await verifyPassword("", hash)).toBe(false);
  });

  it("salt every hash, so equal passwords do not look equal", async () => {
    expect(await hashPassword("same password here")).not.toBe(await hashPassword("same password here"));
  });

  it("never match a damaged stored hash", async () => {
    expect(await verifyPassword("anything at all", "scrypt$0$8$1$abc$def")).toBe(false);
    expect(await verifyPassword("anything at all", "plain:anything at all")).toBe(false);
  });

  it("refuse short passwords with the rule", () => {
    expect(passwordProblem("short")).toMatch(/at least 10 characters/);
    expect(passwordProblem("long enough!")).toBeNull();
  });
});
