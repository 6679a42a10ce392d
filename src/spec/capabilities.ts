// Which surface capabilities a parsed step needs (docs/plugins.md, "Capabilities"): checked for
// every step when a flow loads, against the adapter's declared capabilities, for built-in and
// project adapters alike. Pure: an AST in, capability names out.
import type { Assertion, StepAst } from "../grammar/ast.ts";

/** The capability every step of a kind needs, whatever else it says. */
const BY_STEP: Partial<Record<StepAst["kind"], string>> = {
  hover: "hover",
  drag: "drag",
  navigate: "navigation",
  reload: "navigation",
  press_key: "keyboard",
  select: "select",
  upload: "upload",
  scroll: "scroll",
  wait_download: "downloads",
};

/** The capability an assertion of a kind needs. */
const BY_ASSERTION: Partial<Record<Assertion["kind"], string>> = {
  cookie: "cookies",
  page_url: "navigation",
};

/**
 * Steps that land a pointer on an element: `Click`, `Press the "…" button`, `Double-click`,
 * `Right-click`, `Click … at x%,y%`, `Hover over`, `Drag`. A surface without `pointer` refuses them
 * at load, whatever else it declares.
 */
const POINTER_STEPS: ReadonlySet<StepAst["kind"]> = new Set(["click", "hover", "drag"]);

/** The capabilities `ast` needs, each once, in a stable order. */
export function neededCapabilities(ast: StepAst): string[] {
  const out: string[] = [];
  if (POINTER_STEPS.has(ast.kind)) out.push("pointer");
  const own = ast.kind === "assert" ? BY_ASSERTION[ast.assertion.kind] : BY_STEP[ast.kind];
  if (own && !out.includes(own)) out.push(own);
  if ((ast.kind === "click" || ast.kind === "hover") && ast.dialog) out.push("dialogs");
  // Typing into whatever has focus is keyboard input; filling a named field is the driver's own.
  if (ast.kind === "type" && ast.target === undefined) out.push("keyboard");
  return out;
}
