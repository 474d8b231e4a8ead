import { ApiError } from "@/lib/rules/api-errors";
import { decodeParam } from "@/lib/web/params";
import { RECORD_ID } from "./records";

/** A thread or comment id from a URL (12 hex characters); anything else is a 404, as for one that does not exist. */
export function threadIdParam(raw: string, what: "thread" | "comment" | "verdict" = "thread"): string {
  const id = (decodeParam(raw) ?? "").toLowerCase();
  if (!RECORD_ID.test(id)) throw new ApiError(404, "not-found", `"${raw}" is not a ${what} id (expected 12 hex characters)`);
  return id;
}
