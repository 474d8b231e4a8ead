import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getContentStore } from "@/lib/working-copy/content-store";
import { commitWithGit } from "@/lib/testing/plain-git";
import { noteFile } from "@/lib/store/testing";
import { studioFixture } from "@/lib/testing/studio";
import { forgetReadSide } from "@/lib/read-model/read-side";
import { acceptedMain } from "./accepted-main";
import { publishedNoteAt } from "./pinned-note";
import { getPublishedHistory, getPublishedView, servedCommit } from "./published";

/**
 * What plain git may do to main and still be served: a published note does not leave by a deleted,
 * broken or draft file; a refused commit is never a published revision, even once undone; and a
 * push of any length has each of its commits judged.
 */

let f: Awaited<ReturnType<typeof studioFixture>>;
beforeAll(async () => {
  f = await studioFixture();
  await getContentStore(); // seeds main
});
afterAll(() => f.cleanup());

const git = (...args: string[]) => execFileSync("git", ["--git-dir", f.gitdir, ...args], { encoding: "utf8" }).trim();
const tip = () => git("rev-parse", "refs/heads/main");
const judge = async () => acceptedMain(await getContentStore(), tip());
// As git holds it, to the last newline: putting a file back is putting back the same blob.
const fileAt = (commit: string, file: string) => execFileSync("git", ["--git-dir", f.gitdir, "show", `${commit}:${file}`], { encoding: "utf8" });

describe("a published note leaves main only by retraction or supersession", () => {
  it.each([
    ["deletes a verified note's file", "notes/AFN-004.md", () => null, /AFN-004 is published \(verified checkpoint\) and this commit deletes its file/],
    ["breaks a verified note's front matter", "notes/AFN-004.md", (t: string) => t.replace(/^status: .*$/m, "status: [broken"), /AFN-004 is published .* no longer reads as AFN-004/],
    ["makes a published hypothesis a draft", "notes/AFN-021.md", (t: string) => t.replace(/^status: .*$/m, "status: draft"), /does not go back to draft/],
  ])("a plain-git commit that %s is refused and not served; putting the file back is served", async (_, file, change, says) => {
    const before = (await judge()).served;
    const text = fileAt(before, file);
    const id = path.basename(file, ".md");
    commitWithGit(f.gitdir, { [file]: change(text) });
    const refused = await judge();
    expect(refused.served).toBe(before);
    expect(refused.refusal).toMatchObject({ commit: tip(), file, rule: "status" });
    expect(refused.refusal?.message).toMatch(says);
    expect((await getPublishedView()).byId.has(id)).toBe(true);

    commitWithGit(f.gitdir, { [file]: text });
    expect(await judge()).toEqual({ served: tip(), refusal: null });
    expect((await getPublishedView()).byId.has(id)).toBe(true);
  });
});

