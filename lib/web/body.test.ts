import { describe, expect, it } from "vitest";
import { readCapped } from "./body";

/** A request whose body arrives in chunks, with no Content-Length (as a chunked upload does). */
function streamed(chunks: number[], headers: Record<string, string> = {}): { request: Request; pulled: () => number } {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const size = chunks[pulled++];
      if (size === undefined) controller.close();
      else controller.enqueue(new Uint8Array(size).fill(97));
    },
  });
  return { request: new Request("http://x/upload", { method: "POST", body, headers, duplex: "half" } as RequestInit), pulled: () => pulled };
}

describe("readCapped", () => {
  it("gives the whole body when it stays within the cap", async () => {
    const { request } = streamed([3, 4]);
    expect((await readCapped(request, 7))?.toString()).toBe("aaaaaaa");
  });

  it("stops reading as soon as the body passes the cap, without a Content-Length to go by", async () => {
    const { request, pulled } = streamed([4, 4, 4, 4, 4]);
    expect(await readCapped(request, 6)).toBeNull();
    expect(pulled()).toBeLessThan(5);
  });

  it("refuses a body whose declared length is over the cap before reading any of it", async () => {
    const { request, pulled } = streamed([1], { "content-length": "1000" });
    expect(await readCapped(request, 10)).toBeNull();
    expect(pulled()).toBeLessThanOrEqual(1);
  });

  it("reads an empty body as no bytes", async () => {
    expect((await readCapped(new Request("http://x/", { method: "POST" }), 10))?.length).toBe(0);
  });
});
