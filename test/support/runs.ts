// The run bundles a project's runs left in `.flowproof/runs/`: a single flow's run writes its
// bundle (result.json…) and its run record (run.json) as two run directories, so "the latest
// run" of a test is the newest directory holding a result.json.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** The newest run bundle (a run directory with result.json) under `<projectDir>/.flowproof/runs`. */
export function latestRunBundle(projectDir: string): string {
  const runs = join(projectDir, ".flowproof", "runs");
  const bundles = readdirSync(runs)
    .sort()
    .filter((d) => existsSync(join(runs, d, "result.json")));
  const latest = bundles.at(-1);
  if (latest === undefined) throw new Error(`no run bundle (a directory with result.json) in ${runs}: ${readdirSync(runs).join(", ") || "empty"}`);
  return join(runs, latest);
}
