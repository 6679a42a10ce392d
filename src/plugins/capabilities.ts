// The capabilities a surface declares: what a flow's steps are checked against when it loads.
/**
 * What a live surface can do. A flow is checked against its adapter's declared capabilities when it
 * loads: a step that needs one the surface lacks is refused (`unsupported-step`) naming both
 * (docs/plugins.md, "Capabilities").
 */
export type Capability =
  | "pointer"
  | "keyboard"
  | "navigation"
  | "select"
  | "dialogs"
  | "frames"
  | "screenshot"
  | "cookies"
  | "hover"
  | "drag"
  | "scroll"
  | "upload"
  | "downloads";

/** Every capability; docs/plugins.md ("Capabilities") says which steps need each. */
export const CAPABILITIES: readonly Capability[] = [
  "pointer",
  "keyboard",
  "navigation",
  "select",
  "dialogs",
  "frames",
  "screenshot",
  "cookies",
  "hover",
  "drag",
  "scroll",
  "upload",
  "downloads",
];
