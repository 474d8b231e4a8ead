import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { config } from "@/lib/env";

/**
 * The key that signs and encrypts session cookies. Configured (NEXTAUTH_SECRET / AUTH_SECRET), or
 * generated into DATA_DIR on first start and reused after, so sessions survive a restart and every
 * process on the same data folder agrees on it.
 */

export const SECRET_FILE = "auth-secret";

let cached: { dir: string; secret: string } | null = null;

export function sessionSecret(): string {
  const { auth, dataDir } = config();
  if (auth.secret) return auth.secret;
  if (cached?.dir === dataDir) return cached.secret;
  const file = path.join(dataDir, SECRET_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    // "wx": when two processes start at once, exactly one writes and both read the same secret.
    fs.writeFileSync(file, `${randomBytes(32).toString("base64url")}\n`, { flag: "wx", mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  const secret = readSecret(file);
  cached = { dir: dataDir, secret };
  return secret;
}

function readSecret(file: string): string {
  // The writer may be between creating the file and filling it; a short wait covers that.
  for (let i = 0; i < 50; i++) {
    const text = fs.readFileSync(file, "utf8").trim();
    if (text.length >= 32) return text;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  }
  throw new Error(`${file} holds no usable session secret (at least 32 characters); remove it to have a new one generated`);
}
