import { describe, expect, it } from "vitest";
import { foreignReason } from "./own-origin";

const h = (entries: Record<string, string>) => new Headers(entries);

describe("foreignReason with SITE_URL set", () => {
  const site = "https://notes.example.org";
  it.each([
    [{ host: "notes.example.org" }, null],
    [{ host: "notes.example.org", origin: "https://notes.example.org" }, null],
    [{ host: "NOTES.example.org" }, null],
    [{ host: "evil.example" }, /Host "evil.example"/],
    [{ host: "notes.example.org", origin: "https://evil.example" }, /Origin "https:\/\/evil.example"/],
    [{ host: "notes.example.org", origin: "http://notes.example.org" }, /Origin/],
    [{ host: "notes.example.org", origin: "null" }, /Origin "null"/],
    [{}, /Host ""/],
  ])("%o", (headers, expected) => {
    const reason = foreignReason(h(headers), site);
    if (expected === null) expect(reason).toBeNull();
    else expect(reason).toMatch(expected);
  });

  it("compares the port too", () => {
    expect(foreignReason(h({ host: "127.0.0.1:3301" }), "http://127.0.0.1:3301")).toBeNull();
    expect(foreignReason(h({ host: "127.0.0.1:9999" }), "http://127.0.0.1:3301")).toMatch(/Host/);
  });
});

describe("foreignReason without SITE_URL: loopback only", () => {
  it.each([
    [{ host: "localhost:3000" }, null],
    [{ host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" }, null],
    [{ host: "[::1]:3000" }, null],
    [{ host: "attacker.example:3000" }, /loopback/],
    [{ host: "localhost:3000", origin: "http://attacker.example" }, /Origin/],
  ])("%o", (headers, expected) => {
    const reason = foreignReason(h(headers), null);
    if (expected === null) expect(reason).toBeNull();
    else expect(reason).toMatch(expected);
  });
});

describe("foreignReason without SITE_URL but with ALLOWED_HOSTS", () => {
  const allowed = ["notes.example.org"];
  it.each([
    [{ host: "notes.example.org" }, null],
    [{ host: "notes.example.org:8080", origin: "https://notes.example.org:8080" }, null],
    [{ host: "localhost:3000" }, null],
    [{ host: "attacker.example" }, /ALLOWED_HOSTS/],
    [{ host: "notes.example.org", origin: "https://attacker.example" }, /Origin/],
  ])("%o", (headers, expected) => {
    const reason = foreignReason(h(headers), null, allowed);
    if (expected === null) expect(reason).toBeNull();
    else expect(reason).toMatch(expected);
  });
});
