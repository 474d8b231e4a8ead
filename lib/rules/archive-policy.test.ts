import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseNote } from "@/lib/notes/markdown";
import { noteSchema, type NoteInput } from "@/lib/notes/schema";
import { POLICY_RULES, scanNote, scanText, type PolicyRule } from "./archive-policy";
import { CLEAN_ARCHITECTURE } from "./fixtures/policy-clean";
import { fake, POLICY_VIOLATIONS } from "./fixtures/policy-violations";

const ROOT = join(__dirname, "..", "..");
const NOTES_DIR = join(ROOT, "content", "notes");

const where = (f: { rule: PolicyRule; line: number; column: number }) => ({ rule: f.rule, line: f.line, column: f.column });

describe("archive policy: planted violations", () => {
  it("plants at least three violations of every rule", () => {
    for (const rule of Object.keys(POLICY_RULES) as PolicyRule[]) {
      const planted = POLICY_VIOLATIONS.filter((v) => v.expect.some((e) => e.rule === rule));
      expect(planted.length, rule).toBeGreaterThanOrEqual(3);
    }
  });

  it.each(POLICY_VIOLATIONS.map((v) => [v.name, v] as const))("catches %s at the right place", async (_name, violation) => {
    const findings = await scanText("sections.evidence", violation.text);
    expect(findings.map(where)).toEqual(violation.expect);
    for (const f of findings) {
      expect(f.field).toBe("sections.evidence");
      expect(f.message.length).toBeGreaterThan(40);
      expect(f.excerpt.length).toBeGreaterThan(0);
    }
  });

  it("never shows a secret in full in the excerpt or the message", async () => {
    for (const v of POLICY_VIOLATIONS.filter((x) => x.secret)) {
      for (const f of await scanText("summary", v.text)) {
        expect(f.excerpt, v.name).not.toContain(v.secret);
        expect(f.message, v.name).not.toContain(v.secret);
      }
    }
  });

  it("reports what a writer can act on, in the rule's words", async () => {
    const [email] = await scanText("summary", "Write to andrea@example.com");
    expect(email?.message).toMatch(/^e-mail address: .*remove it or describe the role instead/);
    expect(email?.excerpt).toBe("andrea@example.com");
    const [token] = await scanText("summary", `token ${"ghp_"}${fake(36, 99)}`);
    expect(token?.message).toMatch(/^GitHub token: .*delete it/);
    expect(token?.excerpt).toBe("ghp_…");
    const url = await scanText("summary", `Push to ${["https://user", "pass@host/repo.git"].join(":")}`);
    expect(url.map((f) => [f.rule, f.excerpt])).toEqual([
      ["credential", "https://user:…@host"],
      ["private-url", "https://user:…@host/repo.git"],
    ]);
    for (const { title, why } of Object.values(POLICY_RULES)) expect(title.length * why.length).toBeGreaterThan(0);
  });

  it("an AWS access key id is caught on its own, not only next to its secret", async () => {
    const findings = await scanText("summary", `Key id ${"AKIA"}${fake(16, 5, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")} was used.`);
    expect(findings.map(where)).toEqual([{ rule: "credential", line: 1, column: 8 }]);
  });

  it("scanning leaves no performance marks behind, so a long-running server does not slow down", async () => {
    // secretlint 11 marks every rule run and rescans all marks on each new one (secretlint#1633).
    for (let i = 0; i < 20; i++) await scanText("summary", `run ${i}: ${"ghp_"}${fake(36, i + 1)}`);
    const marks = performance.getEntriesByType("mark").filter((m) => m.name.startsWith("@core>"));
    expect(marks).toEqual([]);
  });

  it("a secretlint-disable comment in a note does not switch the policy off", async () => {
    const text = `<!-- ${"secretlint"}-disable -->\n${"ghp_"}${fake(36, 7)} <!-- ${"secretlint"}-disable-line -->`;
    expect((await scanText("sections.notes", text)).map(where)).toEqual([{ rule: "credential", line: 2, column: 1 }]);
  });
});

describe("archive policy: legitimate architecture text", () => {
  it.each(CLEAN_ARCHITECTURE.map((t) => [t.slice(0, 60), t] as const))("does not flag %j", async (_label, text) => {
    expect(await scanText("sections.decision", text)).toEqual([]);
  });
});

