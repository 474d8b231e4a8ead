import { route } from "@/lib/api/route";
import { uploadImportZip } from "@/lib/import/studio-import";

/**
 * POST: a zip of a folder of decision records (multipart/form-data, field `file`), unpacked on the
 * server for the plan and the run to read (201 with its id). A zip with a path outside its folder,
 * a link or more than the unpacked limit is refused whole (422 bad-zip). Authors only.
 */
export const POST = route({ role: "author", status: 201 }, ({ request }) => uploadImportZip(request));
