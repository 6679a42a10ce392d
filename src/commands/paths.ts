// How flow files and their traces are named and shown: the flow's stem, its default trace path, a
// path as people should see it. Pure apart from reading the working directory.
import { basename, dirname, join } from "node:path";

/** A path as people should see it: relative to the working directory when inside it. */
export function displayPath(path: string): string {
  const cwd = process.cwd();
  return path.startsWith(cwd + "/") ? path.slice(cwd.length + 1) : path;
}

/** `checkout.flow.yaml` → `checkout`. */
export function flowStem(specPath: string): string {
  return basename(specPath)
    .replace(/\.ya?ml$/i, "")
    .replace(/\.flow$/i, "");
}

/** `calc.flow.yaml` → `calc.trace.jsonl` next to it (`.yaml`/`.yml` and `.flow` stripped). */
export function defaultTracePath(specPath: string): string {
  const stem = basename(specPath)
    .replace(/\.ya?ml$/i, "")
    .replace(/\.flow$/i, "");
  return join(dirname(specPath), `${stem}.trace.jsonl`);
}
