// The vision surface's flow keys, declared once as a TypeBox schema (the JSON Schema the adapter
// contract will validate `app:`/`apps:` entries with) and checked at the plugin boundary. Pure.
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { FlowproofError, keyRole } from "../../src/plugins/api.ts";
import type { VisionConfig } from "./driver.ts";

const Px = (description: string) => Type.Integer({ minimum: 1, maximum: 16_384, description });

/** `window:` of a vision app: the window it attaches to by title, and the geometry it pins. */
export const VisionWindowSchema = Type.Object(
  {
    title: Type.String({
      minLength: 1,
      description:
        "A substring of the window's title (X11 `_NET_WM_NAME`/`WM_NAME`, the Win32 window text); may hold ${VAR}, and ${captured.x} on an `apps:` surface.",
      ...keyRole({ references: "captured" }),
    }),
    width: Type.Optional(Px("Width the window is sized to before the first step, in pixels; with `height`. OCR baselines depend on it.")),
    height: Type.Optional(Px("Height the window is sized to before the first step, in pixels; with `width`.")),
    x: Type.Optional(Type.Integer({ description: "Screen x the window is moved to (with width and height); default: where it is." })),
    y: Type.Optional(Type.Integer({ description: "Screen y the window is moved to (with width and height); default: where it is." })),
  },
  { additionalProperties: false, description: "The window a vision app attaches to; it is never launched." },
);

/** `window: "Payments"`: the title alone, the window kept at the size and place it has. */
export const VisionWindowTitleSchema = Type.String({
  minLength: 1,
  description: "Shorthand for `{title: …}`: a substring of the window's title, its size and place left as they are.",
  examples: ["Payments"],
  ...keyRole({ references: "captured" }),
});

/** The adapter's config keys: `window` (a mapping, or its title alone), required. */
export const VisionConfigSchema = Type.Object({ window: Type.Union([VisionWindowTitleSchema, VisionWindowSchema]) }, { additionalProperties: false });
export type VisionConfigInput = Static<typeof VisionConfigSchema>;

export class VisionConfigError extends FlowproofError {
  constructor(message: string, hint: string) {
    super({ code: "bad-value", message, hint });
  }
}

const EXAMPLE = 'window: {title: "Payments", width: 700, height: 480}';

/** The config as the driver takes it, or a VisionConfigError naming the first problem and the right spelling. */
export function parseVisionConfig(raw: unknown): VisionConfig {
  if (typeof raw === "object" && raw !== null && "window_title" in raw) {
    throw new VisionConfigError("a vision app names its window with `window.title`, not `window_title`", `write ${EXAMPLE}`);
  }
  // The form written picks the schema, so a mistake is named inside it (`window/title`), not as "no form fits".
  const window = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>)["window"] : undefined;
  const form =
    typeof window === "string"
      ? Type.Object({ window: VisionWindowTitleSchema }, { additionalProperties: false })
      : Type.Object({ window: VisionWindowSchema }, { additionalProperties: false });
  const first = Value.Errors(form, raw).First();
  if (first) throw new VisionConfigError(`vision app config${first.path || ""}: ${first.message}`, `write ${EXAMPLE}`);
  const written = (raw as VisionConfigInput).window;
  const w = typeof written === "string" ? { title: written } : written;
  if ((w.width === undefined) !== (w.height === undefined))
    throw new VisionConfigError("`window.width` and `window.height` pin the size together: give both or neither", `write ${EXAMPLE}`);
  if ((w.x !== undefined || w.y !== undefined) && w.width === undefined)
    throw new VisionConfigError("`window.x` and `window.y` move a window whose size is pinned: give `width` and `height` too", `write ${EXAMPLE}`);
  return {
    title: w.title,
    ...(w.width !== undefined ? { width: w.width } : {}),
    ...(w.height !== undefined ? { height: w.height } : {}),
    ...(w.x !== undefined ? { x: w.x } : {}),
    ...(w.y !== undefined ? { y: w.y } : {}),
  };
}
