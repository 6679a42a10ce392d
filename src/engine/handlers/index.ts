// The typed handler registry: one handler per trace action type. The step loop dispatches here
// and knows no individual action.
import type { ActionType } from "../../trace/schema.ts";
import type { Handler } from "./shared.ts";
import { errored, handlerFor } from "./shared.ts";
import { launch } from "./launch.ts";
import { click } from "./click.ts";
import { hover } from "./hover.ts";
import { typeText } from "./type-text.ts";
import { pressKey } from "./press-key.ts";
import { setChecked } from "./set-checked.ts";
import { capture } from "./capture.ts";
import { scroll } from "./scroll.ts";
import { assertStep } from "./assert.ts";
import { drag } from "./drag.ts";
import { upload } from "./upload.ts";
import { captureDownload } from "./capture-download.ts";
import { secretLeakAssert, structuredAssert } from "./structured.ts";
import { agentRun } from "./agent-run.ts";
import { clearStorage } from "./clear-storage.ts";
import { setCookie } from "./set-cookie.ts";
import { setViewport } from "./set-viewport.ts";

const notYet =
  (what: string): Handler =>
  async () =>
    errored(`${what} steps are not supported by this version of flowproof; re-record with the version that wrote this trace`);

/** `assert` steps: element/page expectations, structured (plugin) assertions, the secret-leak scan. */
const assertAny = handlerFor(["assert"], async (step, ctx) => {
  switch (step.action.params.kind) {
    case "structured":
      return structuredAssert(step, ctx);
    case "no_secret_leak":
      return secretLeakAssert(step, ctx);
    case "element_state":
      return assertStep(step, ctx);
  }
});

export const HANDLERS: Readonly<Record<ActionType, Handler>> = {
  launch,
  focus_window: notYet("focus_window (desktop)"),
  click,
  double_click: click,
  right_click: click,
  hover,
  drag,
  scroll,
  type_text: typeText,
  press_key: pressKey,
  upload,
  capture,
  capture_download: captureDownload,
  set_checked: setChecked,
  clear_storage: clearStorage,
  set_cookie: setCookie,
  set_viewport: setViewport,
  wait: assertStep,
  assert: assertAny,
  agent_run: agentRun,
};

export type { Handler, StepOutcome } from "./shared.ts";
