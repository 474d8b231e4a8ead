import { requireActor } from "@/lib/auth/actor";
import { handle, json } from "@/lib/api/respond";
import { uploadAsset } from "@/lib/assets/upload";
import { noteIdParam } from "@/lib/studio/refs";

/**
 * POST: upload an image for a note (multipart/form-data, field `file`). 201 with the `path` the
 * note's Markdown references (`![alt](assets/<id>/<hash>.<ext>)`) and the `url` it is served at.
 * The image is committed by the note's next save that references it.
 */

type Context = { params: Promise<{ id: string }> };

export const POST = handle(async (request: Request, { params }: Context) => {
  // Authors upload; the save that commits the image names its author.
  await requireActor(request, "author");
  const id = noteIdParam((await params).id);
  return json(await uploadAsset(request, id), 201);
});
