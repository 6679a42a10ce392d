// The in-house app under test: a stockroom console for a terminal. It redraws its whole screen
// after every command (ANSI clear and home), asks for a line at a prompt, and keeps the stock in
// a JSON file (`--store <file>`). `--read-only` is the auditor's view: find and show, no changes.
// Run it by hand: `bun stockroom.ts --store /tmp/stock.json`.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";

interface Item {
  readonly number: number;
  readonly name: string;
  readonly quantity: number;
}

const args = process.argv.slice(2);
const storeAt = args.indexOf("--store");
const store = storeAt >= 0 ? args[storeAt + 1] : undefined;
const readOnly = args.includes("--read-only");
if (!store) {
  process.stderr.write("usage: bun stockroom.ts --store <file> [--read-only]\n");
  process.exit(2);
}

const load = (): Item[] => (existsSync(store) ? (JSON.parse(readFileSync(store, "utf8")) as Item[]) : []);
const save = (items: readonly Item[]) => writeFileSync(store, JSON.stringify(items, null, 2));

let user = "-";
let message = readOnly ? "Auditor's view: read only." : "Welcome. Log in to change the stock.";
let shown: readonly Item[] = [];

const menu = readOnly ? "[F] Find item   [S] Show stock   [Q] Quit" : "[L] Log in   [A] Add item   [S] Show stock   [Q] Quit";

function draw(prompt: string): void {
  const lines = [
    `STOCKROOM CONSOLE${readOnly ? " (auditor)" : ""}`,
    "=".repeat(40),
    menu,
    `User: ${user}`,
    "",
    message,
    ...shown.map((i) => `${i.number}  ${i.name.padEnd(20)} x${i.quantity}`),
    "",
  ];
  process.stdout.write(`\x1b[2J\x1b[H${lines.join("\r\n")}\r\n${prompt}`);
}

const rl = createInterface({ input: process.stdin, terminal: false });
const lines = rl[Symbol.asyncIterator]();
async function ask(prompt: string): Promise<string> {
  draw(prompt);
  const next = await lines.next();
  if (next.done) process.exit(0);
  return next.value.trim();
}

for (;;) {
  const choice = (await ask("Choice: ")).toUpperCase();
  shown = [];
  if (choice === "Q") break;
  if (choice === "S") {
    shown = load();
    message = shown.length === 0 ? "The stock is empty." : `${shown.length} item(s) in stock:`;
  } else if (choice === "F") {
    const number = Number(await ask("Item number: "));
    const found = load().find((i) => i.number === number);
    shown = found ? [found] : [];
    message = found ? "Found:" : `No item ${number}.`;
  } else if (choice === "L" && !readOnly) {
    const name = await ask("User name: ");
    const token = await ask("API token: ");
    if (token !== process.env["STOCKROOM_TOKEN"]) message = "Log in refused: wrong API token.";
    else {
      user = name;
      message = `Logged in as ${name}.`;
    }
  } else if (choice === "A" && !readOnly) {
    if (user === "-") message = "Log in first.";
    else {
      const name = await ask("Item: ");
      const quantity = Number(await ask("Quantity: "));
      const items = load();
      const number = 1001 + items.length;
      save([...items, { number, name, quantity }]);
      message = `Added. Item number: ${number}`;
    }
  } else message = `Unknown choice ${JSON.stringify(choice)}.`;
}
process.stdout.write("\r\nBye.\r\n");
process.exit(0);
