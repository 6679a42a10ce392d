// An adapter plugin for the project's own terminal apps: flows with `app: terminal` (or an `apps:`
// surface of it) run a program in a pseudo-terminal and drive it through its screen. Written only
// against flowproof's plugin contract: its keys (`command:`, `columns:`, `rows:`) with how each
// travels, the general forms a terminal lacks, its capabilities, and the driver.
import { AdapterError, AdapterUnavailableError, defineAdapter, GRAMMAR_FORMS, keyRole, Type } from "flowproof";
import type { AdapterSession, AppDriver, LaunchContext } from "flowproof";
import { openTerminal } from "./pty.ts";
import { CAPABILITIES, TerminalDriver } from "./driver.ts";

/** The flow keys of a terminal app, for `app: terminal` and each `apps:` surface of it. */
export const KEYS = Type.Object(
  {
    command: Type.String({
      minLength: 1,
      description:
        "The program and its arguments, run through the shell in the flow's folder; may hold ${VAR}, and ${captured.x} on an `apps:` surface (resolved when it starts).",
      examples: ["bun stockroom.ts --store ${STORE}"],
      // Recorded as written: replay starts the same program from the trace header.
      ...keyRole({ recorded: true, references: "captured" }),
    }),
    columns: Type.Optional(
      Type.Integer({
        minimum: 20,
        maximum: 240,
        description: "The terminal's width in characters (default 80).",
        examples: ["80"],
        ...keyRole({ recorded: true }),
      }),
    ),
    rows: Type.Optional(
      Type.Integer({ minimum: 5, maximum: 100, description: "The terminal's height in lines (default 24).", examples: ["24"], ...keyRole({ recorded: true }) }),
    ),
  },
  { additionalProperties: false },
);

/** The launch config flowproof hands over: the keys, the command resolved. */
function sizeOf(config: Readonly<Record<string, unknown>>): { columns: number; rows: number } {
  const n = (v: unknown, d: number) => (typeof v === "number" && Number.isInteger(v) ? v : d);
  return { columns: n(config["columns"], 80), rows: n(config["rows"], 24) };
}

class TerminalSession implements AdapterSession {
  async launch(config: Readonly<Record<string, unknown>>, ctx: LaunchContext): Promise<AppDriver> {
    const command = config["command"];
    if (typeof command !== "string" || command.trim() === "")
      throw new AdapterUnavailableError("a terminal app needs `command:`", "command: bun stockroom.ts --store ${STORE}");
    if (!Bun.which("script")) throw new AdapterError("terminal/no-pty", "no `script` program found (util-linux): it provides the pseudo-terminal");
    // Messages name the program as written, so a `${VAR}` in it stays a reference there.
    const written = typeof ctx.written?.["command"] === "string" ? ctx.written["command"] : "the terminal app";
    return new TerminalDriver(openTerminal(command, sizeOf(config), ctx.baseDir), written);
  }

  async close(): Promise<void> {}
}

export const plugin = defineAdapter({
  kind: "terminal",
  title: "a terminal app",
  capabilities: [...CAPABILITIES],
  keys: {
    schema: KEYS,
    refuse: {
      url: { message: "a terminal app has no start page: `url:` belongs to web flows", hint: "remove `url:`; the program is started from `command:`" },
    },
  },
  // Its own error codes, raised as `terminal/<name>`: documented with the built-ins' in docs/errors.md.
  errors: {
    "no-pty": {
      meaning: "The `script` program (util-linux), which gives a terminal app its pseudo-terminal, is not installed.",
      hint: "install util-linux (Debian: `apt-get install bsdutils`)",
    },
  },
  // A terminal shows lines of text: none of the web's page-level forms apply.
  grammar: { lacks: GRAMMAR_FORMS, cssHint: 'a terminal has no css; name what the screen shows, e.g. `Press the "Log in" button`' },
  platforms: {
    os: ["linux", "darwin", "freebsd"],
    name: "a Unix-like system",
    why: "the pseudo-terminal comes from `script` (util-linux)",
    hint: "run this flow on Linux or macOS",
  },
  open: async () => new TerminalSession(),
});
