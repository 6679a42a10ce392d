// Renders what each built-in adapter declares through the plugin contract (docs/plugins.md, the
// generated "Built-in adapters" block): its capabilities, steps, platforms and grammar, and one
// table of its flow keys from its keys schema — type, whether required, how the key travels (its
// role) and what it is for. Pure: adapters in, Markdown out.
import type { AdapterPlugin, KeyRole } from "../src/plugins/api.ts";
import { KEY_ROLE } from "../src/plugins/api.ts";

type Schema = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Schema => typeof v === "object" && v !== null && !Array.isArray(v);

/** Escapes a table cell (pipes split cells, newlines end rows). */
const cell = (text: string): string => text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|");

/** A value's type as a reader writes it. */
export function typeOf(s: Schema): string {
  if (Array.isArray(s["anyOf"])) return [...new Set((s["anyOf"] as Schema[]).map(typeOf))].join(" or ");
  if ("const" in s) return `\`${JSON.stringify(s["const"])}\``;
  const min = s["minimum"];
  const max = s["maximum"];
  switch (s["type"]) {
    case "integer":
      return typeof min === "number" && typeof max === "number" ? `integer ${min}–${max}` : "integer";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "array":
      return isObj(s["items"]) ? `list of ${typeOf(s["items"])}` : "list";
    case "object":
      return "mapping";
    case "string":
      return Array.isArray(s["enum"]) ? (s["enum"] as unknown[]).map((v) => `\`${String(v)}\``).join(", ") : "string";
    default:
      return "any";
  }
}

/** How a key travels, in words: recorded, a secret, references, … (empty: read from the spec, literal). */
export function travels(role: KeyRole): string {
  const out: string[] = [];
  const r = role.recorded;
  if (r !== undefined)
    out.push(`recorded as written${typeof r === "object" && r.as ? ` as \`${r.as}\`` : ""}${typeof r === "object" && r.top ? " beside `app`" : ""}`);
  if (role.pinned) out.push("a new recording when it changes");
  if (role.secret) out.push("secret: read from the flow at every run, never stored");
  if (role.references === "env") out.push("`${VAR}`");
  if (role.references === "captured") out.push("`${VAR}`, `${captured.x}` on a surface");
  if (role.path === "flow-relative") out.push("path relative to the flow");
  if (role.suiteDefault) out.push("suite default");
  if (role.named) out.push(`or a name from the suite's \`${role.named}:\``);
  if (role.matrix) out.push(`runs once per entry of the suite's \`${role.matrix.key}:\``);
  if (role.shared) out.push("shared by a multi-surface flow's surfaces");
  if (role.surface === false) out.push("not on an `apps:` surface");
  return out.join("; ");
}

/** The rows of a keys schema, nested mappings' keys as dotted paths. */
function rows(schema: Schema, inApp: readonly string[], prefix = "", required: readonly string[] = []): string[] {
  const out: string[] = [];
  const props = isObj(schema["properties"]) ? schema["properties"] : {};
  const req = (schema["required"] as string[] | undefined) ?? required;
  for (const [key, sub] of Object.entries(props)) {
    if (!isObj(sub)) continue;
    const path = prefix === "" ? key : `${prefix}.${key}`;
    const role = (sub[KEY_ROLE] as KeyRole | undefined) ?? {};
    const written = prefix === "" && inApp.includes(key) ? `app.${key}` : path;
    out.push(
      `| \`${written}\` | ${cell(typeOf(sub))} | ${req.includes(key) ? "yes" : "—"} | ${cell(travels(role) || "—")} | ${cell(String(sub["description"] ?? ""))} |`,
    );
    if (sub["type"] === "object" && isObj(sub["properties"]) && prefix === "") out.push(...rows(sub, [], path));
  }
  return out;
}

/** One section per adapter. */
export function renderAdapterTables(adapters: readonly AdapterPlugin[]): string {
  const out: string[] = [];
  for (const a of adapters) {
    out.push(`### \`app: ${a.keys?.inApp?.length ? `{${a.keys.inApp.join(", ")}}` : a.kind}\`${a.title ? ` — ${a.title}` : ""}`, "");
    const facts = [
      `capabilities: ${a.capabilities.length > 0 ? a.capabilities.map((c) => `\`${c}\``).join(", ") : "none"}`,
      `steps: \`${a.steps ?? "ui"}\``,
      ...(a.platforms ? [`runs on: ${a.platforms.name} (${a.platforms.os.map((o) => `\`${o}\``).join(", ")})`] : []),
      ...(a.grammar?.lacks?.length ? [`lacks: ${a.grammar.lacks.map((f) => `\`${f}\``).join(", ")}`] : []),
      ...(a.grammar?.keys?.functionKeys ? ["presses F1–F12"] : []),
      ...(a.grammar?.keys?.words
        ? [
            `key words: ${Object.keys(a.grammar.keys.words)
              .map((w) => `\`${w}\``)
              .join(", ")}`,
          ]
        : []),
      ...(a.grammar?.bareDestination ? [`\`Go to <word>\` is \`Go to ${a.grammar.bareDestination.prefix}<word>\``] : []),
      ...(a.grammar?.sugar?.length ? [`assertions: ${a.grammar.sugar.map((s) => `\`${s.example}\``).join(", ")}`] : []),
      ...(a.credentials
        ? [
            `fallback credentials: \`flowproof config ${a.kind}\`${a.credentials.fields?.length ? ` (${a.credentials.fields.map((f) => `\`--${f.name}\``).join(", ")})` : ""}, kept in the ${a.credentials.where}`,
          ]
        : []),
    ];
    out.push(facts.join("; ") + ".", "");
    const schema = a.keys?.schema as Schema | undefined;
    const keyRows = schema ? rows(schema, a.keys?.inApp ?? []) : ["| `url` | string | — | `${VAR}` | Where the flow starts (a kind that declares no keys). |"];
    if (keyRows.length === 0) out.push("No keys besides `app`.", "");
    else out.push("| Key | Type | Required | How it travels | Description |", "| --- | --- | --- | --- | --- |", ...keyRows, "");
  }
  return out.join("\n").trimEnd();
}
