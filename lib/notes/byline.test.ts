import { describe, expect, it } from "vitest";
import { APP_IDENTITY } from "@/lib/store/commit";
import { changedBy } from "./byline";

describe("changedBy", () => {
  it("names the person who made a commit", () => {
    expect(changedBy({ name: "Ada Reviewer", email: "ada@example.org" }, APP_IDENTITY, "Andrea Borio")).toBe("Ada Reviewer");
  });

  it("gives the archive's byline for a commit the app wrote itself (the seed), never the app's name", () => {
    expect(changedBy({ ...APP_IDENTITY }, APP_IDENTITY, "Andrea Borio")).toBe("Andrea Borio");
  });

  it("does not take a person for the app because they share its name", () => {
    expect(changedBy({ name: "Field Notes", email: "someone@example.org" }, APP_IDENTITY, "Andrea Borio")).toBe("Field Notes");
  });
});
