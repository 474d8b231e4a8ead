import { StoreRequestError } from "./errors";

/**
 * Paths inside the content repository, checked before anything is written: a path that git would
 * refuse (or that fsck --strict flags, such as ".git" in any spelling) is a clear error for the
 * caller, never an object in the repository.
 */

const CONTROL = /[\u0000-\u001f\u007f]/;

export function checkPath(path: string): string[] {
  const where = JSON.stringify(path);
  if (typeof path !== "string" || path === "") throw new StoreRequestError("a file path is empty");
  if (path.startsWith("/")) throw new StoreRequestError(`file path ${where} must be relative to the repository (no leading "/")`);
  if (path.includes("\\")) throw new StoreRequestError(`file path ${where} contains "\\"; use "/" between folders`);
  if (CONTROL.test(path)) throw new StoreRequestError(`file path ${where} contains a control character`);
  if (!path.isWellFormed()) throw new StoreRequestError(`file path ${where} contains a broken Unicode character`);
  const segments = path.split("/");
  for (const segment of segments) {
    if (segment === "") throw new StoreRequestError(`file path ${where} has an empty segment ("//" or a trailing "/")`);
    if (segment === "." || segment === "..") throw new StoreRequestError(`file path ${where} contains "${segment}"`);
    if (isDotGit(segment)) throw new StoreRequestError(`file path ${where} contains "${segment}", which git reserves`);
  }
  return segments;
}

/** ".git" as git's fsck sees it: any case, trailing dots or spaces (NTFS), and the 8.3 name "git~1". */
function isDotGit(segment: string): boolean {
  const s = segment.toLowerCase().replace(/[. ]+$/, "");
  return s === ".git" || s === "git~1";
}
