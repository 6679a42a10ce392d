// Segments a read document into the ordered steps of a manual test case, deterministically: a
// table under a recognised header (shapes.ts), or `Label: value` lines (an HP ALM report printed
// step by step). Pure: the readers hand it text; no I/O, no model.
import { LOOKED_FOR, headerRoles, readHeader, type ColumnRole, type ShapeId } from "./shapes.ts";

/** What a reader hands over: tables of cell texts, and runs of text lines, in document order. */
export type DocBlock =
  | { readonly kind: "table"; readonly rows: readonly (readonly string[])[] }
  | { readonly kind: "lines"; readonly lines: readonly string[] };

/** One step of the manual test case, as the document wrote it (whitespace and quotes normalised). */
export interface SourceStep {
  /** 1-based, in document order. */
  readonly index: number;
  /** The document's own name or number for the step (`Step 1`, `3`), when it has one. */
  readonly name?: string;
  readonly action: string;
  /** A separate test-data cell (Xray, Zephyr), when the document has one. */
  readonly data?: string;
  readonly expected?: string;
  /** Where in the document the step was found, for messages: `table 1, row 3`, `line 12`. */
  readonly where: string;
}

export type Segmentation =
  | { readonly ok: true; readonly shape: ShapeId; readonly steps: readonly SourceStep[] }
  | { readonly ok: false; readonly message: string; readonly hint: string };

/** The steps of `blocks`: every recognised table's rows, else the labelled lines. */
export function segment(blocks: readonly DocBlock[]): Segmentation {
  const steps: Omit<SourceStep, "index">[] = [];
  let shape: ShapeId | undefined;
  const seenHeaders: string[] = [];
  blocks.forEach((block, b) => {
    if (block.kind !== "table") return;
    const found = tableSteps(block.rows, `table ${b + 1}`);
    if (found.headerSeen !== undefined) seenHeaders.push(found.headerSeen);
    if (found.shape === undefined) return;
    shape ??= found.shape;
    steps.push(...found.steps);
  });
  if (shape === undefined) {
    const lines = blocks.flatMap((b) => (b.kind === "lines" ? b.lines : []));
    const labelled = labelledSteps(lines);
    if (labelled.length > 0) {
      shape = "hp-alm";
      steps.push(...labelled);
    }
  }
  if (shape === undefined || steps.length === 0) {
    const tables = blocks.filter((b) => b.kind === "table").length;
    const saw = seenHeaders.length > 0 ? `; its tables start with ${seenHeaders.slice(0, 3).join(", ")}` : tables === 0 ? "; it has no table" : "";
    return {
      ok: false,
      message: shape === undefined ? `found no test steps in the document${saw}` : "the document's step table has no row with an action",
      hint: `flowproof looks for ${LOOKED_FOR}; export the test case with its design steps, or save it as a Markdown table \`| Step | Expected Result |\``,
    };
  }
  return { ok: true, shape, steps: steps.map((s, i) => ({ index: i + 1, ...s })) };
}

/** How many leading rows of a table may come before its header (a title row, a blank row). */
const HEADER_SEARCH_ROWS = 10;

function tableSteps(cells: readonly (readonly string[])[], where: string): { shape?: ShapeId; steps: Omit<SourceStep, "index">[]; headerSeen?: string } {
  const rows = cells.map((r) => r.map(plainText));
  const first = rows.find((r) => r.some((c) => c.trim() !== ""));
  const headerSeen = first
    ? `\`${first
        .map((c) => cleanText(c))
        .filter(Boolean)
        .slice(0, 4)
        .join(" | ")}\``
    : undefined;
  for (let h = 0; h < Math.min(rows.length, HEADER_SEARCH_ROWS); h++) {
    const header = readHeader(rows[h]!);
    if (!header) continue;
    const steps: Omit<SourceStep, "index">[] = [];
    for (let r = h + 1; r < rows.length; r++) {
      const row = rows[r]!;
      // A header repeated on every page of a printed table is not a step.
      if (readHeader(row)) continue;
      const cell = (i: number | undefined) => (i === undefined ? "" : (row[i] ?? ""));
      const action = cell(header.action);
      if (cleanText(action) === "") continue;
      const expected = cell(header.expected);
      const numbered = splitNumbered(action);
      if (numbered) {
        const expectations = splitNumbered(expected);
        numbered.forEach((text, i) => {
          steps.push(
            source({
              name: `${cleanText(cell(header.name)) || `row ${r + 1}`}.${i + 1}`,
              action: text,
              expected: expectations?.[i] ?? (i === numbered.length - 1 && !expectations ? expected : ""),
              data: "",
              where: `${where}, row ${r + 1}`,
            }),
          );
        });
        continue;
      }
      steps.push(source({ name: cell(header.name), action, data: cell(header.data), expected, where: `${where}, row ${r + 1}` }));
    }
    return { shape: header.shape, steps, ...(headerSeen ? { headerSeen } : {}) };
  }
  return headerSeen ? { steps: [], headerSeen } : { steps: [] };
}

