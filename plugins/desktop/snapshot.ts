// What a desktop surface shows when a step failed, as text: one line per visible control (its
// type, label, native id, value, tooltip and state, never a password's value) for the run bundle's
// debug files, and the texts a step could have named for "did you mean". Pure.
import type { DebugSnapshot } from "../../src/plugins/api.ts";
import { anchorsOf, plainLabel, type DesktopElement, type WindowElements } from "./element.ts";

function line(e: DesktopElement, redact: (text: string) => string): string {
  const parts: string[] = [e.controlType];
  const name = plainLabel(e.name);
  if (name) parts.push(JSON.stringify(redact(name)));
  if (e.automationId) parts.push(`id=${e.automationId}`);
  if (e.password) parts.push("password");
  else if (e.value !== undefined && e.value !== e.name) parts.push(`value=${JSON.stringify(redact(e.value))}`);
  if (e.tooltip) parts.push(`tooltip=${JSON.stringify(redact(e.tooltip))}`);
  if (e.cell) parts.push(`row=${e.cell.row} column=${JSON.stringify(redact(e.cell.column))}`);
  if (!e.enabled) parts.push("disabled");
  if (e.checked) parts.push("checked");
  if (e.itemSelected) parts.push("selected");
  if (e.expanded) parts.push("expanded");
  parts.push(`at ${e.rect.x},${e.rect.y} ${e.rect.width}x${e.rect.height}`);
  return parts.join(" ");
}

/** The texts a step may name: labels, tooltips, the labels naming controls, aliases, and values of controls that are not passwords. */
export function anchorTexts(elements: readonly DesktopElement[]): string[] {
  return [...new Set(elements.flatMap((e) => [...anchorsOf(e), e.password ? "" : (e.value ?? "")]).filter((t) => t.trim() !== ""))];
}

/** The snapshot of `groups`; `console` holds what the surface reported (a SAP status bar's messages). */
export function windowSnapshot(groups: readonly WindowElements[], redact: (text: string) => string = (t) => t, console: readonly string[] = []): DebugSnapshot {
  const dom = groups
    .map((g) => [`window ${JSON.stringify(redact(g.window.title))} (${g.window.className})`, ...g.elements.map((e) => `  ${line(e, redact)}`)].join("\n"))
    .join("\n");
  return { dom: `${dom}\n`, console: console.map(redact), anchors: anchorTexts(groups.flatMap((g) => g.elements)).map(redact) };
}
