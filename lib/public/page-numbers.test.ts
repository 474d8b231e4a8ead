import { describe, expect, it } from "vitest";
import { paginate, PAGE_SIZE } from "@/lib/public/page-numbers";

const list = Array.from({ length: 2 * PAGE_SIZE + 7 }, (_, i) => i);

describe("paginate", () => {
  it("shows at most one page of records, from the page asked for", () => {
    expect(paginate(list, undefined).items).toEqual(list.slice(0, PAGE_SIZE));
    expect(paginate(list, "3")).toMatchObject({ items: list.slice(2 * PAGE_SIZE), page: 3, pages: 3, total: list.length, problem: null });
  });

  it("says what is wrong with a page that does not exist, and shows the first", () => {
    expect(paginate(list, "9")).toMatchObject({ page: 1, problem: "There is no page 9: there are 3 pages." });
    expect(paginate(list, "two").problem).toMatch(/not a page number/);
    expect(paginate(list, "0").problem).toMatch(/not a page number/);
    expect(paginate([], "1")).toMatchObject({ items: [], pages: 1, problem: null });
  });
});
