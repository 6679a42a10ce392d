// Recognises a manual step that happens in another application or tool — a mail client, a
// spreadsheet, a phone — which a flow of this app cannot perform: it becomes a TODO, never a step.
// By words, deterministically; quoted labels are the app's own and are not read. Pure.

interface OtherApp {
  readonly pattern: RegExp;
  /** How the TODO names it; also how an adapter names its app (its kind or title), so that app's own steps are not another app's. */
  readonly name: string;
}

/** An in-app control that exports to a format (`Export to Excel`) is not the other app. */
const NOT_EXPORT = String.raw`(?<!\b(?:export|exported|exports|download|downloaded|save|saved|open|opens)\s+(?:to|as|in)\s+)`;

const OTHER_APPS: readonly OtherApp[] = [
  { pattern: /\b(?:microsoft\s+)?outlook\b/i, name: "Outlook" },
  { pattern: /\bthunderbird\b/i, name: "Thunderbird" },
  { pattern: /\bgmail\b/i, name: "Gmail" },
  { pattern: /\b(?:e-?mail|mail)\s+(?:client|inbox|app|application|program)\b|\b(?:inbox|mailbox)\b/i, name: "a mail client" },
  { pattern: /\b(?:check|open|read)\s+(?:the\s+|your\s+|an?\s+|their\s+)?(?:confirmation\s+|activation\s+)?(?:e-?mails?|mails?)\b/i, name: "a mail client" },
  {
    pattern:
      /\b(?:e-?mail|mail)\s+(?:is|was|has\s+been|gets)\s+(?:received|sent|delivered)\b|\breceives?d?\s+(?:an?\s+|the\s+)?(?:confirmation\s+|activation\s+)?e-?mail\b/i,
    name: "a mail client",
  },
  { pattern: new RegExp(String.raw`${NOT_EXPORT}\b(?:microsoft\s+|ms\s+)?excel\b`, "i"), name: "Excel" },
  { pattern: new RegExp(String.raw`${NOT_EXPORT}\bspreadsheet\b`, "i"), name: "a spreadsheet" },
  { pattern: /\b(?:google\s+sheets|libreoffice(?:\s+calc)?|openoffice)\b/i, name: "a spreadsheet" },
  { pattern: /\b(?:(?:mobile|smart|cell)\s*)?phone\b(?!\s*(?:number|no\b|#|field|extension|ext\b))/i, name: "a phone" },
  { pattern: /\b(?:sms|text\s+message)\b/i, name: "a phone (SMS)" },
  { pattern: /\bauthenticator\s+app\b/i, name: "an authenticator app" },
  { pattern: /\bnotepad\b/i, name: "Notepad" },
  { pattern: /\b(?:microsoft\s+word|ms\s+word|word\s+document)\b/i, name: "Word" },
  { pattern: /\b(?:microsoft\s+teams|slack)\b/i, name: "a chat app" },
  { pattern: /\b(?:terminal|command\s+prompt|command\s+line|powershell|ssh)\b/i, name: "a terminal" },
  { pattern: /\b(?:file\s+explorer|windows\s+explorer|finder)\b/i, name: "a file manager" },
  { pattern: /\bsap\s+(?:gui|logon)\b/i, name: "SAP GUI" },
];

/**
 * The other application `text` acts in, or undefined when it reads as a step of the app under
 * test. `self` names that app as its adapter does (its kind and title: "notepad", "Notepad"; "sap",
 * "SAP GUI"), compared case-insensitively: an app's own name is never another app.
 */
export function anotherApp(text: string, self: readonly string[]): string | undefined {
  const unquoted = text.replace(/"[^"]*"/g, '""');
  const names = self.map((n) => n.toLowerCase());
  return OTHER_APPS.find((o) => !names.includes(o.name.toLowerCase()) && o.pattern.test(unquoted))?.name;
}
