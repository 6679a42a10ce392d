// Where `flowproof mcp` may read and write: inside its roots (the working directory, or the
// directories the client declares through the MCP roots capability). Every path argument of a tool
// is checked here before the tool runs, symlinks resolved; a file that is not a flow or a trace is
// refused without its content reaching a diagnostic, and `out:` never overwrites another kind of file.
import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { isInside, realPathOf } from "../plugins/file-paths.ts";
import { fileURLToPath } from "node:url";
import { isMap, parseDocument } from "yaml";
import { SpecError, diagnostic } from "../diagnostics/diagnostic.ts";

/** What a path argument names: a flow to read, a trace to read or write, a suite directory. */
export type PathRole = "flow" | "trace" | "trace-out" | "dir";

export { isInside, realPathOf };

/** The server's roots: the client's `file:` roots when it declares the roots capability and lists some, else the working directory. */
export class McpRoots {
  readonly #cwd: string;
  readonly #fromClient: () => Promise<readonly string[] | undefined>;
  #cached: Promise<readonly string[]> | undefined;

  /** `fromClient`: the root URIs the client lists, or undefined when it has no roots capability. */
  constructor(cwd: string, fromClient: () => Promise<readonly string[] | undefined> = async () => undefined) {
    this.#cwd = cwd;
    this.#fromClient = fromClient;
  }

  /** The client changed its roots (notifications/roots/list_changed): ask again next time. */
  invalidate(): void {
    this.#cached = undefined;
  }

  list(): Promise<readonly string[]> {
    this.#cached ??= this.#fromClient().then((uris) => {
      const dirs = (uris ?? []).filter((u) => u.startsWith("file:")).map((u) => fileURLToPath(u));
      return dirs.length > 0 ? dirs : [this.#cwd];
    });
    return this.#cached;
  }

  /**
   * Refuses `value` (the tool argument `arg`) unless it lies inside a root and is the kind of file
   * `role` says; relative paths are taken from the working directory, as the tools take them.
   */
  async check(arg: string, value: string, role: PathRole): Promise<void> {
    const roots = await this.list();
    const real = realPathOf(resolve(this.#cwd, value));
    if (!roots.some((r) => isInside(real, realPathOf(r)))) {
      throw new SpecError(
        diagnostic("usage", `\`${arg}\` ${JSON.stringify(value)} is outside the MCP server's ${roots.length > 1 ? "roots" : "root"} (${roots.join(", ")})`, {
          hint: "pass a path inside the project the server was started in, or declare its directory as a root in the MCP client",
        }),
      );
    }
    refuseOtherKinds(arg, value, real, role);
  }
}

const refuse = (message: string, hint: string) => new SpecError(diagnostic("usage", message, { hint }));

function refuseOtherKinds(arg: string, value: string, real: string, role: PathRole): void {
  const shown = JSON.stringify(value);
  const isFile = existsSync(real) && statSync(real).isFile();
  switch (role) {
    case "dir":
      return;
    case "flow":
      if (!/\.ya?ml$/i.test(real)) throw refuse(`\`${arg}\` ${shown} is not a flow file (a flow is a \`.yaml\` file)`, "pass a `*.flow.yaml` file");
      if (isFile && !holdsFlow(readFileSync(real, "utf8")))
        throw refuse(`\`${arg}\` ${shown} does not hold a flow (a YAML mapping with \`steps:\`); its content is not shown`, "pass a `*.flow.yaml` file");
      return;
    case "trace":
    case "trace-out":
      if (!/\.jsonl$/i.test(real)) throw refuse(`\`${arg}\` ${shown} is not a trace file (a trace is a \`.jsonl\` file)`, "pass a `*.trace.jsonl` path");
      if (isFile && !holdsTrace(readFileSync(real, "utf8"))) {
        throw role === "trace-out"
          ? refuse(`\`${arg}\` ${shown} is a file that is not a flowproof trace; it is not overwritten`, "write the trace to a new `*.trace.jsonl` path")
          : refuse(`\`${arg}\` ${shown} is not a flowproof trace; its content is not shown`, "pass a `*.trace.jsonl` file written by `flowproof record`");
      }
      return;
  }
}

/** Whether `text` is a YAML mapping with a `steps` key: only then may its lines appear in diagnostics. */
export function holdsFlow(text: string): boolean {
  try {
    const doc = parseDocument(text);
    return isMap(doc.contents) && doc.contents.has("steps");
  } catch {
    return false;
  }
}

/** Whether `text` opens with a flowproof trace header (or is empty, as a trace being written may be). */
export function holdsTrace(text: string): boolean {
  const first = text.split("\n", 1)[0] ?? "";
  if (first.trim() === "") return text.trim() === "";
  try {
    const header: unknown = JSON.parse(first);
    return typeof header === "object" && header !== null && "format" in header && header.format === "flowproof-trace";
  } catch {
    return false;
  }
}
