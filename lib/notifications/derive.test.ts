import { describe, expect, it } from "vitest";
import type { ReviewRecord } from "@/lib/review/records";
import { deriveNotifications, type NoteActivity } from "./derive";

const REV = "a".repeat(40);
const who = (id: string) => ({ id, name: id });
const people = new Map(["ada", "rita", "sam", "grace"].map((n) => [n, who(n)]));
let clock = 0;
const at = () => new Date(Date.UTC(2026, 11, 1, 0, 0, clock++)).toISOString();
const id = (n: number) => n.toString(16).padStart(12, "0");

const thread = (n: number, by: string, text: string): ReviewRecord => ({
  v: 1,
  id: id(n),
  at: at(),
  by: who(by),
  kind: "thread",
  section: "decision",
  revision: REV,
  anchor: "",
  text,
});
const reply = (n: number, t: number, by: string, text: string): ReviewRecord => ({
  v: 1,
  id: id(n),
  at: at(),
  by: who(by),
  kind: "reply",
  thread: id(t),
  text,
});
const edit = (n: number, t: number, c: number, by: string, text: string): ReviewRecord => ({
  v: 1,
  id: id(n),
  at: at(),
  by: who(by),
  kind: "edit",
  thread: id(t),
  comment: id(c),
  text,
});

const note = (records: ReviewRecord[], extra: Partial<NoteActivity> = {}): NoteActivity => ({
  id: "AFN-001",
  title: "T",
  authors: ["ada"],
  records,
  publishes: [],
  ...extra,
});
const told = (activity: NoteActivity) =>
  deriveNotifications([activity], people)
    .map((n) => `${n.to}:${n.kind}:${n.id.slice(-1)}`)
    .sort();

describe("who is told of what", () => {
  it("an edit tells only the names it added; an unknown name no one", () => {
    expect(told(note([thread(1, "rita", "@sam look"), edit(2, 1, 1, "rita", "@sam and @grace and @nobody look")]))).toEqual([
      "grace:mention:2",
      "sam:mention:1",
    ]);
  });

  it("a reply tells every earlier speaker once, not the replier; a mention in it wins over the reply", () => {
    expect(told(note([thread(1, "rita", "x"), reply(2, 1, "ada", "y"), reply(3, 1, "sam", "@rita z")]))).toEqual([
      "ada:reply:3",
      "rita:mention:3",
      "rita:reply:2",
    ]);
  });

  it("a publish tells the authors and the note's reviewers, never its publisher; a self-mention tells no one", () => {
    const verdict: ReviewRecord = { v: 1, id: id(4), at: at(), by: who("sam"), kind: "verdict", revision: REV, verdict: "approve" };
    const activity = note([thread(1, "rita", "@rita me"), verdict], {
      authors: ["ada", "grace"],
      publishes: [{ commit: "f".repeat(40), at: at(), by: who("ada") }],
    });
    expect(told(activity)).toEqual(["ada:verdict:4", "grace:publish:f", "grace:verdict:4", "sam:publish:f"]);
  });
});
