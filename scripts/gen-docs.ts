// Rewrites the generated blocks of docs/cli.md (flag tables from COMMANDS in src/cli/flags.ts)
// and docs/errors.md (the code list from DIAGNOSTIC_CODES). Only the text between the
// `<!-- generated:<name>:start -->` / `<!-- generated:<name>:end -->` markers is touched.
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { COMMANDS, type CommandSpec, type DeclaredFlag, type FlagSpec } from "../src/cli/flags.ts";
import { credentialFlags } from "../src/cli/config.ts";
import { DIAGNOSTIC_CODES } from "../src/diagnostics/diagnostic.ts";
import { ACTION_VARIANTS, Expect } from "../src/trace/schema.ts";
import { TOOLS, CLI_ONLY_COMMANDS, CLI_ONLY_FLAGS, type McpTool } from "../src/mcp/tools.ts";
import { parseMode, syncGenerated, type GeneratedFile } from "./generated-file.ts";
import { renderAdapterTables } from "./adapter-docs.ts";
import { checksOf, renderChecksTable } from "./checks-docs.ts";
import { BUILTIN_ADAPTERS } from "../src/plugins/builtin.ts";
import type { AdapterPlugin } from "../src/plugins/api.ts";
import { plugin as terminalExample } from "../examples/plugins/terminal/plugins/terminal/index.ts";

/** The example projects' adapters (examples/plugins/), whose declarations the docs show as a project's. */
const EXAMPLE_ADAPTERS: readonly AdapterPlugin[] = [terminalExample];

const REPO_ROOT = resolve(import.meta.dir, "..");

/** Each generated block: the doc it lives in, its marker name, and how its body is rendered. */
const BLOCKS: readonly { readonly doc: string; readonly name: string; readonly source: string; readonly render: () => string }[] = [
  {
    doc: "docs/cli.md",
    name: "cli",
    source: "src/cli/flags.ts (COMMANDS) and the built-in adapters' declared flags",
    render: () => renderCliTables(COMMANDS, { config: credentialFlags(BUILTIN_ADAPTERS) }),
  },
  { doc: "docs/errors.md", name: "errors", source: "src/diagnostics/diagnostic.ts (DIAGNOSTIC_CODES)", render: () => renderErrorTable(DIAGNOSTIC_CODES) },
  {
    doc: "docs/errors.md",
    name: "adapter-errors",
    source: "the `errors` the built-in adapters and the example adapters (examples/plugins/) declare",
    render: () => renderAdapterErrorTable([...BUILTIN_ADAPTERS, ...EXAMPLE_ADAPTERS]),
  },
  {
    doc: "docs/trace-format.md",
    name: "actions",
    source: "src/trace/schema.ts (ACTION_VARIANTS)",
    render: () => renderActionTable(plainSchema(ACTION_VARIANTS)),
  },
  { doc: "docs/mcp.md", name: "mcp-tools", source: "src/mcp/tools.ts (TOOLS, input schemas from src/cli/flags.ts)", render: () => renderMcpTools(TOOLS) },
  { doc: "docs/trace-format.md", name: "expect", source: "src/trace/schema.ts (Expect)", render: () => renderExpectTable(plainSchema(Expect.anyOf)) },
  {
    doc: "docs/plugins.md",
    name: "checks",
    source: "src/plugins/expectation.ts (the Expectation type, read with the TypeScript compiler API)",
    render: () => renderChecksTable(checksOf(readFileSync(resolve(REPO_ROOT, "src/plugins/expectation.ts"), "utf8"))),
  },
  {
    doc: "docs/plugins.md",
    name: "adapters",
    source: "the built-in adapters' declarations (plugins/*/index.ts, through src/plugins/builtin.ts)",
    render: () => renderAdapterTables(BUILTIN_ADAPTERS),
  },
];

/**
 * Escapes a table cell: pipes would split the cell, newlines would end the row, and outside
 * code spans `<stem>` would be swallowed as an HTML tag.
 */
