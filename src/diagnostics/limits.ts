// Every size and count flowproof bounds on what it is handed: flow and suite files, the numbers a
// step may hold, the documents `author-from-doc` reads, what `capture` dumps, how long a project
// plugin may take to load. One table, documented in docs/flow-format.md "Limits" (a test keeps the
// two in step). No I/O: the environment is passed in where one is read.
import { SpecError, diagnostic } from "./diagnostic.ts";

/** One bound: its value, and the environment variable that raises it, when one does. */
export interface Limit {
  readonly value: number;
  /** What is counted, as a message says it: `bytes`, `steps`, `pages`. */
  readonly unit: string;
  /** The variable that raises it (a positive whole number), or undefined when it is fixed. */
  readonly env?: string;
  /** What the bound applies to, for the docs table. */
  readonly what: string;
}

const MiB = 1024 * 1024;

const TABLE = {
  /** A flow or suite.yaml file. */
  flowFileChars: { value: 10 * MiB, unit: "characters", what: "size of a flow or `suite.yaml` file" },
  /** Nested mappings and lists in a flow or suite file. */
  yamlDepth: { value: 64, unit: "levels", what: "nesting of mappings and lists in a flow or `suite.yaml` file" },
  /** Concrete steps of one flow, after every `foreach:` is expanded. */
  flowSteps: { value: 5_000, unit: "steps", what: "steps of one flow after `foreach:` expansion (values × steps, blocks' steps included)" },
  /** `repeat: {max: N}`. */
  repeatMax: { value: 10_000, unit: "passes", what: "`max:` of a `repeat:` block" },
  /** `Scroll … to Npx`. */
  scrollPx: { value: 1_000_000, unit: "px", what: "`Scroll … to <n>px`" },
  /** `appears N times`, `page shows X N times`, `the Nth "…"`, `${captured.x} + N`. */
  stepNumber: { value: 1_000_000, unit: "", what: "a count, ordinal or amount written in a step (`appears N times`, `the Nth`, `+ N`)" },
  /** A document `author-from-doc` reads, as stored on disk. */
  docBytes: { value: 20 * MiB, unit: "bytes", env: "FLOWPROOF_DOC_MAX_BYTES", what: "size of a document `author-from-doc` reads" },
  /** A .docx or .xlsx unzipped: the sum of its entries' sizes in the zip's central directory. */
  docUnzippedBytes: {
    value: 50 * MiB,
    unit: "bytes",
    env: "FLOWPROOF_DOC_MAX_UNZIPPED_BYTES",
    what: "a `.docx`/`.xlsx` unzipped (the sizes its zip directory declares)",
  },
  /** Rows of a CSV or of all of a workbook's sheets. */
  docRows: { value: 2_500, unit: "rows", env: "FLOWPROOF_DOC_MAX_ROWS", what: "rows of a CSV, or of all a workbook's sheets together" },
  /** Pages of a PDF. */
  docPages: { value: 500, unit: "pages", env: "FLOWPROOF_DOC_MAX_PAGES", what: "pages of a PDF" },
  /** Bytes of one captured body kept: shown in req-NNN.txt, the rest counted and never held. */
  captureDumpBytes: {
    value: 64 * 1024,
    unit: "bytes",
    what: "bytes of a body `capture` keeps and shows in `req-NNN.txt` (as text, or hexdumped when binary); the rest is counted, not kept",
  },
  /** How long a project plugin's module may take to load (its top-level await included). */
  pluginLoadMs: { value: 10_000, unit: "ms", env: "FLOWPROOF_PLUGIN_LOAD_MS", what: "loading one project plugin module, its top-level `await` included" },
} as const satisfies Record<string, Limit>;

export type LimitName = keyof typeof TABLE;
export const LIMITS: Readonly<Record<LimitName, Limit>> = TABLE;

/**
 * The bound in force: the limit's value, or the positive whole number its variable holds in
 * `env`. A variable that is set to anything else is an error naming it.
 */
export function limitValue(name: LimitName, env: Readonly<Record<string, string | undefined>> = {}): number {
  const limit: Limit = LIMITS[name];
  const raw = limit.env === undefined ? undefined : env[limit.env];
  if (raw === undefined || raw === "") return limit.value;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(n > 0) || !Number.isSafeInteger(n)) {
    throw new SpecError(
      diagnostic("bad-value", `${limit.env} must be a positive whole number of ${limit.unit}, not ${JSON.stringify(raw)}`, {
        hint: `${limit.env}=${limit.value} (the default)`,
      }),
    );
  }
  return n;
}

/** How a limit reads in a message: `10000 rows`; with its variable, `10000 rows (raise it with FLOWPROOF_DOC_MAX_ROWS=<n>)`. */
export function limitText(name: LimitName, value: number = LIMITS[name].value): string {
  const limit: Limit = LIMITS[name];
  const amount = limit.unit === "" ? String(value) : `${value} ${limit.unit}`;
  return limit.env === undefined ? amount : `${amount} (raise it with ${limit.env}=<n>)`;
}

/** The Markdown table of every limit, as docs/flow-format.md "Limits" holds it (a test compares the two). */
export function limitsTable(): string {
  const rows = (Object.keys(LIMITS) as LimitName[]).map((name) => {
    const l = LIMITS[name];
    return `| ${l.what} | ${l.unit === "" ? l.value : `${l.value} ${l.unit}`} | ${l.env === undefined ? "fixed" : `\`${l.env}\``} |`;
  });
  return ["| What | Limit | Raised by |", "| --- | --- | --- |", ...rows].join("\n");
}
