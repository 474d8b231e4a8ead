import YAML from "yaml";
import { z } from "zod";

/** The site file (`site.yaml` in the content repository): what the archive says about itself. */
export const siteSchema = z.object({
  title: z.string().min(1),
  kicker: z.string().min(1),
  author: z.string().min(1),
  id_prefix: z.string().regex(/^[A-Z][A-Z0-9]*$/, "an upper-case prefix such as AFN"),
  lede: z.string().min(1),
  operator_scope: z.string().min(1),
  counts_suffix: z.string().min(1),
  core_heading: z.string().min(1),
  core_intro: z.string().min(1),
  agents: z.object({
    retrieval: z.string().min(1),
    archive_policy: z.string().min(1),
    operator_contract: z.string().min(1),
    audience: z.string().min(1),
    claims: z.string().min(1),
    canonical_path: z.string().min(1),
    formats: z.array(z.string().min(1)),
  }),
});
export type Site = z.infer<typeof siteSchema>;

export const SITE_FILE = "site.yaml";

export function parseSite(source: string): Site {
  return siteSchema.parse(YAML.parse(source));
}
