import { route } from "@/lib/api/route";
import { startStudioImport } from "@/lib/import/studio-import";
import { importRequest } from "@/lib/validations/import";

/** POST (the plan's body): run the import as a job, 202 with its id and progress; 409 busy while another import runs. Authors only. */
export const POST = route({ role: "author", body: importRequest, status: 202 }, ({ actor, body }) => startStudioImport(actor, body));
