import fs from "node:fs";
import path from "node:path";
import { parseSeedIndex } from "../../lib/content/seed-index";

/** The seed page the public home must reproduce: its core decisions and records, in its order. */
const seedText = fs.readFileSync(path.resolve(__dirname, "../../lib/content/fixtures/seed-index.txt"), "utf8");
export const seed = parseSeedIndex(seedText);
/** The count the seed page prints ("21 notes · …"), read from its text, not from the parsed records. */
export const seedCount = Number(/^(\d+) notes · /m.exec(seedText)?.[1] ?? NaN);
export const SEED_IDS = seed.records.map((r) => r.id);
export const isSeedId = (id: string) => SEED_IDS.includes(id);
