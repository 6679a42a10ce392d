// The in-house teller app the teller adapter drives: one window (a deposit form) behind a line
// protocol on stdin/stdout, one request a line, one JSON answer a line. It stands for any desktop
// program a company reaches through its own automation interface (Java Access Bridge, a terminal's
// screen buffer): the adapter reads its controls and acts on them; it knows nothing of flowproof.
//
//   screen              → {"title": "...", "controls": [{"id", "type", "name", "value"?, "enabled", "password"?}]}
//   set <id> <json>     → {"ok": true} once the field holds the text, or {"ok": false, "error": "..."}
//   press <id>          → {"ok": true} once the button did what it does
//   quit                → the app exits
//
// TELLER_BUILD=double is a regressed build: Deposit credits the amount twice.
import { createInterface } from "node:readline";

const PIN = "4711";
const double = process.env["TELLER_BUILD"] === "double";

interface Control {
  readonly id: string;
  readonly type: "text" | "edit" | "button";
  name: string;
  value?: string;
  enabled: boolean;
  password?: boolean;
}

let balance = 100;
const controls: Control[] = [
  { id: "account-label", type: "text", name: "Account:", enabled: true },
  { id: "account", type: "edit", name: "", value: "", enabled: true },
  { id: "pin-label", type: "text", name: "PIN:", enabled: true },
  { id: "pin", type: "edit", name: "", value: "", enabled: true, password: true },
  { id: "amount-label", type: "text", name: "Amount:", enabled: true },
  { id: "amount", type: "edit", name: "", value: "", enabled: true },
  { id: "deposit", type: "button", name: "Deposit", enabled: true },
  { id: "close-day", type: "button", name: "Close day", enabled: false },
  { id: "balance", type: "text", name: "Balance: 100.00", enabled: true },
  { id: "status", type: "text", name: "Ready", enabled: true },
];
const control = (id: string) => controls.find((c) => c.id === id);
const say = (id: string, text: string) => {
  control(id)!.name = text;
};

function deposit(): void {
  const v = (id: string) => control(id)!.value ?? "";
  if (v("pin") !== PIN) return say("status", "Wrong PIN");
  const amount = Number(v("amount"));
  if (!(amount > 0)) return say("status", "Enter an amount");
  balance += double ? 2 * amount : amount;
  say("balance", `Balance: ${balance.toFixed(2)}`);
  say("status", `Deposited ${amount.toFixed(2)} to ${v("account")}`);
}

function answer(line: string): object {
  const [verb = "", id = "", ...rest] = line.split(" ");
  if (verb === "screen") return { title: "Teller - Branch 12", controls };
  const c = control(id);
  if (!c) return { ok: false, error: `no control ${id}` };
  if (!c.enabled) return { ok: false, error: `${id} is disabled` };
  if (verb === "set" && c.type === "edit") {
    c.value = JSON.parse(rest.join(" ")) as string;
    return { ok: true };
  }
  if (verb === "press" && c.type === "button") {
    if (id === "deposit") deposit();
    return { ok: true };
  }
  return { ok: false, error: `cannot ${verb} ${id}` };
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line === "quit") break;
  process.stdout.write(`${JSON.stringify(answer(line))}\n`);
}
process.exit(0);