describe("archive policy: scanNote", () => {
  const base: NoteInput = {
    id: "AFN-099",
    title: "A sparse mask is not sparse attention",
    summary: "Selecting 2,051 keys does not make attention sparse.",
    status: "hypothesis",
    phase: "Phase 6 architecture",
    tags: ["sparse attention", "QSA"],
    order: 99,
    sections: {
      decision: "Reduce over the selected groups only.",
      invariant: "No full query-by-key matrix is allocated.",
      rejectedShortcut: "Masking a dense matrix.",
      evidence: "Counted allocations.\n\nThe bench log shows no dense buffer.",
      claimBoundary: "Says nothing about speed.",
      notes: "See AFN-011.",
    },
  };

  it("a clean note has no findings", async () => {
    expect(await scanNote(noteSchema.parse(base))).toEqual([]);
  });

  it("names the field and the line inside it", async () => {
    const note = noteSchema.parse({
      ...base,
      tags: ["sparse attention", "ops@hebrus.dev"],
      core: { rank: 1, label: "Sparse attention" },
      retraction_reason: "Measured on http://10.0.0.8:8080/bench, not reproducible.",
      sections: {
        ...base.sections,
        evidence: "Counted allocations.\n\nLog at /home/andrea/bench/alloc.log shows no dense buffer.",
        rejectedShortcut: "Masking a dense matrix.\n\nUser: can we mask?\nAssistant: yes.",
      },
    });
    const findings = await scanNote(note);
    expect(findings.map((f) => ({ field: f.field, ...where(f) }))).toEqual([
      { field: "tags.1", rule: "email", line: 1, column: 1 },
      { field: "retraction_reason", rule: "private-url", line: 1, column: 13 },
      { field: "sections.rejectedShortcut", rule: "conversation", line: 3, column: 1 },
      { field: "sections.rejectedShortcut", rule: "conversation", line: 4, column: 1 },
      { field: "sections.evidence", rule: "local-path", line: 3, column: 8 },
    ]);
  });

  it("scans the title, summary, phase, core label and provenance detail", async () => {
    const note = noteSchema.parse({
      ...base,
      title: "Notes from 192.0.2.10",
      summary: "Drafted in ~/drafts/afn.md",
      phase: "Phase 6 (http://localhost:4000)",
      core: { rank: 2, label: "ask a.b@example.org" },
      provenance: { source: "author", detail: "copied from C:\\Users\\ab\\notes.txt" },
    });
    const fields = (await scanNote(note)).map((f) => `${f.field}:${f.rule}`);
    expect(fields).toEqual(["title:network-address", "summary:local-path", "phase:private-url", "core.label:email", "provenance.detail:local-path"]);
  });
});

describe("archive policy: the seed notes", () => {
  const files = readdirSync(NOTES_DIR)
    .filter((f) => f.endsWith(".md"))
    .sort();

  it("has the 21 seed notes", () => {
    expect(files).toHaveLength(21);
  });

  it.each(files)("%s passes the archive policy", async (file) => {
    const parsed = parseNote(readFileSync(join(NOTES_DIR, file), "utf8"));
    if (!parsed.ok) throw new Error(`${file} does not parse: ${JSON.stringify(parsed.errors)}`);
    expect(await scanNote(parsed.note)).toEqual([]);
  });
});

describe("archive policy: our own sources", () => {
  // The fixtures assemble their secrets at run time; the files themselves must hold none.
  const own = [
    "lib/rules/archive-policy.ts",
    "lib/rules/archive-policy-credentials.ts",
    "lib/rules/archive-policy-patterns.ts",
    "lib/rules/archive-policy.test.ts",
    "lib/rules/fixtures/policy-violations.ts",
    "lib/rules/fixtures/policy-clean.ts",
  ];

  it.each(own)("%s contains no credential or private key", async (file) => {
    const findings = await scanText(file, readFileSync(join(ROOT, file), "utf8"));
    expect(findings.filter((f) => f.rule === "credential" || f.rule === "private-key")).toEqual([]);
  });
});
