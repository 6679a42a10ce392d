// Pointer gestures whose outcome is checked, not assumed: a hover the pointer really rests on, a
// drag from a source read again after the drop target scrolled into view, and a checkbox click
// that must leave the box in the state asked for.
import type { Attempt, PointerOptions, Selector } from "../../src/plugins/api.ts";
import type { Session } from "./cdp/connection.ts";
import type { ProbeAnswer, ValueAnswer } from "./injected/protocol.ts";
import { fail, notHovered, ok, toRungs, type Transient } from "./page-calls.ts";
import { dragAndDrop, type Point } from "./pointer.ts";

/** What a gesture needs of the page: its session, the target probe, a trusted click, one page-script read, a frame, a dialog that opened. */
export interface GesturePage {
  readonly session: Session;
  probe(ladder: readonly Selector[], purpose: "pointer" | "drag", at?: PointerOptions["at"]): Promise<Attempt<ProbeAnswer & { ok: true }>>;
  /** A trusted left click, then the navigation it may have started. */
  click(at: Point): Promise<void>;
  read(method: "hovered" | "checkedState", arg: unknown): Promise<ValueAnswer | Transient>;
  /** The navigation input may have started. */
  afterInput(): Promise<void>;
  nextFrame(): Promise<void>;
  takeDialog(): Attempt<never> | undefined;
}

/** Moves the pointer onto the target and checks that it is hovered there. */
export async function hoverOver(page: GesturePage, ladder: readonly Selector[]): Promise<Attempt> {
  const probe = await page.probe(ladder, "pointer");
  if (!probe.ok) return probe;
  await page.session.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: probe.value.x, y: probe.value.y });
  // A lone move is dispatched with the next frame; let it (and the page's hover handlers) run first.
  await page.nextFrame();
  const dialog = page.takeDialog();
  if (dialog) return dialog;
  // The post-condition: the pointer really rests on the target (a page may move it away on hover).
  const state = await page.read("hovered", { ladder: toRungs(ladder), x: probe.value.x, y: probe.value.y });
  if ("transient" in state) return fail("attached", state.transient);
  if (!state.ok) return fail(state.failed, state.detail);
  if (state.value !== "true") return notHovered(probe.value);
  return ok(undefined, probe.tier);
}

/** Drags the source onto the drop target (at `at` within it). */
export async function dragOnto(page: GesturePage, source: readonly Selector[], onto: readonly Selector[], at?: PointerOptions["at"]): Promise<Attempt> {
  let from = await page.probe(source, "drag");
  if (!from.ok) return from;
  const to = await page.probe(onto, "pointer", at);
  if (!to.ok) return { ...to, detail: `the drop target: ${to.detail}` };
  // Bringing the drop target into view may have scrolled the source: read it again.
  from = await page.probe(source, "drag");
  if (!from.ok) return from;
  await dragAndDrop(page.session, { x: from.value.x, y: from.value.y }, { x: to.value.x, y: to.value.y }, () => page.nextFrame());
  await page.afterInput();
  return page.takeDialog() ?? ok(undefined, from.tier);
}

/** Clicks a checkbox, radio or switch when it is not `checked` yet, and checks that it then is. */
export async function setCheckedState(
  page: Pick<GesturePage, "probe" | "click" | "read" | "takeDialog">,
  ladder: readonly Selector[],
  checked: boolean,
): Promise<Attempt> {
  const probe = await page.probe(ladder, "pointer");
  if (!probe.ok) return probe;
  if (probe.value.checked === undefined) return fail("unsupported", "the target is not a checkbox, radio or switch", false);
  if (probe.value.checked === checked) return ok(undefined, probe.tier);
  await page.click(probe.value);
  const dialog = page.takeDialog();
  if (dialog) return dialog;
  const state = await page.read("checkedState", { ladder: toRungs(ladder) });
  if ("transient" in state || !state.ok) return ok(undefined, probe.tier);
  if (state.value !== String(checked)) {
    return fail("unsupported", `clicking did not ${checked ? "check" : "uncheck"} it; it is still ${checked ? "unchecked" : "checked"}`, true);
  }
  return ok(undefined, probe.tier);
}
