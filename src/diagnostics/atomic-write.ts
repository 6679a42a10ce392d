// The one way flowproof writes its output files: whole or not at all (temp file + rename, the temp
// removed on every failure path), with file-system failures turned into `io-error` diagnostics
// that say what to do. Lives beside the error shape so every folder that writes can use it.
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { FlowproofError, diagnostic } from "./diagnostic.ts";

/** A file or directory flowproof needs could not be written (a full disk, no permission). */
export class OutputError extends FlowproofError {}

/** Writes `data` to `path` whole: readers see the old file or the new one, never a part, and no temp file stays behind. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (error) {
    removeQuietly(tmp);
    throw outputError(error, path);
  }
}

/**
 * Writes several files together: each is written aside first, and only once every one is written
 * whole are they moved into place. On a failure nothing is moved, no temp file stays, and the
 * `io-error` names the file that could not be written.
 */
export function writeFilesAtomic(files: readonly (readonly [path: string, data: string | Uint8Array])[]): void {
  const staged: string[] = [];
  let current = files[0]?.[0] ?? "";
  try {
    for (const [path, data] of files) {
      current = path;
      const tmp = `${path}.${process.pid}.tmp`;
      staged.push(tmp);
      writeFileSync(tmp, data);
    }
    files.forEach(([path], i) => {
      current = path;
      renameSync(staged[i]!, path);
    });
  } catch (error) {
    for (const tmp of staged) removeQuietly(tmp);
    throw outputError(error, current);
  }
}

/** `mkdir -p`, as an `io-error` when it cannot be made. Returns `dir`. */
export function makeDir(dir: string, purpose?: string): string {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw outputError(error, dir, { ...(purpose ? { purpose } : {}) });
  }
  return dir;
}

/**
 * Makes `dir` if needed and proves a file can be created and written in it, before any work that
 * would be lost when the output cannot be written. `purpose` names what goes there, for the message.
 */
export function checkWritable(dir: string, purpose: string): void {
  makeDir(dir, purpose);
  const probe = join(dir, `.flowproof-write-check.${process.pid}.tmp`);
  try {
    writeFileSync(probe, "flowproof write check\n");
  } catch (error) {
    removeQuietly(probe);
    throw outputError(error, dir, { purpose, fix: dir });
  }
  removeQuietly(probe);
}

/**
 * An `OutputError` for a failed file-system call on `path`, with a hint chosen by the error code.
 * `purpose` says what the path is for; `fix` is the directory to make writable (default: the path's parent).
 */
export function outputError(error: unknown, path: string, about: { readonly purpose?: string; readonly fix?: string } = {}): FlowproofError {
  if (error instanceof FlowproofError) return error;
  const code = typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : undefined;
  const where = about.purpose ? `${path} (${about.purpose})` : path;
  const dir = about.fix ?? dirname(path);
  const reason =
    code === "ENOSPC"
      ? "the disk is full"
      : code === "EDQUOT"
        ? "the disk quota is used up"
        : code === "EACCES" || code === "EPERM"
          ? "permission denied"
          : code === "EROFS"
            ? "the file system is read-only"
            : error instanceof Error
              ? error.message
              : String(error);
  const hint =
    code === "ENOSPC" || code === "EDQUOT"
      ? `free space on the disk holding ${dir}, or record fewer frames (--recording-detail low|off)`
      : code === "EACCES" || code === "EPERM" || code === "EROFS"
        ? `make ${dir} writable (check its permissions, \`lsattr\` for an immutable flag, and read-only mounts), or run from a writable project directory`
        : `check that ${dir} exists and can be written`;
  return new OutputError(diagnostic("io-error", `cannot write ${where}: ${reason}${code ? ` (${code})` : ""}`, { hint }), { cause: error });
}

function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // The temp file could not be removed (its directory went read-only meanwhile); the original error is what matters.
  }
}
