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
      const text = typeof p["text"] === "string" ? p["text"] : "";
      this.push(
        p["type"] === "console" ? `console.${String(p["method"] ?? p["level"])}` : p["type"] === "javascript" ? "uncaught" : `log.${String(p["level"])}`,
        text,
      );
    });
    await connection.send("session.subscribe", { events: ["log.entryAdded"], contexts: [context] });
    return off;
  }
}

/** The page's snapshot: the same document, anchors and console lines Chromium's gives. */
export async function firefoxDebugSnapshot(page: BidiPage, log: FirefoxConsoleLog, redact: (text: string) => string = (t) => t): Promise<DebugSnapshot> {
  const read = await page.call<DebugPage>("debugPage", { max: ANCHORS });
  if ("transient" in read) throw new FlowproofError({ code: "browser-error", message: `the page could not be read: ${read.transient}` });
  return { dom: serializeDom(read.doctype, read.root, redact), html: true, anchors: read.anchors, console: log.lines.map(redact) };
}
