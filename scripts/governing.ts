/**
 * `npm run governing -- --diff <file|-> [--base-url URL] [--format text|json|github]`
 *
 * Asks a Field Notes site which published decisions govern a change (POST /agents/governing.json
 * with the diff) and prints them: as text, as the JSON answer, or as GitHub Actions annotations on
 * the changed files. Exits 1 when a verified structural decision or a pinned-not-supported boundary
 * governs a changed file (a pipeline can require a person's look), 0 when none does, 2 on an error.
 * The base URL defaults to GOVERNING_BASE_URL, then SITE_URL, then http://localhost:3000.
 */
import fs from "node:fs/promises";
import { runGoverning } from "@/lib/agents/governing-cli";

async function readInput(file: string): Promise<string> {
  if (file !== "-") return fs.readFile(file, "utf8");
  const parts: Buffer[] = [];
  for await (const chunk of process.stdin) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

runGoverning(process.argv.slice(2), {
  env: process.env,
  readFile: readInput,
  fetch,
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
}).then((code) => {
  process.exitCode = code;
});
