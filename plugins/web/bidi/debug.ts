// A Firefox page's debug snapshot after a failed step, as Chromium's: the document as inert HTML
// (read by the same page script, password values removed and secrets redacted), the visible names
// a step could target, and the console since the flow began (WebDriver BiDi's `log.entryAdded`).
import { FlowproofError, type DebugSnapshot } from "../../../src/plugins/api.ts";
import { ConsoleLines, serializeDom } from "../debug.ts";
import type { DebugPage } from "../injected/debug-page.ts";
import type { BidiConnection } from "./connection.ts";
import type { BidiPage } from "./page.ts";

const ANCHORS = 400;

/** Console messages and uncaught errors of one tab, timestamped from when the flow began. */
export class FirefoxConsoleLog extends ConsoleLines {
  /** Starts listening to the tab's log entries; answers what stops it. */
  async listen(connection: BidiConnection, context: string): Promise<() => void> {
    const off = connection.on("log.entryAdded", (p) => {
      const source = p["source"] as { context?: string } | undefined;
      if (source?.context !== context) return;
      const args = p["args"];
      // Values Chromium's lines show by their preview are written the same way; anything else (an
      // error, a function, a node) in Firefox's own words.
      const previewed = Array.isArray(args) && args.length > 0 && args.every((a) => PREVIEWED.has(String((a as RemoteValue)?.type)));
      const text = previewed ? (args as unknown[]).map(bidiRemoteText).join(" ") : typeof p["text"] === "string" ? p["text"] : "";
      this.push(
        p["type"] === "console" ? `console.${String(p["method"] ?? p["level"])}` : p["type"] === "javascript" ? "uncaught" : `log.${String(p["level"])}`,
        text,
      );
    });
    await connection.send("session.subscribe", { events: ["log.entryAdded"], contexts: [context] });
    return off;
  }
}

/** Properties an object's preview shows, as the DevTools console shows them (Chromium's console lines). */
const PREVIEW_PROPERTIES = 5;

type RemoteValue = { readonly type?: string; readonly value?: unknown };

/** The kinds of console arguments written as Chromium's console lines show them. */
const PREVIEWED = new Set(["string", "number", "boolean", "bigint", "undefined", "null", "object", "array"]);

/** One value inside an object's preview: a primitive as is, anything else by its kind. */
function previewItem(v: RemoteValue): string {
  switch (v.type) {
    case "string":
    case "number":
    case "boolean":
      return String(v.value);
    case "bigint":
      return `${String(v.value)}n`;
    case "undefined":
    case "null":
      return v.type;
    case "array":
      return "Array";
    default:
      return v.type === "object" ? "Object" : String(v.type ?? "");
  }
}

/** A console argument (a WebDriver BiDi remote value) in the words Chromium's console lines use: objects and arrays by their preview. */
export function bidiRemoteText(arg: unknown): string {
  const v = (arg ?? {}) as RemoteValue;
  if (v.type === "string") return String(v.value);
  if (v.type === "object" && Array.isArray(v.value)) {
    const entries = v.value as Array<[unknown, RemoteValue]>;
    const items = entries
      .slice(0, PREVIEW_PROPERTIES)
      .map(([k, value]) => `${typeof k === "string" ? k : previewItem(k as RemoteValue)}: ${previewItem(value)}`);
    return `{${items.join(", ")}${entries.length > PREVIEW_PROPERTIES ? ", …" : ""}}`;
  }
  if (v.type === "array" && Array.isArray(v.value)) {
    const items = (v.value as RemoteValue[]).slice(0, 100).map(previewItem);
    return `[${items.join(", ")}${v.value.length > 100 ? ", …" : ""}]`;
  }
  if (v.type === "string" || v.type === "boolean" || v.type === "bigint") return previewItem(v);
  if (v.type === "number") return typeof v.value === "number" ? JSON.stringify(v.value) : String(v.value);
  return previewItem(v);
}

/** The page's snapshot: the same document, anchors and console lines Chromium's gives. */
export async function firefoxDebugSnapshot(page: BidiPage, log: FirefoxConsoleLog, redact: (text: string) => string = (t) => t): Promise<DebugSnapshot> {
  const read = await page.call<DebugPage>("debugPage", { max: ANCHORS });
  if ("transient" in read) throw new FlowproofError({ code: "browser-error", message: `the page could not be read: ${read.transient}` });
  return {
    dom: serializeDom(read.doctype, read.root, redact),
    html: true,
    anchors: read.anchors,
    console: log.lines.map(redact),
    errors: log.errors.map(redact),
  };
}
