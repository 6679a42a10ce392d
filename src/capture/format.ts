// What `flowproof capture` saves and prints for one request: the request line and headers as sent,
// the body as text or (binary) as a hexdump, and the SAP-namespace field names (`/SCWM/LGNUM`) in
// it. Credentials — headers, query and form fields, JSON body fields, by name — are replaced by
// their length. Pure: no files, no sockets.
import type { RawRequest } from "./http-parser.ts";

/**
 * A header, query or form field, or JSON key whose value is a credential: its name holds one of
 * these words (documented in docs/cli.md, `capture`).
 */
export const CREDENTIAL_WORDS = [
  "token",
  "key",
  "secret",
  "password",
  "passwd",
  "pwd",
  "auth",
  "session",
  "cookie",
  "signature",
  "credential",
  "sso",
  "jwt",
] as const;
/** Vendor headers that carry credentials without one of those words in their name. */
export const CREDENTIAL_HEADERS = [
  "x-goog-iap-jwt-assertion",
  "x-ms-client-principal",
  "x-amz-security-token",
  "mysapsso2",
  "x-hub-signature-256",
  "x-sap-logontoken",
] as const;

const CREDENTIAL_NAME = new RegExp(CREDENTIAL_WORDS.join("|"), "i");

/** Whether a field or header named `name` holds a credential. */
export const isCredentialName = (name: string): boolean => CREDENTIAL_NAME.test(name) || (CREDENTIAL_HEADERS as readonly string[]).includes(name.toLowerCase());

const redacted = (secret: string): string => `[redacted: ${new TextEncoder().encode(secret).length} bytes]`;

/** A header value fit to save: a credential's scheme kept, its secret replaced by its length. */
export function shownValue(name: string, value: string): string {
  if (!isCredentialName(name)) return value;
  const scheme = /^(Basic|Bearer|Digest|Negotiate|NTLM|SAPISID\w*)\s+/i.exec(value)?.[1];
  const secret = scheme ? value.slice(value.indexOf(scheme) + scheme.length).trimStart() : value;
  return `${scheme ? `${scheme} ` : ""}[redacted: ${secret.length} bytes]`;
}

/** `a=1&api_key=s3cr3t` with each credential field's value replaced by its length (the rest as sent). */
export function shownForm(form: string): string {
  return form
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      if (eq < 0) return pair;
      const name = pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, " "));
      } catch {
        // An undecodable name is judged as written.
      }
      return isCredentialName(decoded) ? `${name}=${redacted(pair.slice(eq + 1))}` : pair;
    })
    .join("&");
}

/** A request target with the values of its credential query fields redacted. */
export function shownTarget(target: string): string {
  const q = target.indexOf("?");
  return q < 0 ? target : `${target.slice(0, q + 1)}${shownForm(target.slice(q + 1))}`;
}

/** A JSON string, then `:`, then a value: a key and what it holds. Each alternative is disjoint, so a scan is linear. */
const JSON_MEMBER = /"((?:[^"\\]|\\.)*)"(\s*:\s*)("(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+-]*)/g;

/** JSON text with the string or number value of each credential key replaced, as a string, by its length. */
export function shownJson(text: string): string {
  return text.replace(JSON_MEMBER, (whole, key: string, colon: string, value: string) =>
    isCredentialName(key) ? `"${key}"${colon}"${redacted(value.startsWith('"') ? value.slice(1, -1) : value)}"` : whole,
  );
}

const contentType = (req: RawRequest): string => req.headers.find(([n]) => n.toLowerCase() === "content-type")?.[1].toLowerCase() ?? "";

/** A text body fit to save: form fields and JSON keys that hold credentials redacted. */
export function shownBody(req: RawRequest, text: string): string {
  const type = contentType(req);
  if (type.startsWith("application/x-www-form-urlencoded")) return shownForm(text);
  if (type.includes("json") || /^\s*[[{]/.test(text)) return shownJson(text);
  return text;
}

/** The request line as saved: its target's credential query fields redacted. */
const shownRequestLine = (req: RawRequest): string => `${req.method} ${shownTarget(req.target)} ${req.version}`;

/** Bytes the whole body had. */
export const bodyLength = (req: RawRequest): number => req.bodyLength ?? req.body.length;
/** Bytes of the body that were counted but not kept. */
const notKept = (req: RawRequest): number => bodyLength(req) - req.body.length;

/** A body is shown as text when it is valid UTF-8 with no control characters but tab, CR, LF and FF. */
export function bodyText(body: Uint8Array, cut = false): string | undefined {
  let text: string;
  try {
    // A body cut short may end inside a character: the decoder is told more was to come.
    text = new TextDecoder("utf-8", { fatal: true }).decode(body, { stream: cut });
  } catch {
    return undefined;
  }
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text) ? undefined : text;
}

/** The classic 16-bytes-a-line dump: offset, hex in two groups of eight, printable ASCII. */
export function hexdump(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let at = 0; at < bytes.length; at += 16) {
    const row = bytes.subarray(at, at + 16);
    const hex = [...row].map((b) => b.toString(16).padStart(2, "0"));
    const left = hex.slice(0, 8).join(" ");
    const right = hex.slice(8).join(" ");
    const ascii = [...row].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".")).join("");
    lines.push(`${at.toString(16).padStart(8, "0")}  ${left.padEnd(23)}  ${right.padEnd(23)}  |${ascii}|`);
  }
  return lines.join("\n");
}

