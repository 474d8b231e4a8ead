import { NextRequest } from "next/server";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { refuseMalformedPath } from "@/lib/http/malformed-path";
import { decodeParam, hasMalformedEscape } from "./params";

describe("decodeParam", () => {
  it("decodes percent-escapes once", () => {
    expect(decodeParam("AFN-016")).toBe("AFN-016");
    expect(decodeParam("sparse%20attention")).toBe("sparse attention");
    expect(decodeParam("R%26D")).toBe("R&D");
    expect(decodeParam("%E0%A4%A4")).toBe("त");
    expect(decodeParam("100%2525")).toBe("100%25");
  });

  it("answers null, never throws, for a malformed escape", () => {
    for (const raw of ["%E0%A4", "%", "100%", "%zz", "%E0%A4%A", "%C0%80", "%ED%A0%80", "a%2"]) expect(decodeParam(raw), raw).toBeNull();
  });

  it("never throws, for any string, and round-trips what encodeURIComponent wrote", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        expect(() => decodeParam(s)).not.toThrow();
        if (s.isWellFormed()) expect(decodeParam(encodeURIComponent(s))).toBe(s);
      }),
      { numRuns: 500 },
    );
  });
});

describe("hasMalformedEscape", () => {
  it("finds a bad escape in any segment, and only then", () => {
    expect(hasMalformedEscape("/notes/%E0%A4")).toBe(true);
    expect(hasMalformedEscape("/api/studio/phases/%E0%A4/close")).toBe(true);
    expect(hasMalformedEscape("/tags/100%")).toBe(true);
    expect(hasMalformedEscape("/tags/100%25")).toBe(false);
    expect(hasMalformedEscape("/notes/AFN-016.md")).toBe(false);
    expect(hasMalformedEscape("/tags/%E0%A4%A4")).toBe(false);
  });
});

describe("refuseMalformedPath", () => {
  const at = (path: string, method = "GET") => new NextRequest(`http://site.test${path}`, { method });

  it("lets a path that decodes go on", () => {
    expect(refuseMalformedPath(at("/notes/AFN-016"))).toBeNull();
    expect(refuseMalformedPath(at("/tags/sparse%20attention"))).toBeNull();
  });

  it("answers 400 with what is wrong, as JSON for the API, and logs it", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const page = refuseMalformedPath(at("/notes/%E0%A4"));
      expect(page?.status).toBe(400);
      expect(await page?.text()).toContain("/notes/%E0%A4");
      const api = refuseMalformedPath(at("/api/studio/notes/%E0%A4", "PUT"));
      expect(api?.status).toBe(400);
      expect(await api?.json()).toMatchObject({ error: { status: 400, code: "bad-path" } });
      expect(warn).toHaveBeenCalledTimes(2);
      expect(String(warn.mock.calls[1]?.[0])).toMatch(/^refused PUT "\/api\/studio\/notes\/%E0%A4"/);
    } finally {
      warn.mockRestore();
    }
  });
});
