// The Windows kinds' flow keys: any program as `app: {command, window_title}`, and `window:`
// geometry for every Windows app kind, as TypeBox schemas with their roles, plus the checks a
// schema cannot say (a size needs both sides). Pure (docs/windows.md).
import { keyRole, Type, type AdapterKeys, type AdapterPlatforms, type ArgumentProblem } from "../../src/plugins/api.ts";

/** `window:` geometry: literal integers, a size with an optional position. */
export const WindowSchema = Type.Object(
  {
    width: Type.Optional(Type.Integer({ minimum: 1, maximum: 32767, examples: ["800"] })),
    height: Type.Optional(Type.Integer({ minimum: 1, maximum: 32767, examples: ["600"] })),
    x: Type.Optional(Type.Integer({ minimum: -32768, maximum: 32767, examples: ["0"] })),
    y: Type.Optional(Type.Integer({ minimum: -32768, maximum: 32767, examples: ["0"] })),
  },
  {
    additionalProperties: false,
    description: "The window's geometry, applied before the first step and recorded, so replay applies it again (docs/windows.md).",
    examples: ["{width: 800, height: 600, x: 0, y: 0}"],
    ...keyRole({ recorded: { as: "geometry" } }),
  },
);

const Command = Type.String({
  minLength: 1,
  description: "The program's command line: its path (quoted when it has spaces) and arguments; may hold ${VAR}, and ${captured.x} on an `apps:` surface.",
  examples: ['"\\"C:\\\\Program Files\\\\App\\\\app.exe\\" --flag"'],
  ...keyRole({ references: "captured", recorded: true }),
});
const WindowTitle = Type.String({
  minLength: 1,
  description: "A part of the title of the program's main window, waited for after it starts.",
  examples: ["My App"],
  ...keyRole({ references: "captured", recorded: true }),
});

/** `window:` width and height together, x and y together, a position only with a size. */
export function checkWindow(keys: Readonly<Record<string, unknown>>, ctx: { readonly prefix: string } = { prefix: "" }): ArgumentProblem[] {
  const w = keys["window"];
  if (typeof w !== "object" || w === null || Array.isArray(w)) return [];
  // Only a window the schema accepts (known keys, whole numbers) is checked for pairs.
  if (Object.entries(w).some(([k, v]) => !["width", "height", "x", "y"].includes(k) || !Number.isInteger(v))) return [];
  const has = (k: string) => (w as Record<string, unknown>)[k] !== undefined;
  const hint = "window: {width: 800, height: 600, x: 0, y: 0}";
  if (has("width") !== has("height"))
    return [
      {
        path: ["window"],
        message: `\`${ctx.prefix}window\` gives ${has("width") ? "`width` without `height`" : "`height` without `width`"}; a size needs both`,
        hint: "window: {width: 800, height: 600}",
      },
    ];
  if (has("x") !== has("y"))
    return [{ path: ["window"], message: `\`${ctx.prefix}window\` gives ${has("x") ? "`x` without `y`" : "`y` without `x`"}; a position needs both`, hint }];
  if (!has("width"))
    return [
      {
        path: ["window"],
        message: `\`${ctx.prefix}window\` ${has("x") ? "gives a position without a size" : "is empty"}; give the window's \`width\` and \`height\``,
        hint,
      },
    ];
  return [];
}

const REFUSE = {
  "window.title": {
    message: "`window.title` is for vision apps; a Windows app's window is found by `app.window_title`",
    hint: 'remove `title:` here and write `app: {command: …, window_title: "My App"}`',
  },
  url: { message: "a Windows app has no start page: `url:` belongs to web flows", hint: "remove `url:`; the program is started from `app:`" },
  browser: { message: "a Windows app has no browser to shape", hint: "remove `browser:`; size the window with `window: {width, height, x, y}`" },
};

/** `app: notepad` and `app: calc`: the program is known, only `window:` is the flow's. */
export const APP_KEYS: AdapterKeys = {
  schema: Type.Object({ window: Type.Optional(WindowSchema) }, { additionalProperties: false }),
  check: checkWindow,
  refuse: REFUSE,
};

/** `app: {command, window_title}`: any Windows program, and its `window:`. */
export const PROGRAM_KEYS: AdapterKeys = {
  schema: Type.Object({ command: Command, window_title: WindowTitle, window: Type.Optional(WindowSchema) }, { additionalProperties: false }),
  check: checkWindow,
  inApp: ["command", "window_title"],
  refuse: REFUSE,
};

export const WINDOWS_PLATFORMS: AdapterPlatforms = {
  os: ["win32"],
  name: "Windows",
  hint: "run this flow on a Windows machine (the flowproof executable for windows-x64), or drive a web or api surface here",
};

/** What a Windows surface reports into its trace header entry: the element backend that resolved the steps, the window's geometry as applied. */
export const WINDOWS_FACTS = Type.Object(
  {
    backend: Type.Optional(Type.String({ description: "The element backend that resolved the steps (uia, win32); replay uses the same one." })),
    geometry: Type.Optional(
      Type.Object(
        { x: Type.Integer(), y: Type.Integer(), width: Type.Integer({ minimum: 1 }), height: Type.Integer({ minimum: 1 }) },
        { additionalProperties: false, description: "The window's rectangle as applied before the first step; replay applies it again." },
      ),
    ),
  },
  { additionalProperties: false },
);
