import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseNote, serializeNote } from "@/lib/notes/markdown";
import { ensureContentRepo } from "@/lib/store";
import { git, tempDir } from "@/lib/store/testing";
import { checkRepository } from "./check";

/** content:check holds Mermaid diagrams committed with plain git to the limits the studio and the pages apply. */

const CONTENT = path.resolve(__dirname, "../../content");
let bare: string;
let work: string;

beforeAll(async () => {
  bare = path.join(tempDir("check-diagrams"), "content.git");
  await ensureContentRepo(bare, CONTENT);
  work = tempDir("check-diagrams-work");
  git(work, "clone", "--quiet", bare, ".");
});

function commitDraft(branch: string, evidence: string) {
  git(work, "checkout", "--quiet", "-B", branch, "origin/main");
  const file = path.join(work, "notes", "AFN-001.md");
  const parsed = parseNote(fs.readFileSync(file, "utf8"));
  if (!parsed.ok) throw new Error("seed note");
  fs.writeFileSync(file, serializeNote({ ...parsed.note, sections: { ...parsed.note.sections, evidence } }));
  git(work, "add", "-A");
  git(work, "commit", "--quiet", "-m", "A diagram added with plain git");
  git(work, "push", "--quiet", "--force", "origin", `HEAD:refs/heads/${branch}`);
  return { file: fs.readFileSync(file, "utf8"), check: checkRepository(bare, { ref: `refs/heads/${branch}` }) };
}

const fan = (k: number) => `${Array.from({ length: k }, (_, i) => `a${i}`).join(" & ")} --> ${Array.from({ length: k }, (_, i) => `b${i}`).join(" & ")}`;

describe("content:check on Mermaid diagrams committed with plain git", () => {
  it("reports a fan-out that draws more links than a page draws, at the diagram's line in the file", async () => {
    const { file, check } = commitDraft("drafts/AFN-001", `Who reads what:\n\n\`\`\`mermaid\nflowchart LR\n${fan(30)}\n\`\`\``);
    const { findings } = await check;
    const fenceLine = file.split("\n").indexOf("```mermaid") + 1;
    expect(findings).toEqual([
      expect.objectContaining({
        file: "notes/AFN-001.md",
        line: fenceLine,
        field: "sections.evidence",
        rule: "diagrams",
        message: expect.stringMatching(/^Evidence: the Mermaid diagram on line 3 is too large to draw: it draws 900 links, more than the 120 a page draws/),
      }),
    ]);
  });

  it("passes the same links drawn as diagrams a page draws", async () => {
    const { check } = commitDraft("drafts/AFN-001", `Who reads what:\n\n\`\`\`mermaid\nflowchart LR\n${fan(10)}\n\`\`\``);
    expect((await check).findings).toEqual([]);
  });
});
