import { serveAsset } from "@/lib/http/serve-asset";

/** A note's image at its stable, content-addressed URL (lib/http/serve-asset.ts). */

type Context = { params: Promise<{ id: string; file: string }> };

export async function GET(request: Request, { params }: Context): Promise<Response> {
  const { id, file } = await params;
  return serveAsset(request, id, file);
}
