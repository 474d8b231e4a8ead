import { describe, expect, it } from "vitest";
import type { PublishedView } from "@/lib/content/published";
import { answerBytes } from "./answer-bytes";

const view = (commit: string) => ({ commit }) as unknown as PublishedView;
const big = JSON.stringify({ entries: Array.from({ length: 500 }, (_, i) => ({ id: `AFN-${i}`, title: "Keep state transactional" })) });

describe("agent document bytes", () => {
  it("are built once per commit and URL, and again for a new commit", async () => {
    let builds = 0;
    const make = async () => (builds++, big);
    const first = view("a".repeat(40));
    const [one, two] = await Promise.all([answerBytes(first, "index.json", make), answerBytes(first, "index.json", make)]);
    expect(builds).toBe(1);
    expect(one).toBe(two);
    await answerBytes(first, "index.json", make);
    expect(builds).toBe(1);
    await answerBytes(view("b".repeat(40)), "index.json", make);
    expect(builds).toBe(2);
  });

  it("keep the headers a build set with its bytes, so a hit answers them too", async () => {
    let builds = 0;
    const v = view("e".repeat(40));
    const make = async () => (builds++, { text: big, headers: { Link: '<http://x/agents/index.json?cursor=AFN-030>; rel="next"' } });
    expect((await answerBytes(v, "index.json", make))?.headers).toEqual({ Link: '<http://x/agents/index.json?cursor=AFN-030>; rel="next"' });
    const hit = await answerBytes(v, "index.json", async () => (builds++, big));
    expect(builds).toBe(1);
    expect(hit?.headers?.Link).toMatch(/rel="next"$/);
    expect(hit?.raw.toString()).toBe(big);
  });

  it("does not keep a refusal", async () => {
    let builds = 0;
    const v = view("c".repeat(40));
    expect(await answerBytes(v, "search", async () => (builds++, null))).toBeNull();
    expect((await answerBytes(v, "search", async () => (builds++, "ok")))?.raw.toString()).toBe("ok");
    expect(builds).toBe(2);
  });

  it("keep at most about 24 MB per commit, the least recently used going first", async () => {
    const v = view("f".repeat(40));
    let builds = 0;
    const body = (n: number) => async () => (builds++, String(n).padEnd(2 * 1024 * 1024, "."));
    for (let i = 0; i < 20; i++) await answerBytes(v, `export-${i}`, body(i));
    await answerBytes(v, "export-10", body(10)); // a hit: now the most recently used
    expect(builds).toBe(20);
    await answerBytes(v, "export-0", body(0)); // long gone: built again
    expect(builds).toBe(21);
    await answerBytes(v, "export-10", body(10));
    await answerBytes(v, "export-19", body(19));
    expect(builds).toBe(21);
  });

  it("answer a body heavier than the whole bound, and build it again next time rather than keep it", async () => {
    const v = view("9".repeat(40));
    let builds = 0;
    const huge = async () => (builds++, "x".repeat(25 * 1024 * 1024));
    expect((await answerBytes(v, "export", huge))?.raw.length).toBe(25 * 1024 * 1024);
    await answerBytes(v, "export", huge);
    expect(builds).toBe(2);
  });
});
