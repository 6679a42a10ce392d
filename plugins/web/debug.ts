// The web surface's debug snapshot after a failed step: the document as HTML (password values
// removed, secrets redacted before serialising), the console since the flow began, and the
// visible names a step could target (read by the page script: injected/debug-page.ts).
import { FlowproofError, type DebugSnapshot } from "../../src/plugins/api.ts";
import type { Session } from "./cdp/connection.ts";
import type { Protocol } from "devtools-protocol/types/protocol";
import type { DebugPage, DomNode } from "./injected/debug-page.ts";
import { callPage } from "./page-calls.ts";

export type { DomNode } from "./injected/debug-page.ts";

/** The most console lines kept per flow: the newest win. */
const CONSOLE_LINES = 500;
const ANCHORS = 400;

/** Console messages and uncaught errors of one page, timestamped from when the flow began. */
export class ConsoleLog {
  readonly #lines: string[] = [];
  readonly #origin = Date.now();

  /** Starts listening; returns what stops it. */
  listen(session: Session): () => void {
    const offs = [
      session.on("Runtime.consoleAPICalled", (p: Protocol.Runtime.ConsoleAPICalledEvent) => this.#push(`console.${p.type}`, p.args.map(remoteText).join(" "))),
      session.on("Runtime.exceptionThrown", (p: Protocol.Runtime.ExceptionThrownEvent) => {
        const d = p.exceptionDetails;
        this.#push("uncaught", d.exception?.description ?? d.text);
      }),
      session.on("Log.entryAdded", (p: Protocol.Log.EntryAddedEvent) => this.#push(`${p.entry.source}.${p.entry.level}`, `${p.entry.text}${p.entry.url ? ` (${p.entry.url})` : ""}`)),
    ];
    return () => offs.forEach((off) => off());
  }

  get lines(): readonly string[] {
    return this.#lines;
  }

  #push(kind: string, text: string): void {
    const at = ((Date.now() - this.#origin) / 1000).toFixed(3);
    this.#lines.push(`[+${at}s] ${kind}: ${text}`);
    if (this.#lines.length > CONSOLE_LINES) this.#lines.splice(0, this.#lines.length - CONSOLE_LINES);
  }
}

/** A console argument as the DevTools console would show it, objects by their preview. */
export function remoteText(arg: Protocol.Runtime.RemoteObject): string {
  if (arg.type === "string") return String(arg.value);
  if (arg.value !== undefined) return JSON.stringify(arg.value);
  const preview = arg.preview;
  if (preview && (arg.type === "object") && arg.subtype !== "error") {
    const items = preview.properties.map((p) => (preview.subtype === "array" ? p.value ?? p.type : `${p.name}: ${p.value ?? p.type}`));
    const more = preview.overflow ? ", …" : "";
    return preview.subtype === "array" ? `[${items.join(", ")}${more}]` : `{${items.join(", ")}${more}}`;
  }
  return arg.unserializableValue ?? arg.description ?? arg.type;
}

const VOID_ELEMENTS = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr", "basefont", "bgsound", "frame", "keygen", "param"]);
/** Elements whose text the HTML serialiser writes unescaped. */
const RAW_TEXT = new Set(["style", "script", "xmp", "iframe", "noembed", "noframes", "plaintext", "noscript"]);

const escapeText = (s: string) => s.replace(/&/g, "&amp;").replace(/\u00a0/g, "&nbsp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const escapeAttr = (s: string) => s.replace(/&/g, "&amp;").replace(/\u00a0/g, "&nbsp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The document as HTML, every text node, comment, attribute value (URLs included) and raw text
 * passed through `redact` before it is escaped: a secret is hidden in the form the page holds it,
 * never left behind in an escaped form (`&amp;`, `&quot;`) an exact match would miss.
 */
export function serializeDom(doctype: string | null, root: DomNode, redact: (text: string) => string): string {
  const out: string[] = doctype ? [`<!DOCTYPE ${redact(doctype)}>\n`] : [];
  const write = (node: DomNode, raw: boolean): void => {
    if (typeof node === "string") {
      out.push(raw ? redact(node).replace(/<\//g, "<\\/") : escapeText(redact(node)));
      return;
    }
    if (!Array.isArray(node)) {
      out.push(`<!--${redact((node as { comment: string }).comment).replace(/--/g, "- -")}-->`);
      return;
    }
    const [name, attrs, children] = node as readonly [string, ReadonlyArray<readonly [string, string]>, readonly DomNode[]];
    out.push(`<${name}${attrs.map(([k, v]) => ` ${k}="${escapeAttr(redact(v))}"`).join("")}>`);
    if (VOID_ELEMENTS.has(name)) return;
    for (const child of children) write(child, RAW_TEXT.has(name));
    out.push(`</${name}>`);
  };
  write(root, false);
  return out.join("");
}

/** One debug snapshot of the page behind `session`. */
export async function debugSnapshot(session: Session, log: ConsoleLog, redact: (text: string) => string = (t) => t): Promise<DebugSnapshot> {
  const page = await callPage<DebugPage>(session, "debugPage", { max: ANCHORS });
  if ("transient" in page) throw new FlowproofError({ code: "browser-error", message: `the page could not be read: ${page.transient}` });
  return { dom: serializeDom(page.doctype, page.root, redact), anchors: page.anchors, console: log.lines.map(redact) };
}
