// Select on a native <select> or an ARIA combobox/listbox, move by move: the page script answers
// with the move a user makes next (a trusted click that opens the popup or picks an option, Escape
// that closes a multi-select, typing to filter an editable combobox) until the control shows the
// chosen options, which it reports.
import type { Attempt, Selector } from "../../src/plugins/api.ts";
import type { SelectAnswer, SelectMove } from "./injected/protocol.ts";
import { fail, ok, toRungs, type Transient } from "./page-calls.ts";
import type { Point } from "./pointer.ts";

/** Moves one Select attempt makes on an ARIA combobox besides two per option (open, option, a reopen, a close). */
const SELECT_MOVES = 4;
/** How long a Select waits, after each move, for what it moved to settle (a popup growing in, the value shown). */
const SELECT_SETTLE_MS = 1500;

/** What a select needs of the page: one page-script call, trusted input, the next frame, a dialog that opened. */
export interface SelectPage {
  call(arg: { ladder: unknown; values: readonly string[]; after: SelectMove | undefined; exact: boolean | undefined }): Promise<SelectAnswer | Transient>;
  click(at: Point & { what: SelectMove }): Promise<void>;
  press(key: string): Promise<void>;
  type(text: string): Promise<void>;
  nextFrame(): Promise<void>;
  takeDialog(): Attempt<never> | undefined;
}

/** Chooses `values` in the dropdown `ladder` names (`exact`: the labels a recording chose, taken as written). */
export async function selectOptions(
  ladder: readonly Selector[],
  values: readonly string[],
  exact: boolean | undefined,
  page: SelectPage,
): Promise<Attempt<readonly string[] | undefined>> {
  // A <select> is set in one call; an ARIA combobox or listbox answers with the move a user
  // makes next (a trusted click that opens it or picks an option, Escape that closes a
  // multi-select, typing to filter an editable combobox), and is verified once it settles.
  let after: SelectMove | undefined;
  const moves = SELECT_MOVES + 2 * values.length;
  let settleBy = Date.now() + SELECT_SETTLE_MS;
  for (let move = 0; move < moves; move++) {
    const answer = await page.call({ ladder: toRungs(ladder), values, after, exact });
    if ("transient" in answer) return fail("attached", answer.transient);
    // The control may show the chosen option a moment after the popup closed: ask again next frame.
    if (!answer.ok && answer.settling && Date.now() < settleBy) {
      await page.nextFrame();
      move--;
      continue;
    }
    if (!answer.ok) return fail(answer.failed, answer.detail, answer.retryable ?? answer.failed !== "ambiguous");
    if ("click" in answer) {
      await page.click(answer.click);
      after = answer.click.what;
    } else if ("key" in answer) {
      await page.press(answer.key);
      after = "close";
    } else if ("type" in answer) {
      await page.type(answer.type);
      after = "type";
    } else return ok(answer.chosen, answer.tier);
    // The popup (or the new value) renders with the next frame.
    await page.nextFrame();
    settleBy = Date.now() + SELECT_SETTLE_MS;
    const dialog = page.takeDialog();
    if (dialog) return dialog;
  }
  return fail("unsupported", `the dropdown did not settle on ${values.map((v) => JSON.stringify(v)).join(", ")} after ${moves} moves`);
}