describe("a refused commit", () => {
  it("is never a published revision: not pinned by ?rev=, not in the note's history, even after a revert", async () => {
    const before = (await judge()).served;
    const file = "notes/AFN-016.md";
    const text = fileAt(before, file);
    const historyBefore = (await getPublishedHistory("AFN-016")).map((r) => r.commit);
    commitWithGit(f.gitdir, { [file]: text.replace(/^title: .*$/m, "title: Retitled by nobody's approval") });
    const refusedCommit = tip();
    expect((await judge()).refusal).toMatchObject({ commit: refusedCommit, rule: "verified-change" });
    commitWithGit(f.gitdir, { [file]: text });
    expect((await judge()).served).toBe(tip());

    const pinned = await publishedNoteAt("AFN-016", refusedCommit);
    expect(pinned).toEqual({ ok: false, problem: expect.stringMatching(/refused by the archive's rules and never published/) });
    expect(await publishedNoteAt("AFN-016", refusedCommit.slice(0, 10))).toMatchObject({ ok: false });
    // The history readers see is what it was: neither the refused title nor the revert that put it back.
    expect((await getPublishedHistory("AFN-016")).map((r) => r.commit)).toEqual(historyBefore);
    // And the page's twins and the cache name the commit the page is built from, not the refused tip.
    expect(await servedCommit()).toBe(tip());
  });

  it("is remembered across a restart (DATA_DIR/main-acceptance.json): still not pinned, the history unchanged", async () => {
    const before = (await judge()).served;
    const file = "notes/AFN-003.md";
    const text = fileAt(before, file);
    commitWithGit(f.gitdir, { [file]: text.replace(/^title: .*$/m, "title: Retitled once more by nobody's approval") });
    const refusedCommit = tip();
    expect((await judge()).refusal).toMatchObject({ commit: refusedCommit });
    commitWithGit(f.gitdir, { [file]: text });
    expect((await judge()).served).toBe(tip());
    const history = (await getPublishedHistory("AFN-003")).map((r) => r.commit);

    forgetReadSide(); // what a restart forgets: every judgement but the kept file's
    expect(await publishedNoteAt("AFN-003", refusedCommit)).toMatchObject({ ok: false, problem: expect.stringMatching(/refused/) });
    expect((await getPublishedHistory("AFN-003")).map((r) => r.commit)).toEqual(history);
  });

  it("what it changed that a later commit kept reached readers with that later commit: history and last change name it", async () => {
    const before = (await judge()).served;
    const text = fileAt(before, "notes/AFN-021.md");
    const edited = text.replace(/^title: .*$/m, "title: Edited beside a refused deletion");
    // One commit: a fine edit of a hypothesis and a deletion of a verified note (refused for the deletion).
    commitWithGit(f.gitdir, { "notes/AFN-021.md": edited, "notes/AFN-010.md": null });
    const refusedCommit = tip();
    expect((await judge()).served).toBe(before);
    // The next commit puts AFN-010 back only: served, with AFN-021's edit, which readers now see first.
    commitWithGit(f.gitdir, { "notes/AFN-010.md": fileAt(before, "notes/AFN-010.md") });
    const shown = tip();
    expect((await judge()).served).toBe(shown);
    const [newest] = await getPublishedHistory("AFN-021");
    expect(newest).toMatchObject({ commit: shown, note: { title: "Edited beside a refused deletion" } });
    expect((await getPublishedHistory("AFN-021")).map((r) => r.commit)).not.toContain(refusedCommit);
    expect(await publishedNoteAt("AFN-021", shown)).toMatchObject({ ok: true, note: { title: "Edited beside a refused deletion" } });
    const { lastChange } = await import("./last-change");
    expect((await lastChange(await getPublishedView(), "AFN-021"))?.commit).toBe(shown);
  });

  it("while main's tip is refused, the served commit is the last accepted one", async () => {
    const before = (await judge()).served;
    commitWithGit(f.gitdir, { "notes/AFN-010.md": null });
    expect(tip()).not.toBe(before);
    expect(await servedCommit()).toBe(before);
    commitWithGit(f.gitdir, { "notes/AFN-010.md": fileAt(before, "notes/AFN-010.md") });
    expect(await servedCommit()).toBe(tip());
  });
});

describe("a long push", () => {
  it("has every commit judged: a promotion nobody approved, under 600 empty commits, is refused", async () => {
    const before = (await judge()).served;
    const text = fileAt(before, "notes/AFN-021.md");
    commitWithGit(f.gitdir, { "notes/AFN-021.md": text.replace(/^status: hypothesis$/m, "status: verified-checkpoint") });
    // 600 empty commits on top, in one fast-import stream into the repository (600 pushes would take minutes).
    let stream = "";
    for (let i = 1; i <= 600; i++) {
      stream += `commit refs/heads/main\ncommitter Agent <a@example.org> ${1_700_000_000 + i} +0000\ndata <<EOF\nempty ${i}\nEOF\n${i === 1 ? `from ${tip()}\n` : ""}\n`;
    }
    execFileSync("git", ["--git-dir", f.gitdir, "fast-import", "--quiet"], { input: stream });
    const judged = await judge();
    expect(judged.served).toBe(before);
    expect(judged.refusal).toMatchObject({ file: "notes/AFN-021.md", rule: "review" });
    expect((await getPublishedView()).byId.get("AFN-021")?.status).toBe("hypothesis");
    // Put back, main is served again.
    commitWithGit(f.gitdir, { "notes/AFN-021.md": text });
    expect(await judge()).toEqual({ served: tip(), refusal: null });
  });
});

describe("what else a landing may not do", () => {
  it("swap an image under its old name (no note file changes): refused, the old bytes stay served", async () => {
    const square = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>\n';
    const blob = execFileSync("git", ["hash-object", "--stdin"], { input: square, encoding: "utf8" }).trim();
    const image = `assets/AFN-950/${blob}.svg`;
    const note = noteFile("AFN-950", "A note with an image.", {
      status: "hypothesis",
      phase: "6 architecture",
      sections: {
        decision: "Keep AFN-950 transactional.",
        invariant: "No reader sees half a write.",
        rejectedShortcut: "Publishing each part as soon as it is ready.",
        evidence: `- a test that fails when the lock is removed\n\n![A square](${image})`,
        claimBoundary: "Says nothing about speed.",
        notes: "",
      },
    });
    commitWithGit(f.gitdir, { "notes/AFN-950.md": note, [image]: square });
    expect(await judge()).toEqual({ served: tip(), refusal: null });
    const served = tip();

    commitWithGit(f.gitdir, { [image]: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>\n' });
    const judged = await judge();
    expect(judged.served).toBe(served);
    expect(judged.refusal).toMatchObject({ file: image, rule: "images", message: expect.stringMatching(/its name says blob/) });
    // Images are read from the served commit (lib/http/serve-asset.ts).
    const bytes = await (await getContentStore()).readBytes((await servedCommit())!, image);
    expect(Buffer.from(bytes!).toString("utf8")).toBe(square);
    commitWithGit(f.gitdir, { [image]: square });
    expect((await judge()).served).toBe(tip());
  });

  it("delete a phase: refused, naming the phase and what to do instead", async () => {
    const file = "phases/6-architecture.yaml";
    const text = fileAt(tip(), file);
    commitWithGit(f.gitdir, { [file]: null });
    expect((await judge()).refusal).toMatchObject({ file, rule: "phase", message: expect.stringMatching(/deletes phase .*never deleted/) });
    commitWithGit(f.gitdir, { [file]: text });
    expect(await judge()).toEqual({ served: tip(), refusal: null });
  });
});
