import { describe, expect, it } from "vitest";
import { matchesMention, mentionAt, mentionedNames, mentionSpans } from "./mentions";

describe("mentions", () => {
  it.each([
    ["@ada please look", ["ada"]],
    ["cc @Ada, @rita.", ["ada", "rita"]],
    ["(@sam) and @sam again", ["sam"]],
    ["@dot.name- ends a sentence", ["dot.name"]],
    ["mail ada@example.org or see /u/@ada", []],
    ["@@ada and @ and @-x", []],
    ["`@ada` in code is still a mention", ["ada"]],
  ])("%s → %j", (text, names) => {
    expect(mentionedNames(text)).toEqual(names);
  });

  it("says where each mention stands", () => {
    expect(mentionSpans("hi @ada.")).toEqual([{ start: 3, end: 7, name: "ada" }]);
  });

  it("finds the mention being typed at the caret", () => {
    expect(mentionAt("ask @ad", 7)).toEqual({ start: 4, query: "ad" });
    expect(mentionAt("ask @", 5)).toEqual({ start: 4, query: "" });
    expect(mentionAt("ada@ex", 6)).toBeNull();
    expect(mentionAt("ask @ada now", 12)).toBeNull();
  });

  it("offers a person by the start of their login or of any word of their display name", () => {
    const rita = { name: "rita", displayName: "Rita Levi-Montalcini" };
    expect(["ri", "levi", "r", "rita"].map((q) => matchesMention(rita, q))).toEqual([true, true, true, true]);
    expect(["ita", "mont", "x"].map((q) => matchesMention(rita, q))).toEqual([false, false, false]);
    expect(matchesMention({ name: "grace", displayName: "grace" }, "gr")).toBe(true);
  });
});
