// Why a replayed model request is not the recorded turn, in the flow's words: the first thing the
// conversation says differently (`turn 3: book_flight returned confirmation CONF-065 (recorded
// CONF-311)`), then a detail line with the wire path (`model request 3, input.4.output.…: recorded
// CONF-311, replayed CONF-065`). Pure.
import { conversationOfRequest, type Conversation, type Entry, type MatchRule } from "./canonical.ts";
import { PROTOCOL_NAMES, type Protocol } from "./dialects.ts";
import { fieldDiff, ignoring, jsonEqual, leafDiffs, show, valuesAt, type LeafDiff } from "./json-diff.ts";

export interface DivergenceInput {
  /** The recorded turn (1-based) the request was compared with. */
  readonly turn: number;
  /** The model request (1-based) of this replay. */
  readonly ordinal: number;
  readonly recorded: { readonly protocol: Protocol; readonly request: unknown };
  readonly protocol: Protocol;
  readonly replayed: unknown;
  readonly rule: MatchRule;
}

const clip = (s: string, n = 120): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const quoted = (s: string): string => JSON.stringify(clip(s));
const value = (v: unknown): string => clip(show(v), 80);

/** `flight_id BA065 (recorded KQ311)` for each leaf. */
function changes(diffs: readonly LeafDiff[]): string {
  return diffs
    .map((d) => {
      const name = d.path || "the value";
      if (d.replayed === undefined) return `no ${name} (recorded ${value(d.recorded)})`;
      if (d.recorded === undefined) return `${name} ${value(d.replayed)} (not in the recording)`;
      return `${name} ${value(d.replayed)} (recorded ${value(d.recorded)})`;
    })
    .join(", ");
}

function describeEntry(e: Entry): string {
  switch (e.kind) {
    case "message":
      return `${e.role} message ${quoted(e.text)}`;
    case "call":
      return `call to ${e.name} ${clip(JSON.stringify(e.arguments), 80)}`;
    case "result":
      return `result of ${e.name || "a tool"} ${clip(typeof e.result === "string" ? e.result : JSON.stringify(e.result), 80)}`;
    case "reference":
      return `reference to ${e.id}`;
  }
}

/** The first difference between two entries at the same position: the words and the wire detail. */
function entryDifference(a: Entry, b: Entry): { words: string; wire: string[] } {
  if (a.kind === "result" && b.kind === "result" && a.name === b.name) {
    const diffs = leafDiffs(a.result, b.result, 5);
    return { words: `${b.name || "a tool"} returned ${changes(diffs)}`, wire: fieldDiff(a.result, b.result, 5, b.wire) };
  }
  if (a.kind === "call" && b.kind === "call" && a.name === b.name) {
    return {
      words: `the call to ${b.name} the agent sent back carries ${changes(leafDiffs(a.arguments, b.arguments, 5))}`,
      wire: fieldDiff(a.arguments, b.arguments, 5, b.wire),
    };
  }
  if (a.kind === "message" && b.kind === "message" && a.role === b.role) {
    const words =
      a.text !== b.text ? `the ${b.role} message reads ${quoted(b.text)} (recorded ${quoted(a.text)})` : `the ${b.role} message's other parts changed`;
    return { words, wire: fieldDiff({ text: a.text, parts: a.parts }, { text: b.text, parts: b.parts }, 3, b.wire) };
  }
  return {
    words: `the agent sent a ${describeEntry(b)} where the recording has a ${describeEntry(a)}`,
    wire: [`${b.wire}: recorded ${describeEntry(a)}, replayed ${describeEntry(b)}`],
  };
}

/** The first thing the two conversations say differently, or undefined when they are the same. */
function conversationDifference(a: Conversation, b: Conversation): { words: string; wire: string[] } | undefined {
  if (a.model !== b.model)
    return {
      words: `the agent asked model ${b.model || "(none)"} (recorded ${a.model || "(none)"})`,
      wire: [`model: recorded ${show(a.model)}, replayed ${show(b.model)}`],
    };
  if (a.system !== b.system)
    return {
      words: `the instructions read ${quoted(b.system)} (recorded ${quoted(a.system)})`,
      wire: [`instructions: recorded ${quoted(a.system)}, replayed ${quoted(b.system)}`],
    };
  const names = (c: Conversation) => c.tools.map((t) => t.name).join(", ");
  if (names(a) !== names(b))
    return { words: `the agent offered the tools [${names(b)}] (recorded [${names(a)}])`, wire: [`tools: recorded [${names(a)}], replayed [${names(b)}]`] };
  for (const [i, t] of b.tools.entries()) {
    const r = a.tools[i]!;
    if (!jsonEqual(r.parameters, t.parameters))
      return {
        words: `tool ${t.name}'s parameters changed: ${changes(leafDiffs(r.parameters, t.parameters, 3))}`,
        wire: fieldDiff(r.parameters, t.parameters, 3, `${t.wire}.parameters`),
      };
  }
  const n = Math.max(a.entries.length, b.entries.length);
  for (let i = 0; i < n; i++) {
    const x = a.entries[i];
    const y = b.entries[i];
    if (x && y && jsonEqual({ ...x, wire: "" }, { ...y, wire: "" })) continue;
    if (x && y) return entryDifference(x, y);
    if (y) return { words: `the request carries a ${describeEntry(y)} the recording does not`, wire: [`${y.wire}: not in the recorded request`] };
    if (x) return { words: `the request ends before the recorded ${describeEntry(x)}`, wire: [`${x.wire} (recorded): not in the replayed request`] };
  }
  return undefined;
}

/** The divergence of a replayed request from the recorded turn, in the flow's words, then the wire detail line. */
export function describeDivergence(input: DivergenceInput): string {
  const { turn, ordinal, recorded, protocol, replayed, rule } = input;
  const head = `turn ${turn}: `;
  const detail = (lines: readonly string[]) => `\n  model request ${ordinal} (wire): ${lines.join("; ")}`;
  if (recorded.protocol !== protocol)
    return `${head}the agent spoke ${PROTOCOL_NAMES[protocol]} (recorded ${PROTOCOL_NAMES[recorded.protocol]})${detail([`dialect: recorded ${recorded.protocol}, replayed ${protocol}`])}`;
  const a = ignoring(recorded.request, rule.ignore);
  const b = ignoring(replayed, rule.ignore);
  const found = conversationDifference(conversationOfRequest(protocol, a), conversationOfRequest(protocol, b));
  if (found) return `${head}${found.words}${detail(found.wire)}`;
  for (const path of rule.by === "conversation" ? rule.compare : []) {
    const x = valuesAt(a, path);
    const y = valuesAt(b, path);
    if (!jsonEqual(x, y)) {
      const diffs = leafDiffs(Object.fromEntries(x.map((v) => [v.path, v.value])), Object.fromEntries(y.map((v) => [v.path, v.value])), 3);
      return `${head}${changes(diffs)} (a field \`match.compare\` names)${detail(diffs.map((d) => `${d.path}: recorded ${show(d.recorded)}, replayed ${show(d.replayed)}`))}`;
    }
  }
  return `${head}the request differs outside the conversation (\`match: strict\` compares every field)${detail(fieldDiff(a, b, 5))}`;
}
