import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fsck, git, tempDir } from "@/lib/store/testing";

// config() reads the environment once per process: point it at a fresh folder before the first use.
const dataDir = tempDir("app-store");
process.env.CONTENT_REPO = path.join(dataDir, "nested", "content.git");
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("getContentStore", () => {
  it("creates the configured repository on first use, seeded from the project's content/, and reuses one store", async () => {
    const { getContentStore } = await import("./content-store");
    const [a, b] = await Promise.all([getContentStore(), getContentStore()]);
    expect(a).toBe(b);
    expect(a).toBe(await getContentStore());
    expect(a.gitdir).toBe(process.env.CONTENT_REPO);

    const files = fs
      .readdirSync(path.resolve("content", "notes"))
      .filter((f) => f.endsWith(".md"))
      .sort();
    const snap = await a.snapshot("main");
    expect(snap.notes.map((n) => `${n.id}.md`)).toEqual(files);
    expect(await a.readFile("main", "site.yaml")).toBe(fs.readFileSync(path.resolve("content", "site.yaml"), "utf8"));
    expect(git(a.gitdir, "rev-parse", "--is-bare-repository")).toBe("true");
    expect(fsck(a.gitdir)).toBe("");
  });
});
