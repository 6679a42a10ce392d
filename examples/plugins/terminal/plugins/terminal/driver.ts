// The terminal app's AppDriver: what the engine asks, answered from the screen. A field is the
// prompt the program waits at (`Type clerk into the "User name" field` answers `User name: `), a
// button is a menu entry `[L] Log in` (pressing it types its letter and Enter), and text is what
// the screen shows. Every method is one attempt; the engine polls and waits.
import type {
  AppDriver,
  Attempt,
  Capability,
  Expectation,
  KeyModifier,
  Reading,
  RectTarget,
  RectsAnswer,
  SceneEntry,
  SceneInventory,
  Selector,
  TypeOptions,
} from "flowproof";
import { CELL_HEIGHT, CELL_WIDTH, picture } from "./picture.ts";
import type { Terminal } from "./pty.ts";

export const CAPABILITIES: readonly Capability[] = ["pointer", "keyboard", "screenshot"];

const MENU_ENTRY = /\[([A-Za-z0-9])\]\s+([^[]*?)(?=\s{2,}|\s*\[|$)/g;
const KEYS: Readonly<Record<string, string>> = {
  Enter: "\r",
  Tab: "\t",
  Escape: "\x1b",
  Backspace: "\x7f",
  Space: " ",
  Delete: "\x1b[3~",
  ArrowUp: "\x1b[A",
  ArrowDown: "\x1b[B",
  ArrowRight: "\x1b[C",
  ArrowLeft: "\x1b[D",
  Home: "\x1b[H",
  End: "\x1b[F",
  PageUp: "\x1b[5~",
  PageDown: "\x1b[6~",
};

/** The label a step names (`"Log in"`); `css:` and `id:` rungs mean nothing on a terminal. */
function labelOf(ladder: readonly Selector[]): string | undefined {
  const text = ladder.find((s) => s.tier === "text_anchor")?.payload["text"];
  return typeof text === "string" ? text : undefined;
}

const unsupported = (what: string): Attempt<never> => ({ ok: false, failed: "unsupported", detail: `a terminal app has no ${what}`, retryable: false });
const notFound = (detail: string): Attempt<never> => ({ ok: false, failed: "not-found", detail, retryable: true });
const done: Attempt = { ok: true, value: undefined };

/** A rectangle of cells, in frame pixels. */
const cells = (row: number, col: number, length: number) => ({ x: col * CELL_WIDTH, y: row * CELL_HEIGHT, width: length * CELL_WIDTH, height: CELL_HEIGHT });

export class TerminalDriver implements AppDriver {
  readonly capabilities: ReadonlySet<Capability> = new Set(CAPABILITIES);
  readonly #term: Terminal;
  readonly #describe: string;
  /** Cells a secret was typed into, until the screen is cleared (the program redrew without them). */
  #secrets: { row: number; col: number; length: number; clears: number }[] = [];
  #seen = -1;

  constructor(term: Terminal, describe: string) {
    this.#term = term;
    this.#describe = describe;
  }

  get #screen() {
    return this.#term.screen;
  }

  /** The menu entries on screen: hotkey and label. */
  #entries(): { key: string; label: string; row: number; col: number }[] {
    const out: { key: string; label: string; row: number; col: number }[] = [];
    this.#screen.lines().forEach((line, row) => {
      for (const m of line.matchAll(MENU_ENTRY)) out.push({ key: m[1]!, label: m[2]!.trim(), row, col: m.index! });
    });
    return out;
  }

  /** The prompt the program waits at: its cursor line up to the cursor, e.g. `User name: `. */
  #prompt(): string {
    const { row, col } = this.#screen.cursor;
    return (this.#screen.lines()[row] ?? "").slice(0, col).trim();
  }

  #gone(): Attempt<never> | undefined {
    const exited = this.#term.exited;
    return exited ? { ok: false, failed: "not-found", detail: `the terminal app ended (exit code ${exited.code})`, retryable: false } : undefined;
  }

  /**
   * Waits (bounded by `timeoutMs`, as navigation may) until the program shows something: it
   * started. The URL is not a page: a terminal app has no start page.
   */
  async navigate(_url: string, timeoutMs: number): Promise<Attempt> {
    const until = Date.now() + timeoutMs;
    while (this.#screen.text() === "" && this.#term.exited === undefined && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    return (
      this.#gone() ??
      (this.#screen.text() === ""
        ? { ok: false, failed: "not-found", detail: `the terminal app showed nothing within ${timeoutMs} ms`, retryable: false }
        : done)
    );
  }

  reload = async (): Promise<Attempt> => unsupported("page to reload");
  hover = async (): Promise<Attempt> => unsupported("pointer to hover with");
  select = async (): Promise<Attempt> => unsupported("dropdowns");
  setChecked = async (): Promise<Attempt> => unsupported("checkboxes");

  /** `Press the "Log in" button`: types the entry's letter and Enter. */
  async click(ladder: readonly Selector[]): Promise<Attempt> {
    const label = labelOf(ladder);
    if (label === undefined) return unsupported("css: or id: targets; name a menu entry by its text");
    const entry = this.#entries().find((e) => e.label === label) ?? this.#entries().find((e) => e.label.toLowerCase() === label.toLowerCase());
    if (!entry)
      return (
        this.#gone() ??
        notFound(
          `no menu entry "${label}" on the screen (it shows: ${
            this.#entries()
              .map((e) => `[${e.key}] ${e.label}`)
              .join(", ") || "no menu"
          })`,
        )
      );
    this.#term.type(`${entry.key}\r`);
    return done;
  }

  /** `Type clerk into the "User name" field`: the program must be waiting at that prompt; the text and Enter are typed. */
  async fill(ladder: readonly Selector[], text: string, options?: TypeOptions): Promise<Attempt> {
    const label = labelOf(ladder);
    if (label === undefined) return unsupported("css: or id: targets; name the prompt by its text");
    const prompt = this.#prompt();
    if (!prompt.toLowerCase().startsWith(label.toLowerCase()))
      return this.#gone() ?? notFound(`the terminal app is not asking for "${label}" (its prompt is ${JSON.stringify(prompt)})`);
    this.#typeAt(text, options);
    this.#term.type("\r");
    return done;
  }

  /** `Type …`: keystrokes at the cursor, no Enter. */
  async typeFocused(text: string, options?: TypeOptions): Promise<Attempt> {
    this.#typeAt(text, options);
    return this.#gone() ?? done;
  }

  #typeAt(text: string, options: TypeOptions | undefined): void {
    // The terminal echoes what is typed where the cursor is: a secret's cells are masked in every frame.
    const { row, col } = this.#screen.cursor;
    if (options?.secret) this.#secrets.push({ row, col, length: [...text].length, clears: this.#screen.clears });
    this.#term.type(text);
  }

  async pressKey(key: string, modifiers: readonly KeyModifier[]): Promise<Attempt> {
    if (modifiers.length === 1 && modifiers[0] === "ctrl" && /^[a-z]$/.test(key)) {
      this.#term.type(String.fromCharCode(key.charCodeAt(0) - 96));
      return done;
    }
    const seq = modifiers.length === 0 ? KEYS[key] : undefined;
    if (seq === undefined) return unsupported(`key ${[...modifiers, key].join("+")}`);
    this.#term.type(seq);
    return this.#gone() ?? done;
  }

  /** `Remember the "Item number" as item`: what follows the label on its line (`Item number: 1001` → `1001`). */
  async readText(ladder: readonly Selector[]): Promise<Attempt<string>> {
    const label = labelOf(ladder);
    if (label === undefined) return { ok: true, value: this.#screen.text() };
    for (const line of this.#screen.lines()) {
      const at = line.indexOf(label);
      if (at >= 0)
        return {
          ok: true,
          value:
            line
              .slice(at + label.length)
              .replace(/^\s*:?\s*/, "")
              .trim() || line.trim(),
        };
    }
    return notFound(`"${label}" is not on the screen`);
  }

  async count(ladder: readonly Selector[]): Promise<number> {
    const label = labelOf(ladder) ?? "";
    return label === "" ? 0 : this.#screen.lines().filter((l) => l.includes(label)).length;
  }

  async check(ladder: readonly Selector[], expect: Expectation): Promise<Reading> {
    const label = labelOf(ladder);
    const screen = this.#screen.text();
    const read = label === undefined ? { ok: true as const, value: screen } : await this.readText(ladder);
    const seen = read.ok ? read.value : undefined;
    switch (expect.kind) {
      case "text_contains":
        if (expect.count !== undefined) {
          const n = screen.split(expect.text).length - 1;
          return { pass: n === expect.count, actual: `${n} time(s)` };
        }
        return { pass: seen?.includes(expect.text) === true, actual: (seen ?? "not on the screen").slice(0, 200) };
      case "text_absent":
        return { pass: !screen.includes(expect.text), actual: screen.slice(0, 200) };
      case "title": {
        const title = this.#screen.lines()[0] ?? "";
        return { pass: expect.op === "equals" ? title === expect.value : title.includes(expect.value), actual: title };
      }
      case "visible":
        return {
          pass: (label !== undefined && screen.includes(label)) === expect.visible,
          actual: label !== undefined && screen.includes(label) ? "shown" : "not shown",
        };
      case "empty":
        return { pass: seen !== undefined && (seen === "") === expect.empty, actual: seen === undefined ? "not on the screen" : JSON.stringify(seen) };
      case "count": {
        const n = await this.count(ladder);
        return { pass: n === expect.count, actual: `${n}` };
      }
      default:
        return { pass: false, actual: `a terminal app cannot check ${expect.kind}`, retryable: false };
    }
  }

  async captureFrame(): Promise<{ png: Uint8Array }> {
    return { png: picture(this.#screen) };
  }

  async rectsFor(targets: readonly RectTarget[]): Promise<RectsAnswer[]> {
    return targets.map((t): RectsAnswer => {
      if ("secretFields" in t) {
        this.#secrets = this.#secrets.filter((s) => s.clears === this.#screen.clears);
        return { ok: true, rects: this.#secrets.map((s) => cells(s.row, s.col, s.length)) };
      }
      // The password fields the recorder always masks: a terminal shows none (a program that asks
      // for a password without echoing it shows nothing to mask).
      if ("passwordFields" in t) return { ok: true, rects: [] };
      if ("text" in t) return { ok: true, rects: this.#cellsShowing([t.text], false) };
      // Every secret of the run wherever the screen shows it (a program that echoes it back), in any letter case.
      if ("secretText" in t) return { ok: true, rects: this.#cellsShowing(t.secretText, true) };
      return { ok: false, detail: "a terminal app has no css: selectors (use a text or rect rule)" };
    });
  }

  /** The cells of every place a line shows one of `texts` (ignoring letter case when told). */
  #cellsShowing(texts: readonly string[], anyCase: boolean): ReturnType<typeof cells>[] {
    const fold = (s: string) => (anyCase ? s.toLowerCase() : s);
    return this.#screen.lines().flatMap((raw, row) => {
      const line = fold(raw);
      const out: ReturnType<typeof cells>[] = [];
      for (const text of texts.map(fold).filter((x) => x !== "")) {
        for (let at = line.indexOf(text); at >= 0; at = line.indexOf(text, at + 1)) out.push(cells(row, [...line.slice(0, at)].length, [...text].length));
      }
      return out;
    });
  }

  async screenChanged(): Promise<boolean> {
    const changed = this.#screen.version !== this.#seen;
    this.#seen = this.#screen.version;
    return changed;
  }

  /** Scene tokens for model authoring: the menu entries and the prompt (actionable), then the lines shown. */
  async scene(): Promise<SceneInventory> {
    const entries: SceneEntry[] = this.#entries().map((e) => ({ target: `text:${e.label}`, tag: "button", actionable: true, text: e.label }));
    const prompt = this.#prompt().replace(/:$/, "");
    if (prompt !== "") entries.push({ target: `text:${prompt}`, tag: "input", type: "text", actionable: true, label: prompt });
    for (const line of this.#screen.lines()) {
      const text = line.trim();
      if (text !== "" && !/\[[A-Za-z0-9]\]\s/.test(line) && !(prompt !== "" && text.startsWith(prompt)))
        entries.push({ target: `text:${text.slice(0, 80)}`, actionable: false, text: text.slice(0, 80) });
    }
    const { row } = this.#screen.cursor;
    return {
      url: `terminal:${this.#describe}`,
      title: this.#screen.lines()[0] ?? "",
      text: this.#screen.text().replace(/\s+/g, " ").slice(0, 2000),
      entries,
      omitted: 0,
      loaded: row >= 0 && this.#prompt() !== "",
    };
  }

  async environment(): Promise<{ os: string; resolution: [number, number] }> {
    return {
      os: `${process.platform} (terminal ${this.#screen.columns}x${this.#screen.rows})`,
      resolution: [this.#screen.columns * CELL_WIDTH, this.#screen.rows * CELL_HEIGHT],
    };
  }

  async close(): Promise<void> {
    await this.#term.close();
  }
}