export function cell(text: string): string {
  return text
    .replace(/\r?\n/g, " ")
    .split(/(`[^`]*`)/)
    .map((part) => (part.startsWith("`") ? part : part.replace(/</g, "&lt;").replace(/>/g, "&gt;")))
    .join("")
    .replace(/\|/g, "\\|");
}

function flagValue(flag: FlagSpec): string {
  if (flag.kind === "boolean") return "—";
  if (flag.values) return flag.values.map((v) => `\`${v}\``).join(", ");
  return `\`<${flag.placeholder ?? "value"}>\``;
}

/**
 * One section per command: summary, usage, and a flag table (flag, short, value, description),
 * the flags the built-in plugins declare for it (`declared`) after its own, then what its row says of them.
 */
export function renderCliTables(commands: readonly CommandSpec[], declared: Readonly<Record<string, readonly DeclaredFlag[]>> = {}): string {
  const out: string[] = [];
  for (const c of commands) {
    out.push(`### \`flowproof ${c.name}\``, "", `${c.summary}.`, "", "```", c.usage, "```", "");
    out.push("| Flag | Short | Value | Description |", "| --- | --- | --- | --- |");
    const own = declared[c.name] ?? [];
    for (const f of [...c.flags, ...own.map((d): FlagSpec => ({ ...d, kind: "string" }))]) {
      out.push(`| \`--${f.name}\` | ${f.short ? `\`-${f.short}\`` : "—"} | ${cell(flagValue(f))} | ${cell(f.description)} |`);
    }
    out.push(`| \`--help\` | \`-h\` | — | Show this command's help. |`, "");
    if (c.declares) out.push(c.declares, "");
  }
  return out.join("\n").trimEnd();
}

/** The type of one JSON Schema property, as a reader writes the value. */
function schemaType(p: {
  readonly type?: string;
  readonly anyOf?: readonly { readonly const?: unknown }[];
  readonly items?: { readonly type?: string };
  readonly minimum?: number;
  readonly maximum?: number;
}): string {
  if (p.anyOf?.every((a) => a.const !== undefined)) return p.anyOf.map((a) => `\`${JSON.stringify(a.const)}\``).join(", ");
  if (p.type === "integer" && p.minimum !== undefined && p.maximum !== undefined) return `integer ${p.minimum}–${p.maximum}`;
  if (p.type === "array") return `array of ${p.items?.type ?? "values"}`;
  return p.type ?? "any";
}

/** One section per MCP tool: its description, its arguments (from the CLI flags) and the keys of its result; then what stays CLI-only. */
export function renderMcpTools(tools: readonly McpTool[]): string {
  const out: string[] = [];
  for (const t of tools) {
    const input = plainSchema(t.inputSchema) as {
      properties: Record<string, Parameters<typeof schemaType>[0] & { description?: string }>;
      required?: string[];
    };
    const output = plainSchema(t.outputSchema) as { properties?: Record<string, unknown>; anyOf?: { properties: Record<string, unknown> }[] };
    out.push(
      `### \`${t.name}\``,
      "",
      `${t.description} CLI: \`flowproof ${t.command}\`.`,
      "",
      "| Argument | Type | Required | Description |",
      "| --- | --- | --- | --- |",
    );
    for (const [name, p] of Object.entries(input.properties)) {
      out.push(`| \`${name}\` | ${cell(schemaType(p))} | ${input.required?.includes(name) ? "yes" : "—"} | ${cell(p.description ?? "")} |`);
    }
    const shapes = output.anyOf ?? [output];
    out.push(
      "",
      `Result (\`structuredContent\`): ${shapes
        .map((s) =>
          Object.keys(s.properties ?? {})
            .map((k) => `\`${k}\``)
            .join(", "),
        )
        .join("; or ")}.`,
      "",
    );
  }
  out.push(
    "CLI-only flags: " +
      Object.entries(CLI_ONLY_FLAGS)
        .map(([f, why]) => `\`--${f}\` (${why})`)
        .join("; ") +
      ".",
    "",
  );
  out.push(
    "CLI-only commands: " +
      Object.entries(CLI_ONLY_COMMANDS)
        .map(([c, why]) => `\`flowproof ${c}\` (${why})`)
        .join("; ") +
      ".",
  );
  return out.join("\n");
}

/** Every diagnostic code, in declaration order, with its meaning. */
/** The codes adapters declare (`<kind>/<name>`), with the meaning and hint each declares, as the built-in codes are documented. */
export function renderAdapterErrorTable(adapters: readonly Pick<AdapterPlugin, "kind" | "errors">[]): string {
  const rows = adapters.flatMap((a) =>
    Object.entries(a.errors ?? {}).map(([name, e]) => `| \`${a.kind}/${name}\` | ${cell(e.meaning)} | ${e.hint ? cell(e.hint) : "—"} |`),
  );
  return ["| Code | Meaning | Hint |", "| --- | --- | --- |", ...rows].join("\n");
}

export function renderErrorTable(codes: Readonly<Record<string, string>>): string {
  const rows = Object.entries(codes).map(([code, meaning]) => `| \`${code}\` | ${cell(meaning)} |`);
  return ["| Code | Meaning |", "| --- | --- |", ...rows].join("\n");
}

/** A TypeBox schema as the plain JSON Schema it stands for (the shape the renderers read). */
const plainSchema = (schema: unknown): any => JSON.parse(JSON.stringify(schema));

