import { z } from "zod";
import { route } from "@/lib/api/route";
import { studioImportJob } from "@/lib/import/studio-import";

/** GET: an import job's progress (records and commits done of their totals) and, once it ends, its report or error. Authors only. */
export const GET = route({ role: "author", params: { id: z.string() } }, ({ params }) => studioImportJob(params.id));
