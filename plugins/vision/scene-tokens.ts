// The scene inventory model authoring grounds on: what the window shows as `text:` tokens, fields
// first (a label with an input box beside or below it, with the box's contents as its value),
// then every other text, in reading order. Nothing that shows a typed secret is listed. Pure.
import type { Rect, SceneEntry, SceneInventory } from "../../src/plugins/api.ts";
import { textInside, type SceneLine } from "./scene.ts";
import { showsSecret, type SecretField } from "./secrets.ts";
import { collapse, labelText } from "./text.ts";
import type { View } from "./view.ts";

/** Entries at most. */
export const SCENE_CAP = 100;
/** Characters of the scene's text at most. */
const TEXT_CAP = 2_000;

const centreIn = (r: Rect, box: Rect): boolean => {
  const cx = r.x + r.width / 2;
  const cy = r.y + r.height / 2;
  return cx >= box.x && cx <= box.x + box.width && cy >= box.y && cy <= box.y + box.height;
};
const sameBox = (a: Rect, b: Rect): boolean => a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;

export function sceneInventory(view: View, title: string, secrets: readonly string[], secretFields: readonly SecretField[]): SceneInventory {
  const lines = view.scene.lines.filter((l) => !showsSecret(l.text, secrets));
  const fieldOf = new Map<SceneLine, Rect>();
  for (const l of lines) {
    const f = view.field(l.box);
    if (f.ok) fieldOf.set(l, f.box);
  }
  const fieldBoxes = [...fieldOf.values()];
  // A line inside a field is that field's value, not a target of its own.
  const targets = lines.filter((l) => !fieldBoxes.some((b) => centreIn(l.box, b)));
  const fields: SceneEntry[] = [];
  const texts: SceneEntry[] = [];
  const seen = new Map<string, SceneEntry & { count?: number }>();
  for (const l of targets) {
    const text = collapse(l.text);
    const box = fieldOf.get(l);
    if (box) {
      const secret = secretFields.some((s) => sameBox(s.box, box));
      const value = secret ? "" : textInside(view.scene, box);
      fields.push({
        target: `text:${labelText(text)}`,
        tag: "field",
        type: "text",
        actionable: true,
        label: labelText(text),
        ...(secret ? {} : { value: value.slice(0, 80) }),
      });
      continue;
    }
    const known = seen.get(text);
    if (known) {
      known.count = (known.count ?? 1) + 1;
      continue;
    }
    const entry: SceneEntry & { count?: number } = { target: `text:${text}`, tag: "text", actionable: true, text: text.slice(0, 80) };
    seen.set(text, entry);
    texts.push(entry);
  }
  const entries = [...fields, ...texts];
  const shown = lines.map((l) => l.text).join(" ");
  return {
    url: "",
    title,
    text: collapse(shown).slice(0, TEXT_CAP),
    entries: entries.slice(0, SCENE_CAP),
    omitted: Math.max(0, entries.length - SCENE_CAP),
    loaded: true,
  };
}
