import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";

/**
 * The file system handed to isomorphic-git. Plain node:fs, except that an object file is written to
 * a temporary name and renamed into place (as git does), so git or another app instance reading the
 * repository at the same moment never sees half an object.
 */

const p = fs.promises;

async function writeFile(file: string, data: Uint8Array | string, options?: fs.WriteFileOptions) {
  if (!file.includes(`${path.sep}objects${path.sep}`)) return p.writeFile(file, data, options);
  const tmp = path.join(path.dirname(file), `tmp_obj_${process.pid}_${randomBytes(6).toString("hex")}`);
  await p.writeFile(tmp, data, { mode: 0o444 });
  try {
    await p.rename(tmp, file);
  } catch (e) {
    await p.rm(tmp, { force: true });
    throw e;
  }
}

export const gitFs = {
  promises: {
    readFile: p.readFile,
    writeFile,
    mkdir: p.mkdir,
    rmdir: p.rmdir,
    rm: p.rm,
    unlink: p.unlink,
    stat: p.stat,
    lstat: p.lstat,
    readdir: p.readdir,
    readlink: p.readlink,
    symlink: p.symlink,
    chmod: p.chmod,
  },
};
