import { serveAsset } from "@/lib/assets/serve";

/** A note's image at its stable, content-addressed URL (lib/assets/serve.ts). */

type Context = { params: Promise<{ id: string; file: string }> };

export async function GET(request: Request, { params }: Context): Promise<Response> {
  const { id, file } = await params;
  return serveAsset(request, id, file);
}
