import YAML from "yaml";
import { z } from "zod";
import { noteIdSchema } from "@/lib/notes/schema";
import { slug } from "@/lib/web/urls";

/**
 * A phase: one stretch of work that notes name in their `phase` field. Phases are content, one
 * file each (`phases/<slug>.yaml` in the content repository), so their closeout record is in git
 * beside the notes it counts.
 */

export const PHASE_STATUSES = ["open", "closed"] as const;
export type PhaseStatus = (typeof PHASE_STATUSES)[number];

const day = z.iso.date("a date like 2026-12-02");
const words = (what: string) => z.string().trim().min(1, `${what} is empty`).max(2000);

/** The closeout record: the decision delta a phase closes with. */
export const closeoutSchema = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("delta"),
      // Notes of this phase that became verified while it was open.
      notes: z.array(noteIdSchema).min(1, "a delta names at least one note"),
      by: words("by"),
      at: day,
    })
    .strict(),
  z
    .object({
      kind: z.literal("no-delta"),
      by: words("by"),
      at: day,
      why: z.string().trim().min(20, "say in words (at least 20 characters) why this phase adds no decision").max(2000),
    })
    .strict(),
]);
export type Closeout = z.infer<typeof closeoutSchema>;

export const reopeningSchema = z.object({ by: words("by"), at: day, reason: words("reason") }).strict();

export const phaseSchema = z
  .object({
    // What notes name in their `phase` field; with the slug, the phase's identity, never changed.
    name: z.string().trim().min(1, "name is empty").max(120),
    // The name shown to people when the phase was renamed (the studio's Rename); absent: the name.
    title: z.string().trim().min(1, "title is empty").max(120).optional(),
    slug: z.string().regex(/^[\p{Ll}\p{N}]+(?:-[\p{Ll}\p{N}]+)*$/u, "slug: lower-case words joined by '-'"),
    status: z.enum(PHASE_STATUSES, { error: "status must be open or closed" }),
    description: z.string().trim().max(2000).default(""),
    opened: day.optional(),
    closed: day.optional(),
    closeout: closeoutSchema.optional(),
    reopenings: z.array(reopeningSchema).default([]),
  })
  .strict()
  .refine((p) => p.slug === slug(p.name), { message: "slug must be the name's URL form", path: ["slug"] })
  .refine((p) => p.status === "open" || (p.closed && p.closeout), {
    message: "a closed phase needs its closed date and its closeout record",
    path: ["closeout"],
  })
  .refine((p) => p.status === "closed" || !p.closed, { message: "an open phase has no closed date", path: ["closed"] });
export type Phase = z.infer<typeof phaseSchema>;
export type PhaseInput = z.input<typeof phaseSchema>;

/** The name a phase is shown by: its title after a rename, else the name notes carry. */
export const phaseTitle = (phase: Pick<Phase, "name" | "title">): string => phase.title ?? phase.name;

/**
 * The renamed phases of one commit: the name notes carry → the title it is shown by. Only phases
 * with a title are in it (so the seed's is empty), and it is plain data, so a page hands it to a
 * client component as it is.
 */
export type PhaseTitles = Readonly<Record<string, string>>;

export function phaseTitlesOf(phases: readonly Pick<Phase, "name" | "title">[]): PhaseTitles {
  return Object.fromEntries(phases.flatMap((p) => (p.title !== undefined && p.title !== p.name ? [[p.name, p.title]] : [])));
}

/** How a note's `phase` (a phase's name) is shown: its phase's title when renamed, else the name as written. */
export const shownPhase = (titles: PhaseTitles, name: string): string => (Object.hasOwn(titles, name) ? titles[name]! : name);

/** A renamed phase's title as the agent formats' `phase_title` beside `phase`: nothing for a phase shown by its name. */
export function phaseTitleField(titles: PhaseTitles, name: string): { phase_title?: string } {
  const shown = shownPhase(titles, name);
  return shown === name ? {} : { phase_title: shown };
}

/** `Agents in operation (the note's phase field says "agent operations")` for a renamed phase (a note's `.txt`, field diffs); else the name. */
export function phaseWords(titles: PhaseTitles, name: string): string {
  const shown = shownPhase(titles, name);
  return shown === name ? name : `${shown} (the note's phase field says "${name}")`;
}

export const PHASES_DIR = "phases";
export const phasePath = (phaseSlug: string) => `${PHASES_DIR}/${phaseSlug}.yaml`;

export type PhaseParse = { ok: true; phase: Phase } | { ok: false; errors: { field: string; message: string }[] };

export function parsePhase(source: string): PhaseParse {
  let data: unknown;
  try {
    data = YAML.parse(source);
  } catch (e) {
    return { ok: false, errors: [{ field: "file", message: (e as Error).message.split("\n")[0] ?? "invalid YAML" }] };
  }
  const result = phaseSchema.safeParse(data);
  if (result.success) return { ok: true, phase: result.data };
  return { ok: false, errors: result.error.issues.map((i) => ({ field: i.path.join(".") || "phase", message: i.message })) };
}

export function serializePhase(input: PhaseInput): string {
  const phase = phaseSchema.parse(input);
  return YAML.stringify(phase, { lineWidth: 0 });
}
