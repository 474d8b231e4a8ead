import { describe, expect, it } from "vitest";
import { actorIdOfEmail, commitPerson } from "./identity";

describe("commit identities", () => {
  it("give each account an e-mail that leads back to the account", () => {
    for (const id of ["alice", "e2e-author", "github:octocat", "oidc:alice@example.org", "oidc:Jürgen Müller"]) {
      const person = commitPerson({ id, name: "Someone" });
      expect(person.email).toMatch(/^[A-Za-z0-9._=-]+@([a-z]+\.)?users\.field-notes\.invalid$/);
      expect(actorIdOfEmail(person.email)).toBe(id.toLowerCase());
    }
    expect(commitPerson({ id: "alice", name: "alice" })).toEqual({ name: "alice", email: "alice@users.field-notes.invalid" });
  });

  it("leave foreign e-mails as they are, so a plain-git author is still someone", () => {
    expect(actorIdOfEmail("Agent@Example.org")).toBe("agent@example.org");
  });
});
