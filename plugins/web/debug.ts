// The web surface's debug snapshot after a failed step: the document as HTML (password values
// removed, secrets redacted before serialising), the console since the flow began, and the
// visible names a step could target (read by the page script: injected/debug-page.ts).
import { EVIDENCE_CSP, FlowproofError, type DebugSnapshot } from "../../src/plugins/api.ts";
import type { Session } from "./cdp/connection.ts";
import type { Protocol } from "devtools-protocol/types/protocol";
import type { DebugPage, DomNode } from "./injected/debug-page.ts";
import { callPage } from "./page-calls.ts";

export type { DomNode } from "./injected/debug-page.ts";

/** The most console lines kept per flow: the newest win. */
const CONSOLE_LINES = 500;
const ANCHORS = 400;

/** A page's console lines, timestamped from when the flow began; the newest CONSOLE_LINES are kept. Each protocol's log feeds it. */
export class ConsoleLines {
  readonly #lines: string[] = [];
  readonly #errors: string[] = [];
  readonly #origin = Date.now();

  get lines(): readonly string[] {
    return this.#lines;
  }

  /** The uncaught errors among the lines, the first line of each (DebugSnapshot.errors). */
  get errors(): readonly string[] {
    return this.#errors;
  }

  protected push(kind: string, text: string): void {
    const at = ((Date.now() - this.#origin) / 1000).toFixed(3);
    this.#lines.push(`[+${at}s] ${kind}: ${text}`);
    if (this.#lines.length > CONSOLE_LINES) this.#lines.splice(0, this.#lines.length - CONSOLE_LINES);
    if (kind === "uncaught") {
      this.#errors.push(text.split("\n")[0]!.trim());
      if (this.#errors.length > CONSOLE_LINES) this.#errors.splice(0, this.#errors.length - CONSOLE_LINES);
    }
  }
}

/** Console messages and uncaught errors of one page (DevTools' Runtime and Log events). */
export class ConsoleLog extends ConsoleLines {
  /** Starts listening; returns what stops it. */
  listen(session: Session): () => void {
    const offs = [
      session.on("Runtime.consoleAPICalled", (p: Protocol.Runtime.ConsoleAPICalledEvent) => this.push(`console.${p.type}`, p.args.map(remoteText).join(" "))),
      session.on("Runtime.exceptionThrown", (p: Protocol.Runtime.ExceptionThrownEvent) => {
        const d = p.exceptionDetails;
        this.push("uncaught", d.exception?.description ?? d.text);
      }),
      session.on("Log.entryAdded", (p: Protocol.Log.EntryAddedEvent) =>
        this.push(`${p.entry.source}.${p.entry.level}`, `${p.entry.text}${p.entry.url ? ` (${p.entry.url})` : ""}`),
      ),
    ];
    return () => offs.forEach((off) => off());
  }
}

/** A console argument as the DevTools console would show it, objects by their preview. */
export function remoteText(arg: Protocol.Runtime.RemoteObject): string {
  if (arg.type === "string") return String(arg.value);
  if (arg.value !== undefined) return JSON.stringify(arg.value);
  const preview = arg.preview;
  if (preview && arg.type === "object" && arg.subtype !== "error") {
    const items = preview.properties.map((p) => (preview.subtype === "array" ? (p.value ?? p.type) : `${p.name}: ${p.value ?? p.type}`));
    const more = preview.overflow ? ", …" : "";
    return preview.subtype === "array" ? `[${items.join(", ")}${more}]` : `{${items.join(", ")}${more}}`;
  }
  return arg.unserializableValue ?? arg.description ?? arg.type;
}

const VOID_ELEMENTS = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
  "basefont",
  "bgsound",
  "frame",
  "keygen",
  "param",
]);
/** Elements whose text the HTML serialiser writes unescaped (in HTML only: inside `<svg>`/`<math>` their text is markup). */
const RAW_TEXT = new Set(["style", "script", "xmp", "iframe", "noembed", "noframes", "plaintext", "noscript"]);

/** The policy the snapshot carries as the first thing in its `<head>`: nothing runs even if the stripping below missed it. */
const CSP_META = `<meta http-equiv="Content-Security-Policy" content="${EVIDENCE_CSP}">`;

/** Elements left out with everything inside them: they run, embed or redirect (`<meta http-equiv>` is handled apart). */
const ACTIVE_ELEMENTS = new Set(["script", "object", "embed", "applet", "base", "portal", "frameset", "param"]);
/** Attributes that load or navigate: dropped when they hold a script URL (frames lose theirs whatever it is). */
const URL_ATTRIBUTES = new Set([
  "href",
  "src",
  "action",
  "formaction",
  "xlink:href",
  "data",
  "poster",
  "background",
  "lowsrc",
  "dynsrc",
  "ping",
  "codebase",
  "cite",
  "manifest",
  "srcset",
  "imagesrcset",
  "to",
  "from",
  "values",
  "by",
]);
/** A URL that runs what it names when followed or loaded (ignoring the whitespace and controls a browser ignores). */
const SCRIPT_URL = /^(?:javascript:|vbscript:|livescript:|data:(?!image\/(?:png|gif|jpe?g|webp|avif|bmp|x-icon|svg\+xml)[;,]))/;
const SAFE_NAME = /^[A-Za-z][A-Za-z0-9_.:-]*$/;

/** Whether an attribute of element `name` may be written: no handler, no srcdoc, no script URL, no frame source. */
function keepAttribute(name: string, key: string, value: string): boolean {
  const k = key.toLowerCase();
  if (!SAFE_NAME.test(key) || k.startsWith("on") || k === "srcdoc" || k === "http-equiv" || k === "is") return false;
  if ((name === "iframe" || name === "frame") && k === "src") return false;
  if (k === "attributename") return !/^(?:xlink:)?href$|^on/i.test(value.trim());
  if (!URL_ATTRIBUTES.has(k)) return true;
  const url = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, "").toLowerCase();
  return !SCRIPT_URL.test(url) && !url.includes("javascript:") && !url.includes("vbscript:");
}

const escapeText = (s: string) =>
  s
    .replace(/&/g, "&amp;")
    .replace(/\u00a0/g, "&nbsp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
const escapeAttr = (s: string) =>
  s
    .replace(/&/g, "&amp;")
    .replace(/\u00a0/g, "&nbsp;")
    .replace(/"/g, "&quot;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");

/**
 * The document as inert HTML. Every text node, comment, attribute value (URLs included) and raw
 * text passes through `redact` before it is escaped: a secret is hidden in the form the page
 * holds it, never left behind in an escaped form (`&amp;`, `&quot;`) an exact match would miss.
 * Nothing of the page's can run when the file is opened: scripts, `<object>`/`<embed>`/`<applet>`,
 * `<base>` and `<meta http-equiv>` (a refresh) are left out, and so are every event-handler
 * attribute (`on…`), `srcdoc`, a frame's `src` and every script URL (`javascript:`, `vbscript:`,
 * `data:` other than an image) in an attribute that loads or navigates; the first thing in `<head>`
 * is a Content-Security-Policy that lets nothing run or load even if something slipped through.
 */
export function serializeDom(doctype: string | null, root: DomNode, redact: (text: string) => string): string {
  const kind = doctype ? redact(doctype).replace(/[^A-Za-z0-9 ._-]/g, "") : "";
  const out: string[] = doctype ? [`<!DOCTYPE ${kind || "html"}>\n`] : [];
  let policed = false;
  const police = () => {
    if (!policed) out.push(CSP_META);
    policed = true;
  };
  const write = (node: DomNode, raw: boolean, foreign: boolean, top: boolean): void => {
    if (typeof node === "string") {
      out.push(raw ? redact(node).replace(/<\//g, "<\\/") : escapeText(redact(node)));
      return;
    }
    if (!Array.isArray(node)) {
      // A comment cannot be escaped (its text is not decoded): its angle brackets become look-alikes, so it can never close early.
      out.push(
        `<!--${redact((node as { comment: string }).comment)
          .replace(/--/g, "- -")
          .replace(/</g, "\u2039")
          .replace(/>/g, "\u203a")}-->`,
      );
      return;
    }
    const [written, attrs, children] = node as readonly [string, ReadonlyArray<readonly [string, string]>, readonly DomNode[]];
    const lower = written.toLowerCase();
    if (ACTIVE_ELEMENTS.has(lower) || (lower === "meta" && attrs.some(([k]) => k.toLowerCase() === "http-equiv"))) return;
    const name = SAFE_NAME.test(written) ? written : "span";
    const inForeign = foreign || lower === "svg" || lower === "math";
    const kept = attrs.filter(([k, v]) => keepAttribute(lower, k, v));
    if (top && lower !== "html" && lower !== "head") police();
    out.push(`<${name}${kept.map(([k, v]) => ` ${k}="${escapeAttr(redact(v))}"`).join("")}>`);
    if (lower === "head" && top) police();
    if (VOID_ELEMENTS.has(lower) && !foreign) return;
    // The policy goes into a head of the snapshot's own when the page's document has none.
    const ownHead = lower === "html" && top && !children.some((c) => Array.isArray(c) && (c[0] as string).toLowerCase() === "head");
    if (ownHead) {
      out.push(`<head>${CSP_META}</head>`);
      policed = true;
    }
    for (const child of children) write(child, RAW_TEXT.has(lower) && !inForeign, inForeign, lower === "html" && top);
    out.push(`</${name}>`);
  };
  write(root, false, false, true);
  if (!policed) out.splice(doctype ? 1 : 0, 0, CSP_META);
  return out.join("");
}

/** One debug snapshot of the page behind `session`. */
export async function debugSnapshot(session: Session, log: ConsoleLog, redact: (text: string) => string = (t) => t): Promise<DebugSnapshot> {
  const page = await callPage<DebugPage>(session, "debugPage", { max: ANCHORS });
  if ("transient" in page) throw new FlowproofError({ code: "browser-error", message: `the page could not be read: ${page.transient}` });
  return {
    dom: serializeDom(page.doctype, page.root, redact),
    html: true,
    anchors: page.anchors,
    console: log.lines.map(redact),
    errors: log.errors.map(redact),
  };
}
