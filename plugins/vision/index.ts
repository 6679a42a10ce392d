// The vision surface: `app: vision` attaches to a window by `window.title` and sees only its pixels
// (X11 or Win32 capture, OCR with tesseract.js, real input). Its keys and grammar are declared
// through the adapter contract, and it is registered as a built-in (src/plugins/builtin.ts).
import { defineAdapter, GRAMMAR_FORMS, keyRole, Type, type AdapterPlugin, type ArgumentProblem, type Capability } from "../../src/plugins/api.ts";
import { VisionWindowSchema, VisionWindowTitleSchema } from "./config.ts";

export const CAPABILITIES: readonly Capability[] = ["pointer", "keyboard", "screenshot"];

const EXAMPLE = 'window: {title: "Payments", width: 700, height: 480}';

/** `window:` as a flow key: recorded as written, so replay attaches to the same window, pinned alike. */
const WindowKey = Type.Union([VisionWindowTitleSchema, Type.Object(VisionWindowSchema.properties, { additionalProperties: false })], {
  description: VisionWindowSchema.description ?? "The window a vision app attaches to.",
  examples: ["{title: Payments, width: 700, height: 480}", "Payments"],
  ...keyRole({ recorded: true }),
});

/** The size pins together, a position only with a size (as parseVisionConfig says at launch). */
function checkWindow(keys: Readonly<Record<string, unknown>>, ctx: { readonly prefix: string }): ArgumentProblem[] {
  const w = keys["window"];
  // `window: "Payments"` names the title alone: nothing to pin together.
  if (typeof w !== "object" || w === null) return [];
  const has = (k: string) => (w as Record<string, unknown>)[k] !== undefined;
  if (has("width") !== has("height"))
    return [
      {
        path: ["window"],
        message: `\`${ctx.prefix}window.width\` and \`${ctx.prefix}window.height\` pin the size together: give both or neither`,
        hint: EXAMPLE,
      },
    ];
  if ((has("x") || has("y")) && !has("width"))
    return [
      {
        path: ["window"],
        message: `\`${ctx.prefix}window.x\` and \`${ctx.prefix}window.y\` move a window whose size is pinned: give \`width\` and \`height\` too`,
        hint: EXAMPLE,
      },
    ];
  return [];
}

/** What a vision surface reports into its trace header entry (VisionDriver.appInfo). */
const FACTS = Type.Object(
  {
    window_title: Type.Optional(Type.String({ description: "The title of the window it attached to." })),
    platform: Type.Optional(Type.String({ description: "The screen it read: x11 or win32." })),
    geometry: Type.Optional(
      Type.Object({ x: Type.Integer(), y: Type.Integer(), width: Type.Integer(), height: Type.Integer() }, { additionalProperties: false }),
    ),
    geometry_pinned: Type.Optional(Type.Boolean({ description: "Whether the flow pinned the window's size." })),
    ocr: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]), { description: "The OCR engine, model and settings." })),
  },
  { additionalProperties: false },
);

export const plugin: AdapterPlugin = defineAdapter({
  kind: "vision",
  facts: FACTS,
  title: "a window seen only as pixels",
  capabilities: CAPABILITIES,
  keys: {
    schema: Type.Object({ window: WindowKey }, { additionalProperties: false }),
    check: checkWindow,
    refuse: {
      window_title: { message: "a vision app names its window with `window.title`, not `window_title`", hint: EXAMPLE },
      "window.window_title": { message: "a vision app names its window with `window.title`, not `window.window_title`", hint: EXAMPLE },
      url: {
        message: "a vision app has no start page: it attaches to a window that is already open",
        hint: `remove \`url:\`; name the window with ${EXAMPLE}`,
      },
    },
  },
  // Pixels and OCR: none of the web's page-level forms; F-keys reach the window like any key.
  grammar: { lacks: GRAMMAR_FORMS, cssHint: 'a vision app sees only text on the screen; name it, e.g. `Click "Save"`', keys: { functionKeys: true } },
  platforms: { os: ["linux", "win32"], name: "Linux (X11) or Windows", hint: "run this flow where the window is on an X11 display or a Windows desktop" },
  // The capture, input and OCR modules load when a vision app opens, never in a run of another kind.
  open: async () => new (await import("./session.ts")).VisionSession(),
});

export { VisionConfigSchema } from "./config.ts";
export type { VisionConfig } from "./driver.ts";