/** `/NAMESPACE/FIELD` as SAP writes namespaced names, upper case, not part of a longer path. */
const NAMESPACED = /(?<![A-Za-z0-9_/])\/[A-Z0-9][A-Z0-9_]{0,9}\/[A-Z0-9][A-Z0-9_]*(?![A-Za-z0-9_/])/g;
/** The same name in an XML element, where SAP escapes `/` as `_-` (`<_-SCWM_-LGNUM>`). */
const NAMESPACED_XML = /(?<![A-Za-z0-9])_-([A-Z0-9][A-Z0-9_]{0,9}?)_-([A-Z0-9][A-Z0-9_]*)/g;

/** The SAP-namespace field names in `text` (a body, a query string), once each, in order of appearance. */
export function namespaceFields(text: string): string[] {
  const found = new Map<number, string>();
  for (const m of text.matchAll(NAMESPACED)) found.set(m.index, m[0]);
  for (const m of text.matchAll(NAMESPACED_XML)) found.set(m.index, `/${m[1]}/${m[2]}`);
  return [...new Set([...found.entries()].sort((a, b) => a[0] - b[0]).map(([, name]) => name))];
}

const decodeForm = (s: string): string => {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
};

/** The namespace fields of a request: in its query and its body (form-encoded bodies decoded). */
export function requestNamespaceFields(req: RawRequest): string[] {
  const query = req.target.includes("?") ? decodeForm(req.target.slice(req.target.indexOf("?") + 1)) : "";
  const text = bodyText(req.body, notKept(req) > 0) ?? "";
  const form = req.headers.some(([n, v]) => n.toLowerCase() === "content-type" && v.toLowerCase().startsWith("application/x-www-form-urlencoded"));
  return [...new Set([...namespaceFields(query), ...namespaceFields(form ? decodeForm(text) : text)])];
}

/** The `--json` line for one request (documented in docs/cli.md). */
export interface CaptureRecord {
  /** 1-based number of the request since the sink started (its file is req-NNN.txt). */
  readonly seq: number;
  readonly method: string;
  /** The request target as sent: path and query. */
  readonly path: string;
  readonly version: string;
  /** `[name, value]` in the order and case sent; credential values redacted. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body_length: number;
  readonly body_kind: "none" | "text" | "binary";
  readonly chunked: boolean;
  readonly namespace_fields: readonly string[];
  /** Absolute path of the saved req-NNN.txt. */
  readonly file: string;
}

export function captureRecord(req: RawRequest, seq: number, file: string): CaptureRecord {
  return {
    seq,
    method: req.method,
    path: shownTarget(req.target),
    version: req.version,
    headers: req.headers.map(([n, v]) => [n, shownValue(n, v)] as const),
    body_length: bodyLength(req),
    body_kind: bodyLength(req) === 0 ? "none" : textOf(req) === undefined ? "binary" : "text",
    chunked: req.chunked,
    namespace_fields: requestNamespaceFields(req),
    file,
  };
}

const headText = (req: RawRequest): string => [shownRequestLine(req), ...req.headers.map(([n, v]) => `${n}: ${shownValue(n, v)}`)].join("\n");

/** The kept body as text, or undefined when it is binary. */
const textOf = (req: RawRequest): string | undefined => bodyText(req.body, notKept(req) > 0);

function facts(req: RawRequest, record: CaptureRecord, text: string | undefined): string {
  const rest = notKept(req);
  return [
    `--- body: ${bodyLength(req)} bytes${bodyLength(req) === 0 ? "" : text !== undefined ? ", text" : ", binary (hexdump above)"}${req.chunked ? ", sent chunked" : ""}${rest > 0 ? `; the first ${req.body.length} shown, the other ${rest} counted and not kept` : ""}`,
    ...req.trailers.map(([n, v]) => `--- trailer: ${n}: ${shownValue(n, v)}`),
    `--- SAP namespace fields: ${record.namespace_fields.length > 0 ? record.namespace_fields.join(", ") : "none"}`,
  ].join("\n");
}

const withNewline = (s: string): string => (s === "" || s.endsWith("\n") ? s : `${s}\n`);

/**
 * The text of req-NNN.txt: the request line and headers as sent, a blank line, the body (text as
 * sent, or a hexdump), then a `---` section with the body's size and kind, the trailers of a
 * chunked body and the namespace fields.
 */
export function requestText(req: RawRequest, record: CaptureRecord): string {
  const text = textOf(req);
  const body = req.body.length === 0 ? "" : text !== undefined ? shownBody(req, text) : hexdump(req.body);
  const rest = notKept(req);
  return `${headText(req)}\n\n${withNewline(body)}${rest > 0 ? `… ${rest} more bytes, not kept\n` : ""}${facts(req, record, text)}\n`;
}

/** Characters of a text body printed on the terminal (the file keeps all of it). */
export const PRINTED_TEXT_CHARS = 4096;
/** Bytes of a binary body hexdumped on the terminal. */
export const PRINTED_BINARY_BYTES = 256;

/** What the terminal shows for one request: the saved text, a long body cut with a pointer to the file. */
export function printedText(req: RawRequest, record: CaptureRecord): string {
  const text = textOf(req);
  const long = text !== undefined ? text.length > PRINTED_TEXT_CHARS : req.body.length > PRINTED_BINARY_BYTES;
  if (!long) return requestText(req, record);
  const shown = text !== undefined ? shownBody(req, text).slice(0, PRINTED_TEXT_CHARS) : hexdump(req.body.subarray(0, PRINTED_BINARY_BYTES));
  return `${headText(req)}\n\n${withNewline(shown)}… the rest is in ${record.file}\n${facts(req, record, text)}\n`;
}
