// An in-memory Screen for unit tests: one window showing the frame it is given, input recorded
// instead of sent, and the input verification's answer settable (a covered window, a grab).
import type { Rect } from "../../src/plugins/api.ts";
import type { Frame } from "./frame.ts";
import type { InputAnswer, Modifier, MouseButton, Screen, ScreenWindow } from "./screen.ts";

/** One input the fake received, in order. */
export type FakeInput =
  | { readonly kind: "click"; readonly x: number; readonly y: number; readonly button: MouseButton; readonly count: 1 | 2 }
  | { readonly kind: "hover"; readonly x: number; readonly y: number }
  | { readonly kind: "type"; readonly text: string }
  | { readonly kind: "key"; readonly key: string; readonly modifiers: readonly Modifier[] };

export class FakeScreen implements Screen {
  readonly platform = "fake";
  readonly window: ScreenWindow;
  readonly inputs: FakeInput[] = [];
  /** What the window shows; replaced by `show`, or by `onInput` reacting to an input. */
  frame: Frame;
  rectNow: Rect;
  /** When set, every input is refused with this answer (and not recorded). */
  refuse: Extract<InputAnswer, { ok: false }> | undefined;
  /** Called after each recorded input (e.g. to show the frame the app would show next). */
  onInput: ((input: FakeInput) => void) | undefined;
  closed = false;

  constructor(frame: Frame, title = "Fake Window", rect: Rect = { x: 0, y: 0, width: frame.width, height: frame.height }) {
    this.frame = frame;
    this.window = { id: "1", title };
    this.rectNow = rect;
  }

  show(frame: Frame): void {
    this.frame = frame;
  }

  #input(input: FakeInput): InputAnswer {
    if (this.refuse) return this.refuse;
    this.inputs.push(input);
    this.onInput?.(input);
    return { ok: true };
  }

  async windows(): Promise<readonly ScreenWindow[]> {
    return this.closed ? [] : [this.window];
  }
  async rect(): Promise<Rect | undefined> {
    return this.closed ? undefined : this.rectNow;
  }
  async place(_w: ScreenWindow, rect: Rect): Promise<Rect> {
    this.rectNow = rect;
    return rect;
  }
  async capture(): Promise<Frame> {
    return this.frame;
  }
  async activate(): Promise<InputAnswer> {
    return this.refuse ?? { ok: true };
  }
  async hover(_w: ScreenWindow, x: number, y: number): Promise<InputAnswer> {
    return this.#input({ kind: "hover", x, y });
  }
  async click(_w: ScreenWindow, x: number, y: number, button: MouseButton, count: 1 | 2): Promise<InputAnswer> {
    return this.#input({ kind: "click", x, y, button, count });
  }
  async typeText(_w: ScreenWindow, text: string): Promise<InputAnswer> {
    return this.#input({ kind: "type", text });
  }
  async pressKey(_w: ScreenWindow, key: string, modifiers: readonly Modifier[]): Promise<InputAnswer> {
    return this.#input({ kind: "key", key, modifiers });
  }
  async screenSize(): Promise<[number, number]> {
    return [1024, 768];
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}
