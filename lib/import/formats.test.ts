import { describe, expect, it } from "vitest";
import { readRecord } from "./formats";
import { assignIds, linkResolver } from "./ids";
import { mapRecord, sectionTable } from "./mapping";
import { statusTable, statusWord } from "./status";

/** The pure parts of an import: which format a file is, its status word, ids and links. */

describe("reading a record", () => {
  it.each([
    ["nygard", "# 12. Use Kafka\n\nDate: 2020-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nc\n\n## Decision\n\nd\n", 12, "Accepted"],
    ["madr", "# Use Kafka\n\n* Status: accepted\n* Date: 2020-01-01\n\n## Context and Problem Statement\n\nc\n\n## Decision Outcome\n\nd\n", 3, "accepted"],
    [
      "madr",
      "---\nstatus: accepted\ndate: 2020-01-01\n---\n\n# Use Kafka\n\n## Context and Problem Statement\n\nc\n\n## Decision Outcome\n\nd\n",
      3,
      "accepted",
    ],
    ["log4brains", "# Use Kafka\n\n- Status: draft\n- Deciders: Ann\n- Date: 2020-01-01\n- Tags: a, b\n\n## Context and Problem Statement\n\nc\n", 3, "draft"],
    ["front-matter", "---\nstatus: Living\nauthors: [Ann]\n---\n\n# Use Kafka\n\n## Why\n\nc\n", 3, "Living"],
  ])("reads %s", (format, text, number, status) => {
    const r = readRecord("docs/adr/0003-use-kafka.md", text);
    expect(r.ok && r.record).toMatchObject({ format, number, title: "Use Kafka", status });
  });

  it("skips a file that is not a record, and names a bad front matter's line", () => {
    expect(readRecord("docs/adr/README.md", "# Decisions\n\nHow we write them.\n")).toMatchObject({
      ok: false,
      problem: { reason: expect.stringMatching(/not a decision record/) },
    });
    expect(readRecord("docs/adr/0001-x.md", "---\nstatus: accepted\ntags: [a\n---\n# X\n")).toMatchObject({
      ok: false,
      problem: { line: 3, reason: expect.stringMatching(/front matter does not parse/) },
    });
  });

  it("collects supersede links from status lines, sections and front matter", () => {
    const r = readRecord("0002-a.md", "# 2. A\n\n## Status\n\nSuperseded by [3. B](0003-b.md)\n\n## Decision\n\nd\n");
    expect(r.ok && r.record.supersededBy).toEqual(["0003-b.md"]);
    const m = readRecord("0004-c.md", "---\nstatus: accepted\nsupersedes: [0003-b.md]\n---\n# C\n\n## Decision\n\nd\n");
    expect(m.ok && m.record.supersedes).toEqual(["0003-b.md"]);
  });
});

describe("status words", () => {
  it.each([
    ["✅ Accepted", "accepted"],
    ["ACCEPTED.", "accepted"],
    ["superseded by [ADR-0004](0004-x.md)", "superseded"],
    ["Accepted on 2020-01-01", "accepted"],
    ["🚧 In progress", "in progress"],
  ])("%s is %s", (raw, word) => expect(statusWord(raw)).toBe(word));

  it("takes overrides and refuses a status this archive does not have", () => {
    expect(statusTable(["Accepted=hypothesis"]).accepted).toBe("hypothesis");
    expect(() => statusTable(["Accepted=approved"])).toThrow(/--status Accepted=approved: expected Word=status/);
  });
});

describe("ids", () => {
  const records = [
    { key: "a", number: 1, names: ["docs/adr/0001-a.md"] },
    { key: "b", number: 2, names: ["docs/adr/0002-b.md"] },
    { key: "c", number: 2, names: ["docs/adr/0002-c.md"] },
    { key: "d", number: null, names: ["docs/adr/20200101-d.md"] },
  ];
  it("keeps numbers under a prefix and renumbers the later of two that claim one", () => {
    const ids = assignIds(records, { prefix: "ADR", archivePrefix: "AFN", taken: new Set() });
    expect(ids.map((i) => i.id)).toEqual(["ADR-001", "ADR-002", "ADR-003", "ADR-004"]);
    expect(ids[2]?.renumbered).toMatch(/number 2 is also claimed by b/);
    const resolve = linkResolver(records, ids);
    expect([resolve("0002-c.md"), resolve("../adr/0001-a.md#x"), resolve("ADR-2"), resolve("https://x.org/0001-a.md")]).toEqual([
      "ADR-003",
      "ADR-001",
      "ADR-002",
      null,
    ]);
  });

  it("renumbers into the archive's sequence", () => {
    const ids = assignIds(records, { prefix: null, archivePrefix: "AFN", taken: new Set(["AFN-001", "AFN-021"]) });
    expect(ids.map((i) => i.id)).toEqual(["AFN-022", "AFN-023", "AFN-024", "AFN-025"]);
  });
});

describe("section overrides", () => {
  it("map a heading of the user's choosing to a field, and refuse a field the note does not have", () => {
    const r = readRecord("0001-a.md", "# 1. A\n\n## Status\n\nAccepted\n\n## Decision\n\nd\n\n## Decision Drivers\n\nNo order is lost.\n");
    if (!r.ok) throw new Error("not a record");
    const opts = { id: "ADR-001", order: 1, phase: "p", resolve: () => null, provenance: "x" };
    expect(mapRecord(r.record, opts).note.sections.invariant).toBe("");
    const mapped = mapRecord(r.record, { ...opts, sections: sectionTable(["Decision Drivers=invariant"]) });
    expect(mapped.note.sections.invariant).toBe("No order is lost.");
    expect(mapped.note.sections.notes).not.toContain("No order is lost.");
    expect(() => sectionTable(["Drivers=reasons"])).toThrow(/--section Drivers=reasons: expected Heading=field/);
  });

  it("carries a record's affects: entries into the note's field, and keeps the ones the rules refuse in Notes", () => {
    const r = readRecord(
      "0007-cache.md",
      '---\nstatus: accepted\naffects: [src/cache/**, "**", component:search index, /etc/x]\n---\n# Cache\n\n## Decision\n\nd\n',
    );
    if (!r.ok) throw new Error("not a record");
    const mapped = mapRecord(r.record, { id: "ADR-007", order: 1, phase: "p", resolve: () => null, provenance: "x" });
    expect(mapped.note.affects).toEqual(["src/cache/**", "component:search index"]);
    expect(mapped.note.sections.notes).toContain("Affects entries not kept (the note's rules refuse them): **, /etc/x");
  });
});
