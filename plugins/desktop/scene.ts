// What a desktop surface shows, for `page shows` and for model authoring: the page text (the
// window's title, its dialogs' titles, every visible control's label, value and tooltip, never a
// password's value) and the scene inventory (each control offered as `id:<native id>` when its id
// is unique, else `text:<label>`, with its type, value, state and a combo or list box's items). Pure.
import type { SceneEntry, SceneInventory } from "../../src/plugins/api.ts";
import { plainLabel, type SurfaceWindow, type WindowElements } from "./element.ts";
import { clip } from "./match.ts";

/** Scene entries at most (interactive first). */
export const SCENE_CAP = 100;

/** The text of the window `main` and the windows it owns, one label or value a line. */
export function pageText(main: SurfaceWindow, groups: readonly WindowElements[]): string {
  const parts = [main.title];
  for (const g of groups) {
    if (g.window.handle !== main.handle && g.window.title !== "") parts.push(g.window.title);
    for (const e of g.elements) {
      const name = plainLabel(e.name);
      if (name) parts.push(name);
      if (!e.password && e.value && e.value !== e.name) parts.push(e.value);
      if (e.tooltip && e.tooltip !== name) parts.push(e.tooltip);
    }
  }
  return parts.join("\n");
}

/** What a scene says of the surface beyond its controls: its address (SAP: the transaction) and whether it finished loading. */
export interface SceneFacts {
  readonly url: string;
  readonly loaded: boolean;
}

/** The scene inventory of `main` (the window shown first) from its windows' controls. */
export function sceneOf(main: SurfaceWindow, groups: readonly WindowElements[], facts: SceneFacts = { url: "", loaded: true }): SceneInventory {
  const all = groups.flatMap((g) => g.elements);
  const entries: SceneEntry[] = [];
  const interactive = all.filter((e) => e.controlType !== "text" && e.controlType !== "group" && e.controlType !== "pane");
  const readable = all.filter((e) => e.controlType === "text" && plainLabel(e.name) !== "");
  for (const e of [...interactive, ...readable]) {
    const name = plainLabel(e.name);
    const idCount = e.automationId ? all.filter((o) => o.automationId === e.automationId).length : 0;
    const target = idCount === 1 ? `id:${e.automationId}` : name ? `text:${name}` : undefined;
    if (!target) continue;
    entries.push({
      target,
      tag: e.controlType,
      actionable: e.controlType !== "text",
      ...(name ? { text: name.slice(0, 80) } : {}),
      ...(e.label || e.tooltip ? { label: (e.label || e.tooltip || "").slice(0, 80) } : {}),
      ...(e.password ? { type: "password" } : {}),
      ...(!e.password && e.value !== undefined && e.value !== e.name ? { value: e.value.slice(0, 80) } : {}),
      ...(e.checked !== undefined ? { checked: e.checked } : {}),
      ...(!e.enabled ? { disabled: true } : {}),
      ...(e.items ? { options: e.items.slice(0, 60) } : {}),
    });
  }
  return {
    url: facts.url,
    title: main.title,
    text: clip(pageText(main, groups).replace(/\s+/g, " "), 2000),
    entries: entries.slice(0, SCENE_CAP),
    omitted: Math.max(0, entries.length - SCENE_CAP),
    loaded: facts.loaded,
  };
}
