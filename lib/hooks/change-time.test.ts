import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ChangeTime } from "@/components/studio/change-time";
import { RevisionDate } from "@/components/revision-date";
import { changeTimeLabel, exactTime, publicDate } from "./change-time";

/** Review comments, verdicts and the studio list say when, as a reader expects and as the public pages do. */

const at = "2026-12-03T17:24:05.000Z";
const now = Date.parse(at);
const HOUR = 3_600_000;
const text = (html: string) => html.replace(/<[^>]+>/g, "");

describe("a change's time in the studio", () => {
  it("is relative while recent", () => {
    expect(changeTimeLabel(at, now + 20_000)).toBe("just now");
    expect(changeTimeLabel(at, now + 2 * HOUR)).toBe("2 h ago");
    expect(changeTimeLabel(at, now + 30 * HOUR)).toBe("yesterday");
  });

  it("is the date as the public pages write it once older, and the exact time as their history does", () => {
    expect(changeTimeLabel(at, now + 5 * 24 * HOUR)).toBe("3 December 2026");
    expect(publicDate(at)).toBe(text(renderToStaticMarkup(createElement(RevisionDate, { iso: at }))));
    expect(exactTime(at)).toBe(text(renderToStaticMarkup(createElement(RevisionDate, { iso: at, withTime: true }))));
    expect(exactTime(at)).toBe("3 December 2026, 17:24 UTC");
  });

  it("renders a <time> with the instant in datetime and the exact time in its title, the date before the clock is known", () => {
    const html = renderToStaticMarkup(createElement(ChangeTime, { iso: at }));
    expect(html).toBe(`<time dateTime="${at}" title="3 December 2026, 17:24 UTC">3 December 2026</time>`);
    expect(html).not.toContain("2026-12-03 17:24");
  });
});
