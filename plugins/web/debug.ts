// The web surface's debug snapshot after a failed step: the document as HTML (password values
// removed), the console since the flow began, and the visible names a step could target.
import type { DebugSnapshot } from "../../src/plugins/api.ts";
import type { Session } from "./cdp/connection.ts";
import type { Protocol } from "devtools-protocol/types/protocol";

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

/** Runs in the page: the document with password values cleared, and the visible target names. */
export function readDebugPage(max: number): { dom: string; anchors: string[] } {
  const copy = document.documentElement.cloneNode(true) as HTMLElement;
  for (const input of Array.from(copy.querySelectorAll("input"))) {
    if ((input.getAttribute("type") ?? "").toLowerCase() === "password") input.removeAttribute("value");
  }
  const dom = `<!doctype html>\n${copy.outerHTML}`;
  const seen = new Set<string>();
  const anchors: string[] = [];
  const add = (text: string | null | undefined) => {
    const t = (text ?? "").replace(/\s+/g, " ").trim();
    if (t && t.length <= 80 && !seen.has(t) && anchors.length < max) {
      seen.add(t);
      anchors.push(t);
    }
  };
  const selector = "a,button,input,select,textarea,label,summary,option,[role],[aria-label],[placeholder],[title],h1,h2,h3,h4,h5,h6,th,td,li";
  for (const el of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
    if (el.getClientRects().length === 0) continue;
    add(el.getAttribute("aria-label"));
    add(el.getAttribute("placeholder"));
    add(el.getAttribute("title"));
    if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement) {
      for (const label of Array.from(el.labels ?? [])) add(label.innerText);
      if (el instanceof HTMLInputElement && (el.type === "button" || el.type === "submit")) add(el.value);
    } else add(el.innerText);
  }
  return { dom, anchors };
}

/** One debug snapshot of the page behind `session`. */
export async function debugSnapshot(session: Session, log: ConsoleLog): Promise<DebugSnapshot> {
  const res = await session.send("Runtime.evaluate", { expression: `(${readDebugPage.toString()})(${ANCHORS})`, returnByValue: true });
  if (res.exceptionDetails) throw new Error(`the page could not be read: ${res.exceptionDetails.text}`);
  const page = res.result.value as { dom: string; anchors: string[] };
  return { dom: page.dom, anchors: page.anchors, console: [...log.lines] };
}
