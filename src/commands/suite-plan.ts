// Which flows a suite run covers and in what order: discovery (every `*.flow.yaml` below the
// directory, sorted, `.flowproof` skipped), `order:` first, and the deterministic `--shard i/n`
// split. No processes, no printing.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { SpecError, diagnostic } from "../diagnostics/diagnostic.ts";

const SKIPPED_DIRS = new Set([".flowproof", "node_modules", ".git"]);

/** Every `*.flow.yaml` / `*.flow.yml` below `dir`, as sorted suite-relative paths (forward slashes). */
export function discoverFlows(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) {
        if (!SKIPPED_DIRS.has(name)) walk(p);
      } else if (/\.flow\.ya?ml$/i.test(name)) {
        out.push(relative(dir, p).split(sep).join("/"));
      }
    }
  };
  walk(dir);
  return out.sort();
}

export interface PlannedFlow {
  /** Suite-relative path. */
  readonly rel: string;
  /** Position in the unsharded order. */
  readonly position: number;
  /** Listed in `order:` (runs in the serial group, before the parallel rest). */
  readonly pinned: boolean;
}

/** `order:` entries first (each must name a discovered flow), then the rest sorted. */
export function orderFlows(dir: string, found: readonly string[], order: readonly string[], suiteFile: string | undefined): PlannedFlow[] {
  const pinned: string[] = [];
  for (const entry of order) {
    const rel = relative(dir, resolve(dir, entry)).split(sep).join("/");
    if (!found.includes(rel)) {
      const exists = existsSync(resolve(dir, entry));
      throw new SpecError(
        diagnostic(
          "bad-value",
          `\`order\` in ${suiteFile ?? "suite.yaml"} lists ${entry}, ${exists ? "which is not a *.flow.yaml file of this suite" : "which does not exist"}`,
          { hint: `list flow files relative to the suite directory; found: ${found.slice(0, 8).join(", ")}${found.length > 8 ? ", …" : ""}` },
        ),
      );
    }
    pinned.push(rel);
  }
  const rest = found.filter((f) => !pinned.includes(f));
  return [...pinned.map((rel) => ({ rel, pinned: true })), ...rest.map((rel) => ({ rel, pinned: false }))].map((f, position) => ({ ...f, position }));
}

export interface Shard {
  readonly index: number;
  readonly total: number;
}

/** Parses `i/n` (1 ≤ i ≤ n). */
export function parseShard(text: string): Shard | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  if (!m) return undefined;
  const index = Number(m[1]),
    total = Number(m[2]);
  return index >= 1 && total >= 1 && index <= total ? { index, total } : undefined;
}

/**
 * The flows of shard `i/n`: the `order:` group is one unit (it is a sequence, and may hand
 * exports along), every other flow its own unit; units go round-robin, so every flow lands in
 * exactly one shard and the split depends only on the file list.
 */
export function selectShard<T extends PlannedFlow>(flows: readonly T[], shard: Shard | undefined): T[] {
  if (!shard || shard.total === 1) return [...flows];
  const units: T[][] = [];
  const pinned = flows.filter((f) => f.pinned);
  if (pinned.length > 0) units.push(pinned);
  for (const f of flows) if (!f.pinned) units.push([f]);
  return units.filter((_, i) => i % shard.total === shard.index - 1).flat();
}

/** Control ids (`control: {id}`) are unique within a suite: a clash is refused before anything runs. */
export function checkControlsUnique(
  loaded: readonly { readonly plan: { readonly rel: string }; readonly flow?: { readonly control?: { readonly id?: string } } }[],
): void {
  const seen = new Map<string, string>();
  const problems = [];
  for (const l of loaded) {
    const id = l.flow?.control?.id;
    if (!id) continue;
    const first = seen.get(id);
    if (first)
      problems.push(
        diagnostic("bad-value", `control id ${JSON.stringify(id)} is claimed by both ${first} and ${l.plan.rel}`, {
          hint: "control ids are unique within a suite: rename one of them",
        }),
      );
    else seen.set(id, l.plan.rel);
  }
  if (problems.length > 0) throw new SpecError(problems);
}
