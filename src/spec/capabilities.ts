// Which surface capabilities a parsed step needs (docs/plugins.md, "Capabilities"): checked for
// every step when a flow loads, against the adapter's declared capabilities, for built-in and
// project adapters alike. Pure: an AST in, capability names out.
import type { Assertion, StepAst } from "../grammar/ast.ts";

/** The capabilities `ast` needs, each once, in a stable order. */
export function neededCapabilities(ast: StepAst): string[] {
  const out = new Set<string>();
  switch (ast.kind) {
    case "click":
    case "hover":
      if (ast.kind === "hover") out.add("hover");
      if (ast.dialog) out.add("dialogs");
      break;
    case "drag":
      out.add("drag");
      break;
    case "navigate":
    case "reload":
      out.add("navigation");
      break;
    case "type":
      // Typing into whatever has focus is keyboard input; filling a named field is the driver's own.
      if (ast.target === undefined) out.add("keyboard");
      break;
    case "press_key":
      out.add("keyboard");
      break;
    case "select":
      out.add("select");
      break;
    case "upload":
      out.add("upload");
      break;
    case "scroll":
      out.add("scroll");
      break;
    case "wait_download":
      out.add("downloads");
      break;
    case "assert":
      for (const c of assertionCapabilities(ast.assertion)) out.add(c);
      break;
    default:
      break;
  }
  return [...out];
}

function assertionCapabilities(a: Assertion): string[] {
  switch (a.kind) {
    case "cookie":
      return ["cookies"];
    case "page_url":
      return ["navigation"];
    default:
      return [];
  }
}
