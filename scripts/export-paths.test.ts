import { describe, expect, it } from "vitest";
import { exported, fileFor, linksIn, staticHtml } from "./export-paths";

describe("which file holds a URL", () => {
  it("writes pages as .html files, the trailing-slash pages as index.html, and formats under their own names", () => {
    expect(fileFor("/", "", "text/html; charset=utf-8")).toBe("index.html");
    expect(fileFor("/agents/", "", "text/html; charset=utf-8")).toBe("agents/index.html");
    expect(fileFor("/notes/AFN-016", "", "text/html; charset=utf-8")).toBe("notes/AFN-016.html");
    expect(fileFor("/notes/AFN-016/history", "", "text/html")).toBe("notes/AFN-016/history.html");
    expect(fileFor("/notes/AFN-016.md", "", "text/markdown; charset=utf-8")).toBe("notes/AFN-016.md");
    expect(fileFor("/agents/index.md", "", "text/markdown; charset=utf-8")).toBe("agents/index.md");
    expect(fileFor("/tags/caf%C3%A9", "", "text/html")).toBe("tags/café.html");
  });

  it("puts a status filter or an index cursor under _query/, where nginx maps the query back", () => {
    expect(fileFor("/", "?status=hypothesis", "text/html")).toBe("_query/status=hypothesis/index.html");
    expect(fileFor("/index.md", "?status=hypothesis", "text/markdown")).toBe("_query/status=hypothesis/index.md");
    expect(fileFor("/agents/index.json", "?cursor=AFN-500", "application/json")).toBe("_query/cursor=AFN-500/agents/index.json");
  });

  it("refuses a non-HTML answer without an extension, naming the path", () => {
    expect(() => fileFor("/agents/mcp-ish", "", "application/json")).toThrow(/\/agents\/mcp-ish answered application\/json/);
  });

  it("leaves out the studio, the API, sign-in, MCP, search results and the non-canonical /agents", () => {
    for (const p of [
      "/studio",
      "/studio/notes/AFN-001",
      "/api/studio/notes",
      "/api/auth/signin",
      "/sign-in",
      "/agents/mcp",
      "/agents/search.json",
      "/agents",
    ]) {
      expect(exported(p, ""), p).toBe(false);
    }
    expect(exported("/search", "?q=sparse")).toBe(false);
    expect(exported("/", "?status=../../etc")).toBe(false);
    expect(exported("/notes/AFN-016", "")).toBe(true);
    expect(exported("/", "?status=hypothesis")).toBe(true);
    expect(exported("/", "?page=2")).toBe(true);
    expect(exported("/", "?status=hypothesis&view=table")).toBe(false);
    expect(exported("/_next/static/css/a.css", "")).toBe(true);
  });
});

describe("links a response names", () => {
  const origin = "https://notes.example.org";
  it("finds href and src in HTML, relative or on the site, and nothing foreign", () => {
    const html =
      '<a href="/notes/AFN-001">x</a><link href="https://notes.example.org/feed.xml"><img src="/icon.svg"><a href="https://elsewhere.example/x">y</a><a href="#top">z</a><a href="/?status=hypothesis&amp;x=1">s</a>';
    const found = linksIn(html, "text/html", new URL("https://notes.example.org/"), origin).map((u) => `${u.pathname}${u.search}`);
    expect(found).toEqual(["/notes/AFN-001", "/feed.xml", "/icon.svg", "/?status=hypothesis&x=1"]);
  });

  it("finds every copy a responsive image names in srcset, since the browser fetches one of those", () => {
    const html =
      '<img src="/assets/AFN-022/ab12.png" srcset="/assets/AFN-022/ab12-640w.png 640w, /assets/AFN-022/ab12-1280w.png 1280w, /assets/AFN-022/ab12.png 2000w" sizes="42rem">';
    const found = linksIn(html, "text/html", new URL(`${origin}/notes/AFN-022`), origin).map((u) => u.pathname);
    expect(found).toEqual(["/assets/AFN-022/ab12.png", "/assets/AFN-022/ab12-640w.png", "/assets/AFN-022/ab12-1280w.png", "/assets/AFN-022/ab12.png"]);
  });

  it("finds the site's absolute URLs in Markdown, without the sentence's full stop or a URL template", () => {
    const md = `> For agents: the index of this archive is ${origin}/llms.txt\n\nSee ${origin}/notes/AFN-016.md. And [x](${origin}/tags/kv-cache.md) or ${origin}/agents/capsules/{id}.md and \`${origin}/tags/<tag>.md\``;
    const found = linksIn(md, "text/markdown", new URL(`${origin}/index.md`), origin).map((u) => u.pathname);
    expect(found).toEqual(["/llms.txt", "/notes/AFN-016.md", "/tags/kv-cache.md"]);
  });

  it("finds a sitemap's <loc> and a feed's links, not an Atom category's scheme", () => {
    const xml = `<url><loc>${origin}/notes/AFN-001</loc></url><link href="${origin}/notes/AFN-002"/><category scheme="${origin}/tags/" term="x"/>`;
    const found = linksIn(xml, "application/atom+xml; charset=utf-8", new URL(`${origin}/feed.xml`), origin).map((u) => u.pathname);
    expect(found).toEqual(["/notes/AFN-001", "/notes/AFN-002"]);
  });

  it("finds url() in CSS", () => {
    const found = linksIn("@font-face{src:url(../media/a.woff2) format('woff2')}", "text/css", new URL(`${origin}/_next/static/css/x.css`), origin);
    expect(found.map((u) => u.pathname)).toEqual(["/_next/static/media/a.woff2"]);
  });
});

describe("an exported page", () => {
  it("holds no script, no script preload and no nonce, and keeps everything else", () => {
    const html =
      '<head><link rel="stylesheet" href="/_next/static/css/a.css" nonce="abc"><link rel="preload" as="script" href="/_next/static/chunks/b.js"><script src="/_next/static/chunks/c.js" nonce="abc" async=""></script></head><body><main>Text</main><script nonce="abc">self.__next_f.push([1,"x"])</script></body>';
    const out = staticHtml(html);
    expect(out).not.toMatch(/<script|as="script"|nonce=/);
    expect(out).toContain('<link rel="stylesheet" href="/_next/static/css/a.css">');
    expect(out).toContain("<main>Text</main>");
  });
});
