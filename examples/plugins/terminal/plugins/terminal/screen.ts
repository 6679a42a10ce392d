// The terminal's screen: a grid of columns x rows fed with what the program writes, as a terminal
// shows it — printable text at the cursor, CR/LF/BS/TAB, and the ANSI sequences a full-screen
// program uses (cursor position, clear screen and line, moves; colours are ignored). Pure.

export class Screen {
  readonly columns: number;
  readonly rows: number;
  #cells: string[][];
  #row = 0;
  #col = 0;
  #pending = "";
  /** Bumped on every change: what the screen shows may differ from the last look. */
  version = 0;
  /** Bumped when the whole screen is cleared (a full redraw). */
  clears = 0;

  constructor(columns: number, rows: number) {
    this.columns = columns;
    this.rows = rows;
    this.#cells = Array.from({ length: rows }, () => Array<string>(columns).fill(" "));
  }

  get cursor(): { readonly row: number; readonly col: number } {
    return { row: this.#row, col: this.#col };
  }

  /** The screen's lines, trailing spaces removed. */
  lines(): string[] {
    return this.#cells.map((r) => r.join("").trimEnd());
  }

  /** The whole screen as text, one line per row, empty rows at the end left out. */
  text(): string {
    const lines = this.lines();
    while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
    return lines.join("\n");
  }

  /** Feeds what the program wrote (decoded text; an escape sequence may continue in the next chunk). */
  write(chunk: string): void {
    let s = this.#pending + chunk;
    this.#pending = "";
    this.version++;
    while (s.length > 0) {
      const ch = s[0]!;
      if (ch === "\x1b") {
        const csi = /^\x1b\[([?0-9;]*)([ -/]*)([@-~])/.exec(s);
        const osc = /^\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/.exec(s);
        if (csi) {
          this.#csi(csi[1] ?? "", csi[3]!);
          s = s.slice(csi[0].length);
        } else if (osc) s = s.slice(osc[0].length);
        else if (/^\x1b(?:\[[?0-9;]*[ -/]*|\][^\x07]*|)$/.test(s)) {
          this.#pending = s; // an unfinished sequence: wait for the rest
          return;
        } else s = s.slice(2);
        continue;
      }
      s = s.slice(ch.length);
      if (ch === "\r") this.#col = 0;
      else if (ch === "\n") this.#lineFeed();
      else if (ch === "\b") this.#col = Math.max(0, this.#col - 1);
      else if (ch === "\t") this.#col = Math.min(this.columns - 1, (Math.floor(this.#col / 8) + 1) * 8);
      else if (ch >= " ") this.#put(ch);
    }
  }

  #put(ch: string): void {
    if (this.#col >= this.columns) {
      this.#col = 0;
      this.#lineFeed();
    }
    this.#cells[this.#row]![this.#col] = ch;
    this.#col++;
  }

  #lineFeed(): void {
    if (this.#row < this.rows - 1) this.#row++;
    else {
      this.#cells.shift();
      this.#cells.push(Array<string>(this.columns).fill(" "));
    }
  }

  #csi(params: string, final: string): void {
    if (params.startsWith("?")) return; // private modes (cursor visibility, …) change nothing shown
    const n = params.split(";").map((p) => (p === "" ? undefined : Number(p)));
    const first = n[0] ?? 1;
    const clear = (row: number, from: number, to: number) => {
      for (let c = from; c < to; c++) this.#cells[row]![c] = " ";
    };
    switch (final) {
      case "H":
      case "f":
        this.#row = Math.min(this.rows - 1, Math.max(0, (n[0] ?? 1) - 1));
        this.#col = Math.min(this.columns - 1, Math.max(0, (n[1] ?? 1) - 1));
        break;
      case "A":
        this.#row = Math.max(0, this.#row - first);
        break;
      case "B":
        this.#row = Math.min(this.rows - 1, this.#row + first);
        break;
      case "C":
        this.#col = Math.min(this.columns - 1, this.#col + first);
        break;
      case "D":
        this.#col = Math.max(0, this.#col - first);
        break;
      case "J": {
        const mode = n[0] ?? 0;
        if (mode === 2 || mode === 3) {
          for (let r = 0; r < this.rows; r++) clear(r, 0, this.columns);
          this.clears++;
        } else if (mode === 0) {
          clear(this.#row, this.#col, this.columns);
          for (let r = this.#row + 1; r < this.rows; r++) clear(r, 0, this.columns);
        } else if (mode === 1) {
          for (let r = 0; r < this.#row; r++) clear(r, 0, this.columns);
          clear(this.#row, 0, this.#col + 1);
        }
        break;
      }
      case "K": {
        const mode = n[0] ?? 0;
        if (mode === 0) clear(this.#row, this.#col, this.columns);
        else if (mode === 1) clear(this.#row, 0, this.#col + 1);
        else clear(this.#row, 0, this.columns);
        break;
      }
      default:
        break; // colours (m) and anything else: nothing a line of text shows
    }
  }
}
