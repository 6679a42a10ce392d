// What OCR saw, for a failed step's debug/dom.html: the window's size, every line read (its text,
// box and each word's confidence, in reading order) and, for each line, the input box a field
// step would use with it as the label (or why there is none). Secrets are redacted by `redact`.
import type { DebugSnapshot, Rect } from "../../src/plugins/api.ts";
import type { View } from "./view.ts";

/** At most this many lines are written, and asked for their field (a field search scans pixels). */
const MAX_LINES = 200;

const at = (r: Rect): string => `${r.x},${r.y} ${r.width}×${r.height}`;

export function visionSnapshot(view: View, title: string, redact: (text: string) => string = (t) => t): DebugSnapshot {
  const lines = view.scene.lines.slice(0, MAX_LINES);
  const out = [
    `window ${JSON.stringify(redact(title))} ${view.frame.width}×${view.frame.height}, read by OCR: ${view.scene.lines.length} line${view.scene.lines.length === 1 ? "" : "s"} in reading order`,
  ];
  let row = -1;
  for (const l of lines) {
    if (l.row !== row) {
      row = l.row;
      out.push(`row ${row + 1}:`);
    }
    const words = l.words.map((w) => `${JSON.stringify(redact(w.text))} ${Math.round(w.confidence)}%`).join(", ");
    out.push(`  line ${JSON.stringify(redact(l.text))} at ${at(l.box)} (words: ${words})`);
  }
  if (view.scene.lines.length > MAX_LINES) out.push(`… and ${view.scene.lines.length - MAX_LINES} more lines`);
  out.push('fields (the input box `Type … into the "<line>" field` would use, each line taken as the label):');
  for (const l of lines) {
    const f = view.field(l.box);
    out.push(`  ${JSON.stringify(redact(l.text))} → ${f.ok ? `box at ${at(f.box)} (${f.side} of the label)` : `none: ${redact(f.detail)}`}`);
  }
  return { dom: `${out.join("\n")}\n`, console: [], anchors: view.scene.lines.map((l) => redact(l.text)) };
}
