import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PublishedView } from "@/lib/content/published";

/**
 * Next loads a module once per bundle layer (the proxy, pages, route handlers, instrumentation), so
 * the read side keeps its per-process state in one object on globalThis (./read-side.ts). Here two
 * copies of a module stand for two layers: `vi.resetModules()` makes the next import a new copy,
 * with module-level variables of its own, as a second layer's would be.
 */

/** A fresh copy of `load`'s module, as another bundle layer would load it. */
async function anotherCopy<T>(load: () => Promise<T>): Promise<T> {
  vi.resetModules();
  return load();
}

afterEach(async () => (await import("./read-side")).forgetReadSide());

describe("the read side's state", () => {
  it("is one object per process, the same in every copy of the module", async () => {
    const first = await anotherCopy(() => import("./read-side"));
    const second = await anotherCopy(() => import("./read-side"));
    expect(second).not.toBe(first);
    const feeds = (first.readSide().feeds ??= new Map());
    expect(second.readSide()).toBe(first.readSide());
    expect(second.readSide().feeds).toBe(feeds);
    // Forgotten (a test's new process) by either copy, for both.
    second.forgetReadSide();
    expect(first.readSide().feeds).toBeUndefined();
  });

  it("holds what one layer's copy of a cache keeps for the other's: rendered sections, MCP answers", async () => {
    const pageLayer = await anotherCopy(() => import("@/lib/render/markdown"));
    const feedLayer = await anotherCopy(() => import("@/lib/render/markdown"));
    const key = pageLayer.sectionKey("Kept *once*.");
    pageLayer.keepSection(key, "<p>kept</p>");
    expect(feedLayer.keptSection(key)).toBe("<p>kept</p>");

    const route = await anotherCopy(() => import("@/lib/agents/mcp-answers"));
    const proxy = await anotherCopy(() => import("@/lib/agents/mcp-answers"));
    const call = { key: "commit origin call", id: 1 };
    route.keepAnswer(call, 200, "application/json", JSON.stringify({ result: { content: [] }, jsonrpc: "2.0", id: 1 }));
    const answer = proxy.keptAnswer({ ...call, id: "theirs" }, "commit");
    expect(await answer?.json()).toEqual({ result: { content: [] }, jsonrpc: "2.0", id: "theirs" });
  });

  it("gives search the same copy of a note in every layer, so the worker is not told it changed", async () => {
    const pageLayer = await anotherCopy(() => import("@/lib/search"));
    const routeLayer = await anotherCopy(() => import("@/lib/search"));
    const note = { id: "AFN-900", title: "A note", phase: "6 architecture" };
    const view = { notes: [note], byId: new Map([[note.id, note]]) } as unknown as PublishedView;
    const titles = { "6 architecture": "Six: the architecture" };
    const seen = pageLayer.searchView(view, titles);
    expect(seen.notes[0]!.phase).toContain("Six: the architecture");
    expect(routeLayer.searchView(view, titles)).toBe(seen);
    // A view of the next commit holding the same note object: the same copy, not a new one.
    const next = { notes: [note], byId: new Map([[note.id, note]]) } as unknown as PublishedView;
    expect(routeLayer.searchView(next, titles).notes[0]).toBe(seen.notes[0]);
  });

  it("is the only state the read side's modules keep on globalThis", () => {
    // A cache a module keeps under a key of its own, or in a module-level variable, is one copy per
    // bundle layer or another registry to find: each takes its slot in ./read-side.ts instead.
    const folders = ["lib/content", "lib/read-model", "lib/search", "lib/public", "lib/render", "lib/agents", "lib/http"];
    const files = folders.flatMap((folder) =>
      fs
        .readdirSync(folder, { recursive: true, encoding: "utf8" })
        .filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".test.ts"))
        .map((f) => path.join(folder, f)),
    );
    files.push("proxy.ts", "instrumentation.ts");
    const holding = files.filter((file) => /globalThis|Symbol\.for\(/.test(fs.readFileSync(file, "utf8")));
    expect(holding).toEqual([path.join("lib", "read-model", "read-side.ts")]);
  });
});