function source(raw: { name: string; action: string; data: string; expected: string; where: string }): Omit<SourceStep, "index"> {
  const name = cleanText(raw.name);
  const data = cleanText(raw.data);
  const expected = cleanText(raw.expected);
  return { ...(name ? { name } : {}), action: cleanText(raw.action), ...(data ? { data } : {}), ...(expected ? { expected } : {}), where: raw.where };
}

/** A `Label: value` line whose label is a known header. */
const LABEL_LINE = /^\s*([A-Za-z][A-Za-z #.()]{0,40}?)\s*[:：]\s*(.*)$/;
/** A line opening a step by number: `Step 3`, `Step 3: Click "Save"`. */
const STEP_LINE = /^\s*step\s+(\d+)\s*(?:[:.)–-]\s*(.*))?$/i;

/**
 * Steps written as labelled lines (`Step Name: Step 1` / `Description: …` / `Expected Result: …`);
 * a value runs on over the following unlabelled lines. Needs labels of two different roles, so a
 * stray `Description:` in prose is not a test case.
 */
function labelledSteps(lines: readonly string[]): Omit<SourceStep, "index">[] {
  interface Draft {
    name: string;
    action: string;
    data: string;
    expected: string;
    where: string;
  }
  const out: Draft[] = [];
  const roles = new Set<ColumnRole>();
  let current: Draft | undefined;
  let field: keyof Draft | undefined;
  const start = (where: string) => {
    current = { name: "", action: "", data: "", expected: "", where };
    out.push(current);
    return current;
  };
  lines.forEach((line, i) => {
    const where = `line ${i + 1}`;
    const label = LABEL_LINE.exec(line);
    const role = label ? headerRoles(label[1]!)[0] : undefined;
    const numbered = role === undefined ? STEP_LINE.exec(line) : null;
    if (numbered) {
      roles.add("name");
      const step = start(where);
      step.name = `Step ${numbered[1]}`;
      step.action = numbered[2] ?? "";
      field = "action";
      return;
    }
    if (role === undefined || role === "actual") {
      // A value runs on over unlabelled lines; an `Actual Result:` value is not read.
      if (role === "actual") field = undefined;
      else if (current && field) current[field] = `${current[field]}\n${line}`;
      return;
    }
    roles.add(role);
    const key: keyof Draft = role;
    const step = current && (role !== "name" || current.name === "") && current[key] === "" ? current : start(where);
    step[key] = label![2] ?? "";
    field = key;
  });
  if (roles.size < 2) return [];
  return out.map((d) => source(d)).filter((s) => s.action !== "");
}

/**
 * Cell text with markup removed: Azure DevOps exports a step's action as HTML
 * (`<DIV><P>Open the page</P></DIV>`); line breaks are kept for `splitNumbered`.
 */
export function plainText(raw: string): string {
  // A tag ends at the next `>` or `<` (`[^<>]`): tried at each `<` of `<a<a<a…`, a tag that could
  // run to the end of the text would be rescanned from each one.
  if (!/<\/?[a-z][^<>]*>/i.test(raw)) return raw;
  return raw
    .replace(/<br\s*\/?>|<\/(?:p|div|li|tr)>/gi, "\n")
    .replace(/<[^<>]*>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&amp;/g, "&");
}

/**
 * One line of step text: typographic quotes made straight (a Word document's “Save” is the
 * grammar's "Save"), control characters dropped, whitespace collapsed, one closing full stop removed.
 */
export function cleanText(raw: string): string {
  return (
    raw
      .replace(/[“”„‟″«»]/g, '"')
      .replace(/[‘’‚‛′]/g, "'")
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b\ufeff]/g, "")
      .replace(/\s+/g, " ")
      .trim()
      .replace(/(?<!\.)\.$/, "")
      .trim()
  );
}

const NUMBERED_ITEM = /^\s*(\d+)[.)]\s+(.*)$/;

/**
 * A cell holding a numbered list (`1. Open the page` / `2. Click "Save"`, as TestRail writes the
 * steps of a case in one cell) as its items; undefined for anything else.
 */
export function splitNumbered(text: string): string[] | undefined {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  if (lines.length < 2 || !NUMBERED_ITEM.test(lines[0]!)) return undefined;
  const items: string[] = [];
  for (const line of lines) {
    const m = NUMBERED_ITEM.exec(line);
    if (m) items.push(m[2]!);
    else items[items.length - 1] += ` ${line.trim()}`;
  }
  return items.length >= 2 ? items : undefined;
}
