import { noteId, route } from "@/lib/api/route";
import { uploadAsset } from "@/lib/assets/upload";

/**
 * POST: upload an image for a note (multipart/form-data, field `file`). 201 with the `path` the
 * note's Markdown references (`![alt](assets/<id>/<hash>.<ext>)`) and the `url` it is served at.
 * The image is committed by the note's next save that references it.
 */

// Authors upload; the save that commits the image names its author. The body is multipart, read by uploadAsset.
export const POST = route({ role: "author", params: { id: noteId }, status: 201 }, ({ params, request }) => uploadAsset(request, params.id));
