// A throwaway project directory per test, removed afterwards.
import { mkdtempSync, rmSync, writeFileSync, readFileSync, readdirSync, statSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";

export interface TmpProject {
  readonly dir: string;
  write(name: string, text: string): string;
  read(name: string): string;
  /** Every file below the project, relative paths. */
  files(): string[];
  remove(): void;
}

export function tmpProject(prefix = "flowproof-test-"): TmpProject {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    write(name, text) {
      const path = join(dir, name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      return path;
    },
    read: (name) => readFileSync(join(dir, name), "utf8"),
    files() {
      const out: string[] = [];
      const walk = (d: string, rel: string) => {
        for (const e of readdirSync(d)) {
          const p = join(d, e);
          if (statSync(p).isDirectory()) walk(p, `${rel}${e}/`);
          else out.push(`${rel}${e}`);
        }
      };
      walk(dir, "");
      return out;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A flow file body: `name`, `url`, then the given step lines (already YAML list items). */
export function flowYaml(name: string, url: string, steps: readonly string[]): string {
  return `name: ${JSON.stringify(name)}\napp: web\nurl: ${url}\nsteps:\n${steps.map((s) => `  - ${s}`).join("\n")}\n`;
}
