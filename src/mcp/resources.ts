// A run's evidence as MCP resources: `flowproof://runs/<run-id>/<file>` names a file of the run
// directory `.flowproof/runs/<run-id>/` (result.json, report.html, junit.xml, frames, and a suite's
// per-flow bundles). Runs are those the server's tools wrote, and those under `.flowproof/runs/` of
// its roots; a file is served only when it lies inside its run directory and inside a root.
import { existsSync, readFileSync, readdirSync, realpathSync, statSync } from "node:fs";
import { basename, extname, join, relative, sep } from "node:path";
import { SpecError, diagnostic } from "../diagnostics/diagnostic.ts";
import { isInside } from "./roots.ts";

export const RESOURCE_SCHEME = "flowproof://runs/";

const MIME: Readonly<Record<string, string>> = {
  ".json": "application/json",
  ".html": "text/html",
  ".xml": "application/xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".txt": "text/plain",
  ".jsonl": "application/jsonl",
};
const TEXT = new Set(["application/json", "text/html", "application/xml", "text/plain", "application/jsonl"]);

export const mimeOf = (file: string): string => MIME[extname(file).toLowerCase()] ?? "application/octet-stream";

export interface RunResource {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
}

export type ResourceContents = { uri: string; mimeType: string; text: string } | { uri: string; mimeType: string; blob: string };

const notFound = (uri: string, hint: string) => new SpecError(diagnostic("usage", `no run evidence at ${uri}`, { hint }));

/** Every file under `dir`, as paths relative to it (`/`-separated), sorted. */
function filesUnder(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.isDirectory()) out.push(...filesUnder(join(dir, entry.name), `${prefix}${entry.name}/`));
    else if (entry.isFile()) out.push(`${prefix}${entry.name}`);
  }
  return out;
}

/** The runs the server knows: written by its tools in this session, or found under `.flowproof/runs/` of a root. */
export class RunResources {
  readonly #known = new Map<string, string>();
  readonly #roots: () => Promise<readonly string[]>;

  constructor(roots: () => Promise<readonly string[]>) {
    this.#roots = roots;
  }

  /** A run directory a tool wrote; returns its run id. */
  remember(runDir: string): string {
    const id = basename(runDir);
    this.#known.set(id, runDir);
    return id;
  }

  async #runs(): Promise<Map<string, string>> {
    const runs = new Map<string, string>();
    for (const root of await this.#roots()) {
      const dir = join(root, ".flowproof", "runs");
      if (!existsSync(dir)) continue;
      for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) runs.set(e.name, join(dir, e.name));
    }
    for (const [id, dir] of this.#known) if (existsSync(dir)) runs.set(id, dir);
    return runs;
  }

  /** The resources of one run, or of every run the server knows. */
  async list(runId?: string): Promise<RunResource[]> {
    const out: RunResource[] = [];
    for (const [id, dir] of await this.#runs()) {
      if (runId !== undefined && id !== runId) continue;
      for (const file of filesUnder(dir)) out.push({ uri: `${RESOURCE_SCHEME}${id}/${file}`, name: `${id}/${file}`, mimeType: mimeOf(file) });
    }
    return out;
  }

  /** The contents of `uri`: text for documents, base64 for images. Refuses anything outside its run directory or the roots. */
  async read(uri: string): Promise<ResourceContents> {
    if (!uri.startsWith(RESOURCE_SCHEME))
      throw notFound(uri, `a run resource is ${RESOURCE_SCHEME}<run-id>/<file>, e.g. ${RESOURCE_SCHEME}<run-id>/report.html`);
    const [id, ...parts] = uri
      .slice(RESOURCE_SCHEME.length)
      .split("/")
      .map((p) => decodeURIComponent(p));
    if (!id || parts.length === 0 || parts.some((p) => p === "" || p === "." || p === ".." || p.includes(sep)))
      throw notFound(uri, `name a file of the run: ${RESOURCE_SCHEME}<run-id>/result.json`);
    const dir = (await this.#runs()).get(id);
    if (!dir) throw notFound(uri, "list the run's evidence with resources/list; run ids are the directories under .flowproof/runs/");
    const file = join(dir, ...parts);
    if (!existsSync(file) || !statSync(file).isFile()) throw notFound(uri, `list the run's files with resources/list (${RESOURCE_SCHEME}${id}/…)`);
    const real = realpathSync(file);
    const roots = (await this.#roots()).map((r) => realpathSync(r));
    if (!isInside(real, realpathSync(dir)) || !roots.some((r) => isInside(real, r)))
      throw new SpecError(
        diagnostic("usage", `${uri} leads outside its run directory or the server's root; it is not served`, {
          hint: "a run's evidence is served only from inside its run directory and the server's root",
        }),
      );
    const mimeType = mimeOf(file);
    return TEXT.has(mimeType) ? { uri, mimeType, text: readFileSync(real, "utf8") } : { uri, mimeType, blob: readFileSync(real).toString("base64") };
  }

  /** `flowproof://runs/<id>/<file>` of a file inside a run directory the server knows. */
  uriOf(runDir: string, file: string): string {
    return `${RESOURCE_SCHEME}${this.remember(runDir)}/${relative(runDir, file).split(sep).join("/")}`;
  }
}
