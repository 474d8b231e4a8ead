import { preflight, serveAgent } from "@/lib/agents/http";
import { jsonSchemaOf } from "@/lib/agents/schemas";
import { SCHEMA_NAMES, type SchemaName } from "@/lib/agents/urls";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ file: string }> }) {
  const file = (await params).file;
  const name = file.replace(/\.json$/, "") as SchemaName;
  return serveAgent(request, { variant: `schema.${name}`, media: "schema" }, ({ urls }) => {
    if (!file.endsWith(".json") || !SCHEMA_NAMES.includes(name)) {
      return { status: 404, error: `no schema "${file}"; the schemas are ${SCHEMA_NAMES.map((n) => `${n}.json`).join(", ")}` };
    }
    return { body: jsonSchemaOf(name, urls.schema(name)) };
  });
}

export const OPTIONS = preflight;
