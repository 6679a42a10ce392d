// Where a flow may read and write files: inside its roots (`--root <dir>`, or the MCP server's root)
// and nowhere else, symlinks followed and checked; without roots, anywhere (the CLI's default).
// The one resolver every reader uses: uploads, spreadsheet files, screenshot baselines, the suite's
// commands, plugins, start URLs and every `file:` URL a page opens. A command sets the roots for
// the work it runs (`confinedTo`); what that work reads asks `filePaths()`, or is handed it in its
// context (ExecutionContext, AssertionContext, LaunchContext). The same scope says whether the
// suite's shell commands may run at all (`flowproof mcp --no-hooks`: `withoutSuiteCommands`).
import { AsyncLocalStorage } from "node:async_hooks";
import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { FlowproofError, diagnostic } from "../diagnostics/diagnostic.ts";

/** The real path of `path`, symlinks resolved for the part that exists (a file to write need not exist yet). */
export function realPathOf(path: string): string {
  let head = resolve(path);
  const tail: string[] = [];
  while (!existsSync(head)) {
    const up = dirname(head);
    if (up === head) break;
    tail.unshift(basename(head));
    head = up;
  }
  try {
    return join(realpathSync(head), ...tail);
  } catch {
    return join(head, ...tail); // unreadable: checked as written
  }
}

/** Whether `path` is `root` or lies below it (both real paths). */
export function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

/** A path or `file:` URL outside every root, named with the roots. */
export class OutsideRootError extends FlowproofError {
  constructor(what: string, shown: string, roots: readonly string[]) {
    super(
      diagnostic(
        "outside-root",
        `${what} ${shown} is outside the ${roots.length > 1 ? "roots" : "root"} (${roots.join(", ")}): flowproof reads and writes only inside ${roots.length > 1 ? "them" : "it"}`,
        {
          hint: "move the file inside the root (a symlink out of it is refused too), or run without --root where reading it is intended",
        },
      ),
    );
  }
}

/** Why the suite's shell commands do not run in a scope, and what to do instead. */
export interface CommandsRefused {
  readonly why: string;
  readonly hint: string;
}

/** A suite's shell command not run because its scope refuses them (`hooks-off`), naming the key, the command and why. */
export class SuiteCommandRefusedError extends FlowproofError {
  constructor(what: string, command: string, refused: CommandsRefused) {
    super(diagnostic("hooks-off", `${what} \`${command}\` was not run: ${refused.why}`, { hint: refused.hint }));
  }
}

/** The resolver: `roots` empty means unconfined. */
export class FilePaths {
  /** The root directories as given (absolute); empty when the run is not confined. */
  readonly roots: readonly string[];
  /** Set when the suite's shell commands (`env_from`, hooks, `server.command`) must not run here. */
  readonly commandsRefused: CommandsRefused | undefined;
  readonly #real: readonly string[];

  constructor(roots: readonly string[], commandsRefused?: CommandsRefused) {
    this.roots = roots.map((r) => resolve(r));
    this.commandsRefused = commandsRefused;
    this.#real = this.roots.map(realPathOf);
  }

  get confined(): boolean {
    return this.roots.length > 0;
  }

  /** Whether `path` (absolute) lies inside a root, symlinks followed; always true when unconfined. */
  allows(path: string): boolean {
    if (!this.confined) return true;
    const real = realPathOf(path);
    return this.#real.some((r) => isInside(real, r));
  }

  /**
   * `path` resolved from the directory `from`, as an absolute path; throws OutsideRootError naming
   * `what` ("the file to upload"), the path and the roots when it (or where a symlink leads) lies
   * outside every root.
   */
  file(what: string, path: string, from: string): string {
    const absolute = resolve(from, path);
    if (!this.allows(absolute)) throw new OutsideRootError(what, JSON.stringify(path), this.roots);
    return absolute;
  }

  /** Why a URL the flow opens must not be read (a `file:` URL outside every root), or undefined when it may. */
  refusesUrl(what: string, url: string): string | undefined {
    if (!this.confined || !/^file:/i.test(url)) return undefined;
    let path: string;
    try {
      path = fileURLToPath(url);
    } catch {
      return new OutsideRootError(what, url, this.roots).message; // a file: URL naming no local path
    }
    return this.allows(path) ? undefined : new OutsideRootError(what, url, this.roots).message;
  }

  /** Throws OutsideRootError when `refusesUrl` would refuse `url`. */
  url(what: string, url: string): string {
    if (this.refusesUrl(what, url) !== undefined) throw new OutsideRootError(what, url, this.roots);
    return url;
  }

  /**
   * A shell command the suite runs (`env_from`, a hook, `server.command`) run from `cwd`: refused
   * outright where the scope refuses suite commands; else its program, when written as a path
   * (`./scripts/x.sh`, `/usr/local/bin/x`), must lie inside a root. A program found on PATH is the
   * machine's own, not a file of the project.
   */
  command(what: string, command: string, cwd: string): void {
    if (this.commandsRefused) throw new SuiteCommandRefusedError(what, command, this.commandsRefused);
    const program = command.trim().split(/\s+/)[0] ?? "";
    if (this.confined && program.includes("/")) this.file(`${what}'s program`, program, cwd);
  }
}

/** No roots: every path is allowed (the CLI without --root). */
export const ANYWHERE = new FilePaths([]);

const scope = new AsyncLocalStorage<FilePaths>();

/** The resolver of the work running now: its command's roots, or ANYWHERE. */
export function filePaths(): FilePaths {
  return scope.getStore() ?? ANYWHERE;
}

/**
 * Runs `work` confined to `roots` (a directory, or several); without roots it runs in the scope it
 * was called from (a flow of a confined suite stays confined).
 */
export function confinedTo<T>(roots: string | readonly string[] | undefined, work: () => Promise<T>): Promise<T> {
  const list = roots === undefined ? [] : typeof roots === "string" ? [roots] : roots;
  if (list.length === 0) return work();
  return scope.run(new FilePaths(list, filePaths().commandsRefused), work);
}

/** Runs `work` (in the caller's roots) where every suite shell command is refused with `refused`'s words. */
export function withoutSuiteCommands<T>(refused: CommandsRefused, work: () => Promise<T>): Promise<T> {
  return scope.run(new FilePaths(filePaths().roots, refused), work);
}

/** The nearest `suite.yaml` at or above `start` (a directory), or undefined; a confined run looks no higher than its root. */
export function findSuiteFile(start: string): string | undefined {
  let dir = resolve(start);
  const paths = filePaths();
  for (;;) {
    if (!paths.allows(dir)) return undefined;
    const candidate = join(dir, "suite.yaml");
    if (existsSync(candidate)) return candidate;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}
