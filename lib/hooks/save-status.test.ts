import { describe, expect, it } from "vitest";
import { blankFields } from "@/lib/validations/note";
import { changedFields, relativeTime, saveSummary, versionLabel } from "./save-status";

const at = (iso: string) => Date.parse(iso);

describe("relativeTime", () => {
  const saved = "2026-12-03T07:38:12Z";
  it.each([
    ["2026-12-03T07:38:40Z", "just now"],
    ["2026-12-03T07:38:00Z", "just now"], // the browser's clock a little behind the server's
    ["2026-12-03T07:40:30Z", "2 min ago"],
    ["2026-12-03T08:37:59Z", "59 min ago"],
    ["2026-12-03T10:40:00Z", "3 h ago"],
    ["2026-12-04T09:00:00Z", "yesterday"],
    ["2026-12-09T09:00:00Z", "on 3 Dec"],
  ])("at %s says %s", (now, words) => {
    expect(relativeTime(saved, at(now), "UTC")).toBe(words);
  });

  it("says so when the date is not a date", () => {
    expect(relativeTime("not a date", at("2026-12-03T07:38:40Z"))).toBe("at an unknown time");
  });
});

describe("versionLabel", () => {
  it("names a revision by its day and time, in the reader's time zone", () => {
    expect(versionLabel("2026-12-03T07:38:12Z", "UTC")).toBe("version of 3 Dec, 07:38");
    expect(versionLabel("2026-12-03T07:38:12Z", "Europe/Rome")).toBe("version of 3 Dec, 08:38");
    expect(versionLabel("2026-12-31T23:30:00Z", "Asia/Tokyo")).toBe("version of 1 Jan, 08:30");
  });
});

describe("changedFields", () => {
  it("counts each field that differs once, and ignores what a save would trim away", () => {
    const saved = { ...blankFields(), title: "A note", tags: ["kv"], sections: { ...blankFields().sections, evidence: "x" } };
    expect(changedFields(saved, { ...saved })).toEqual([]);
    expect(changedFields(saved, { ...saved, title: "A note  ", tags: ["kv", " "] })).toEqual([]);
    const edited = { ...saved, title: "Another", phase: "6 architecture", sections: { ...saved.sections, evidence: "y", notes: "z" } };
    expect(changedFields(saved, edited)).toEqual(["Title", "Phase", "Evidence", "Notes"]);
  });
});

describe("saveSummary", () => {
  const now = at("2026-12-03T07:40:30Z");
  const saved = "2026-12-03T07:38:12Z";
  it("says when it was saved and how many changes are not, in people's words", () => {
    expect(saveSummary({ source: "draft", savedAt: saved, unsaved: 3, saving: false }, now, "UTC")).toBe("Saved 2 min ago · 3 unsaved changes");
    expect(saveSummary({ source: "draft", savedAt: saved, unsaved: 1, saving: false }, now, "UTC")).toBe("Saved 2 min ago · 1 unsaved change");
    expect(saveSummary({ source: "draft", savedAt: saved, unsaved: 0, saving: false }, now, "UTC")).toBe("Saved 2 min ago · all changes saved");
    expect(saveSummary({ source: "draft", savedAt: saved, unsaved: 2, saving: true }, now, "UTC")).toBe("Saving…");
  });

  it("a new note is not saved yet and gets its id on the first save", () => {
    expect(saveSummary({ source: "new", savedAt: null, unsaved: 0, saving: false }, now)).toBe("Not saved yet · the note gets its id on the first save");
    expect(saveSummary({ source: "new", savedAt: null, unsaved: 4, saving: false }, now)).toBe("Not saved yet · 4 unsaved changes");
    expect(saveSummary({ source: "claimed", savedAt: null, unsaved: 0, saving: false }, now)).toBe("Not saved yet");
  });

  it("a published note says that saving starts a draft", () => {
    expect(saveSummary({ source: "published", savedAt: saved, unsaved: 0, saving: false }, now, "UTC")).toBe("Published 2 min ago · editing starts a draft");
    expect(saveSummary({ source: "published", savedAt: saved, unsaved: 2, saving: false }, now, "UTC")).toBe(
      "Published 2 min ago · 2 unsaved changes (saving starts a draft)",
    );
  });

  it("before the browser's clock is known it gives the time in UTC, which server and browser agree on", () => {
    expect(saveSummary({ source: "draft", savedAt: saved, unsaved: 0, saving: false }, null)).toBe("Saved on 3 Dec, 07:38 UTC · all changes saved");
  });

  it("never shows refs or commit ids", () => {
    const words = saveSummary({ source: "draft", savedAt: saved, unsaved: 3, saving: false }, now);
    expect(words).not.toMatch(/drafts\/|revision|[0-9a-f]{7}/);
  });
});
