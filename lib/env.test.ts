import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./env";

describe("configuration", () => {
  it("defaults to .data/ and .data/content.git in the project", () => {
    const c = parseConfig({}, "/srv/app");
    expect(c.dataDir).toBe(path.resolve("/srv/app/.data"));
    expect(c.contentRepo).toBe(path.resolve("/srv/app/.data/content.git"));
    expect(c.siteUrl).toBeNull();
  });

  it("puts the content repository under DATA_DIR unless CONTENT_REPO says otherwise", () => {
    expect(parseConfig({ DATA_DIR: "/var/notes" }, "/srv/app").contentRepo).toBe("/var/notes/content.git");
    expect(parseConfig({ DATA_DIR: "/var/notes", CONTENT_REPO: "repo.git" }, "/srv/app").contentRepo).toBe("/srv/app/repo.git");
  });

  it("turns notification mail on with SMTP_URL, MAIL_FROM defaulting to the site's host, and never echoes a bad SMTP_URL (it may hold a password)", () => {
    expect(parseConfig({}).mail).toBeNull();
    expect(parseConfig({ SMTP_URL: "smtp://u:p@mail.example.org:587", SITE_URL: "https://notes.example.org" }).mail).toEqual({
      smtpUrl: "smtp://u:p@mail.example.org:587",
      from: "Field Notes <notifications@notes.example.org>",
    });
    expect(parseConfig({ SMTP_URL: "smtps://mail.example.org", MAIL_FROM: "Notes <n@example.org>" }).mail?.from).toBe("Notes <n@example.org>");
    expect(() => parseConfig({ SMTP_URL: "http://user:secret@mail.example.org" })).toThrow(
      /SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL.*\(got a hidden value\)/,
    );
    expect(() => parseConfig({ SMTP_URL: "http://user:secret@mail.example.org" })).not.toThrow(/secret/);
    expect(() => parseConfig({ SMTP_URL: "smtp://mail.example.org", MAIL_FROM: "not an address" })).toThrow(/MAIL_FROM: must be an address/);
  });

  it("treats empty variables as unset and trims a trailing slash from SITE_URL", () => {
    const c = parseConfig({ DATA_DIR: "", SITE_URL: "https://notes.example.org/" }, "/srv/app");
    expect(c.dataDir).toBe("/srv/app/.data");
    expect(c.siteUrl).toBe("https://notes.example.org");
  });

  it("names every bad variable and what it got", () => {
    let error: unknown;
    try {
      parseConfig({ SITE_URL: "notes", PORT: "99999" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toMatch(/SITE_URL: must be an absolute http\(s\) URL.*\(got "notes"\)/);
    expect(message).toMatch(/PORT: must be a TCP port.*\(got "99999"\)/);
  });
});
