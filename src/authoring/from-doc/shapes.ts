// The export shapes `author-from-doc` recognises: the column headers test-management tools write
// (HP ALM / Quality Center, Azure DevOps, Xray / Jira, TestRail) and which role each column plays.
// Pure data and lookups: no I/O.

/** What a column of a test-step table holds. */
export type ColumnRole = "name" | "action" | "data" | "expected" | "actual";

export type ShapeId = "hp-alm" | "azure-devops" | "xray-jira" | "testrail" | "generic";

/** How a header cell is compared: lower case, spaces collapsed, a trailing `:` or `*` dropped. */
export function normalizeHeader(text: string): string {
  const h = text.toLowerCase().replace(/\s+/g, " ").trim();
  // The trailing marks are cut by a scan from the end: a pattern anchored at `$` would be tried
  // at every `:` of a long run of them.
  let end = h.length;
  while (end > 0 && (h[end - 1] === ":" || h[end - 1] === "*")) end--;
  return h.slice(0, end).trim();
}

/**
 * Header texts that name the step's action, best first: when a table has several (`Test Step`
 * beside `Step Action` in an Azure DevOps export), the first listed is the action and the others
 * name or number the step.
 */
export const ACTION_HEADERS: readonly string[] = [
  "step action",
  "steps (step)",
  "action",
  "actions",
  "description",
  "step description",
  "test step description",
  "step details",
  "instructions",
  "procedure",
  "test step",
  "step",
  "steps",
];
const NAME_HEADERS: readonly string[] = [
  "step name",
  "step #",
  "step no",
  "step no.",
  "step number",
  "step id",
  "#",
  "no",
  "no.",
  "nr",
  "index",
  "test step",
  "step",
];
const DATA_HEADERS: readonly string[] = ["data", "test data", "step data", "input data", "steps (data)"];
export const EXPECTED_HEADERS: readonly string[] = [
  "expected result",
  "expected results",
  "expected",
  "step expected",
  "steps (expected result)",
  "expected outcome",
  "expected behavior",
  "expected behaviour",
  "expected output",
  "result",
];
const ACTUAL_HEADERS: readonly string[] = ["actual result", "actual results", "actual", "actual outcome", "status", "result status"];

/** The roles a header cell could play (a cell such as `Step` may name the step or hold its action). */
export function headerRoles(text: string): ColumnRole[] {
  const h = normalizeHeader(text);
  const roles: ColumnRole[] = [];
  if (ACTION_HEADERS.includes(h)) roles.push("action");
  if (NAME_HEADERS.includes(h)) roles.push("name");
  if (DATA_HEADERS.includes(h)) roles.push("data");
  if (EXPECTED_HEADERS.includes(h)) roles.push("expected");
  if (ACTUAL_HEADERS.includes(h)) roles.push("actual");
  return roles;
}

/** The columns of a recognised header row (0-based cell indexes). */
export interface HeaderColumns {
  readonly action: number;
  readonly name?: number;
  readonly data?: number;
  readonly expected?: number;
  readonly shape: ShapeId;
}

/**
 * Reads a row as a test-step header: the action column (the best-ranked action header) plus at
 * least one more recognised column (name, data, expected or actual), or undefined. Demanding two
 * keeps a metadata row such as `Description | Checks the login` from passing as a header.
 */
export function readHeader(cells: readonly string[]): HeaderColumns | undefined {
  const normalized = cells.map(normalizeHeader);
  let action = -1;
  let rank = Infinity;
  normalized.forEach((h, i) => {
    const r = ACTION_HEADERS.indexOf(h);
    if (r >= 0 && r < rank) {
      rank = r;
      action = i;
    }
  });
  if (action < 0) return undefined;
  const find = (role: ColumnRole) => {
    const i = cells.findIndex((c, j) => j !== action && headerRoles(c).includes(role));
    return i < 0 ? undefined : i;
  };
  const name = find("name");
  const data = find("data");
  const expected = find("expected");
  const actual = find("actual");
  if (name === undefined && data === undefined && expected === undefined && actual === undefined) return undefined;
  return {
    action,
    ...(name !== undefined ? { name } : {}),
    ...(data !== undefined ? { data } : {}),
    ...(expected !== undefined ? { expected } : {}),
    shape: shapeOf(new Set(normalized)),
  };
}

function shapeOf(headers: ReadonlySet<string>): ShapeId {
  if (headers.has("step action") || headers.has("step expected")) return "azure-devops";
  if (headers.has("step name") && headers.has("description")) return "hp-alm";
  if (headers.has("steps (step)") || headers.has("steps (expected result)")) return "testrail";
  if (headers.has("action") || headers.has("test step") || headers.has("test data")) return "xray-jira";
  return "generic";
}

/** How a shape is named in output. */
export const SHAPE_LABELS: Readonly<Record<ShapeId, string>> = {
  "hp-alm": "HP ALM / Quality Center",
  "azure-devops": "Azure DevOps",
  "xray-jira": "Xray / Jira",
  testrail: "TestRail",
  generic: "a test-step table",
};

/** What the segmenter looks for, for the error that says it found none. */
export const LOOKED_FOR =
  "a table (or `Label: value` lines) with an action column — Description, Step Action, Action, Step, Test Step or Steps (Step) — " +
  "beside a step-name, data or expected column such as Step Name, Data or Expected Result";
