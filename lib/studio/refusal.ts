import { ApiError, type Where } from "@/lib/rules/api-errors";
import type { WriteFinding } from "@/lib/rules/accept-write";
import { fieldOfPath } from "@/lib/validations/note";

/**
 * The acceptance function's findings as the studio API answers them (422). The code says which
 * kind of rule refused first — the editor reacts to it (a schema problem, an unknown phase, a
 * boundary that needs a reason, the archive policy) — and `where`/`unmet` list every finding.
 */

export function whereOf(f: WriteFinding): Where {
  if (f.rule === "archive-policy") {
    return { field: fieldOfPath(f.field.split(".")), line: f.line, column: f.column, rule: f.policy, message: f.message, excerpt: f.excerpt };
  }
  return f.line ? { field: f.field, line: f.line, message: f.message } : { field: f.field, message: f.message };
}

export const unmetOf = (findings: readonly WriteFinding[]) =>
  findings.map((f) => (f.rule === "archive-policy" ? `${fieldOfPath(f.field.split("."))} line ${f.line}: ${f.message}` : f.message));

const list = (where: readonly Where[]) => where.map((p) => `${p.field}${p.line ? ` line ${p.line}` : ""}: ${p.message}`).join("; ");

/** A create or a save refused: invalid note, unknown phase, boundary without a reason, or the archive policy. */
export function editRefused(id: string, findings: readonly WriteFinding[], isNew: boolean): ApiError {
  const has = (rule: WriteFinding["rule"]) => findings.filter((f) => f.rule === rule);
  const where = findings.map(whereOf);
  const schema = has("schema");
  if (schema.length) {
    const what = isNew ? "the note is not valid" : `${id} is not valid yet`;
    return new ApiError(422, "invalid-note", `${what}: ${list(schema.map(whereOf))}`, { where });
  }
  const phase = has("phase");
  if (phase.length) return new ApiError(422, "unknown-phase", `${id}: ${phase.map((f) => f.message).join("; ")}`, { where, unmet: unmetOf(findings) });
  const boundary = has("boundary");
  if (boundary.length) {
    return new ApiError(422, "boundary-removed", `${boundary.map((f) => f.message).join("; ")}: readers and agents rely on it; send a reason`, {
      where,
      unmet: unmetOf(findings),
    });
  }
  const policy = has("archive-policy");
  if (policy.length && policy.length === findings.length) return new ApiError(422, "policy", `the archive policy refuses this text: ${list(where)}`, { where });
  return new ApiError(422, "write-refused", `${id} cannot be saved: ${unmetOf(findings).join("; ")}`, { where, unmet: unmetOf(findings) });
}
