import fs from "node:fs";
import path from "node:path";
import { parseSeedIndex } from "../../lib/content/seed-index";

/** The seed page the public home must reproduce: its core decisions and records, in its order. */
export const seed = parseSeedIndex(fs.readFileSync(path.resolve(__dirname, "../../lib/content/fixtures/seed-index.txt"), "utf8"));
export const SEED_IDS = seed.records.map((r) => r.id);
export const isSeedId = (id: string) => SEED_IDS.includes(id);