/** The JSON Schema of an object (or a union of objects), as the docs need it. */
interface ObjectSchema {
  readonly description?: string;
  readonly properties?: Readonly<
    Record<
      string,
      { readonly description?: string; readonly const?: unknown; readonly anyOf?: readonly { readonly const?: unknown }[]; readonly type?: string }
    >
  >;
  readonly required?: readonly string[];
  readonly anyOf?: readonly ObjectSchema[];
}

/** `key` (optional keys with `?`), its literal value when it has one, and its description. */
function renderFields(o: ObjectSchema): string {
  const required = new Set(o.required ?? []);
  const fields = Object.entries(o.properties ?? {}).map(([k, v]) => {
    const literal =
      v.const !== undefined
        ? `: ${JSON.stringify(v.const)}`
        : v.anyOf?.every((a) => a.const !== undefined)
          ? `: ${v.anyOf.map((a) => JSON.stringify(a.const)).join(" | ")}`
          : "";
    return `\`${k}${required.has(k) ? "" : "?"}${literal}\`${v.description ? ` (${v.description.replace(/\.$/, "")})` : ""}`;
  });
  return fields.length === 0 ? "`{}`" : fields.join(", ");
}

/** One row per action type and params shape: what writes it, its params, its selectors. */
export function renderActionTable(
  variants: readonly { readonly description?: string; readonly properties: { readonly type: { readonly const: string }; readonly params: ObjectSchema } }[],
): string {
  const rows: string[] = ["| `type` | Written for | `params` | Selectors |", "| --- | --- | --- | --- |"];
  for (const v of variants) {
    const type = v.properties.type.const;
    const selectors = (v.description ?? "").replace(/^Selectors: /, "").replace(/\.$/, "");
    for (const shape of v.properties.params.anyOf ?? [v.properties.params]) {
      rows.push(`| \`${type}\` | ${cell(shape.description ?? "")} | ${cell(renderFields(shape))} | ${cell(selectors)} |`);
    }
  }
  return rows.join("\n");
}

/** One row per `expect` variant: its own keys (not the shared `scope` and `timeout_ms`) and when it holds. */
export function renderExpectTable(variants: readonly ObjectSchema[]): string {
  const rows: string[] = ["| Keys | Holds when |", "| --- | --- |"];
  for (const v of variants) {
    const own: ObjectSchema = {
      properties: Object.fromEntries(Object.entries(v.properties ?? {}).filter(([k]) => k !== "scope" && k !== "timeout_ms")),
      required: v.required ?? [],
    };
    rows.push(`| ${cell(renderFields(own))} | ${cell(v.description ?? "")} |`);
  }
  return rows.join("\n");
}

export const startMarker = (name: string) => `<!-- generated:${name}:start -->`;
export const endMarker = (name: string) => `<!-- generated:${name}:end -->`;

/**
 * Replaces what lies between the block's markers with `body` (plus a do-not-edit line) and keeps
 * everything else byte for byte. Throws when the markers are missing, duplicated or out of order.
 */
export function replaceBlock(text: string, name: string, body: string, source: string): string {
  const start = startMarker(name);
  const end = endMarker(name);
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i === -1 || j === -1) throw new Error(`missing ${i === -1 ? start : end}; add both markers on their own lines where the table belongs`);
  if (text.indexOf(start, i + 1) !== -1 || text.indexOf(end, j + 1) !== -1) throw new Error(`the ${name} markers appear more than once`);
  if (j < i) throw new Error(`${end} comes before ${start}`);
  const inner = `\n<!-- generated by scripts/gen-docs.ts from ${source} — do not edit between the markers -->\n\n${body}\n\n`;
  return text.slice(0, i + start.length) + inner + text.slice(j);
}

/** The docs as they must read, with every block regenerated. */
export function docFiles(root: string = REPO_ROOT): GeneratedFile[] {
  const byDoc = new Map<string, string>();
  for (const b of BLOCKS) {
    const abs = `${root}/${b.doc}`;
    if (!byDoc.has(b.doc)) {
      if (!existsSync(abs)) throw new Error(`${b.doc} does not exist; create it with the ${startMarker(b.name)} / ${endMarker(b.name)} markers`);
      byDoc.set(b.doc, readFileSync(abs, "utf8"));
    }
    try {
      byDoc.set(b.doc, replaceBlock(byDoc.get(b.doc)!, b.name, b.render(), b.source));
    } catch (error) {
      throw new Error(`${b.doc}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
  return [...byDoc].map(([path, content]) => ({ path, content }));
}

if (import.meta.main) {
  try {
    process.exit(syncGenerated(REPO_ROOT, docFiles(), parseMode(process.argv.slice(2)), "scripts/gen-docs.ts"));
  } catch (error) {
    console.error(`scripts/gen-docs.ts: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
}
