import { route } from "@/lib/api/route";
import { planStudioImport } from "@/lib/import/studio-import";
import { importRequest } from "@/lib/validations/import";

/** POST {source, path, prefix, renumber, status, publish}: what the import would do, as `npm run import -- --plan` prints it. Nothing is written. Authors only. */
export const POST = route({ role: "author", body: importRequest }, ({ actor, body }) => planStudioImport(actor, body));
