import { expect, test } from "bun:test";
import type { DesktopElement } from "./element.ts";
import { pageText, sceneOf } from "./scene.ts";

const el = (ref: string, name: string, controlType: DesktopElement["controlType"], extra: Partial<DesktopElement> = {}): DesktopElement => ({
  ref,
  name,
  controlType,
  automationId: "",
  rect: { x: 0, y: 0, width: 1, height: 1 },
  enabled: true,
  visible: true,
  focused: false,
  password: false,
  ...extra,
});
const main = { handle: "1", title: "Registry Editor", className: "RegEdit", pid: 1, visible: true };
const popup = { handle: "2", title: "", className: "#32768", pid: 1, visible: true, owner: "1" };

test("page text: the title, then every label and value, never a password; an untitled owned window adds no line", () => {
  const groups = [
    {
      window: main,
      elements: [
        el("a", "HKEY_CURRENT_USER", "treeitem"),
        el("b", "", "statusbar", { value: "My Computer" }),
        el("c", "", "edit", { password: true, value: "pw" }),
      ],
    },
    { window: popup, elements: [] },
  ];
  expect(pageText(main, groups)).toBe("Registry Editor\nHKEY_CURRENT_USER\nMy Computer");
});

test("the scene offers items by their text, a unique id first, with their state", () => {
  const scene = sceneOf(main, [
    {
      window: main,
      elements: [
        el("a", "&Edit", "menuitem"),
        el("b", "Graphics", "tab", { enabled: false }),
        el("c", "OK", "button", { automationId: "1" }),
        el("d", "", "tree"),
      ],
    },
  ]);
  expect(scene.entries).toEqual([
    { target: "text:Edit", tag: "menuitem", actionable: true, text: "Edit" },
    { target: "text:Graphics", tag: "tab", actionable: true, text: "Graphics", disabled: true },
    { target: "id:1", tag: "button", actionable: true, text: "OK" },
  ]);
  expect(scene.text).toBe("Registry Editor Edit Graphics OK");
});
