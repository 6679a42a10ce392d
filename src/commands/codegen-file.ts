// The flow file `flowproof codegen` writes: rendered whole from the steps so far and put in place by
// rename after every step, so a reader (or a killed session) only ever finds a complete file.
import { renameSync, writeFileSync } from "node:fs";
import { stringify } from "yaml";
import type { CodegenStep } from "./codegen-steps.ts";
import { CODEGEN_KIND } from "../plugins/builtin.ts";

export interface FlowHead {
  readonly name: string;
  /** The start URL as the flow writes it (`${APP_URL}/login`). */
  readonly url: string;
  /** Where the session started, for the header comment. */
  readonly startedAt: string;
}

/** A YAML scalar on one line: plain when YAML reads it back unchanged, quoted otherwise. */
const scalar = (text: string): string => stringify(text, { lineWidth: 0 }).trimEnd();

/** The flow file's text: a header saying how it was made, the keys, then each step (a TODO comment above the ones to look at). */
export function renderFlow(head: FlowHead, steps: readonly CodegenStep[]): string {
  const lines = [
    `# Recorded with \`flowproof codegen\` at ${head.startedAt}; review it, then record it with \`flowproof record\`.`,
    `name: ${scalar(head.name)}`,
    `app: ${CODEGEN_KIND}`,
    `url: ${scalar(head.url)}`,
  ];
  if (steps.length === 0) lines.push("steps: []");
  else lines.push("steps:");
  for (const s of steps) {
    if (s.todo !== undefined) lines.push(`  # TODO ${s.todo.replace(/\s*\n\s*/g, " ")}`);
    lines.push(`  - ${s.key}: ${scalar(s.text)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** Writes `text` to `path` whole: aside, then renamed over it. */
export function writeWhole(path: string, text: string): void {
  const part = `${path}.${process.pid}.part`;
  writeFileSync(part, text);
  renameSync(part, path);
}
