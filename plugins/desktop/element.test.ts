import { expect, test } from "bun:test";
import { anchorsOf, describeElement, isEditable, plainLabel } from "./element.ts";

test("labels read as people read them: mnemonics and a trailing colon removed", () => {
  expect(plainLabel("&Name:")).toBe("Name");
  expect(plainLabel("Salt && Pepper")).toBe("Salt & Pepper");
  expect(plainLabel("  File   name : ")).toBe("File name");
});

test("controls are described by type, label and id", () => {
  const el = {
    ref: "1",
    name: "&Save",
    controlType: "button",
    automationId: "1001",
    rect: { x: 0, y: 0, width: 1, height: 1 },
    enabled: true,
    visible: true,
    focused: false,
    password: false,
  } as const;
  expect(describeElement(el)).toBe('button "Save" (id 1001)');
  expect(isEditable(el)).toBe(false);
  expect(isEditable({ ...el, controlType: "combobox" })).toBe(true);
});

test("a control's anchors: its label as read, tooltip, the label naming it and its aliases", () => {
  const el = {
    ref: "1",
    name: "",
    controlType: "edit",
    automationId: "x",
    rect: { x: 0, y: 0, width: 1, height: 1 },
    enabled: true,
    visible: true,
    focused: false,
    password: false,
    tooltip: "Sales Document Type",
    label: "Order Type:",
    aliases: ["VBAK-AUART"],
  } as const;
  expect(anchorsOf(el)).toEqual(["Sales Document Type", "Order Type", "VBAK-AUART"]);
  const { tooltip: _t, label: _l, aliases: _a, ...bare } = el;
  expect(anchorsOf({ ...bare, name: "&Save" })).toEqual(["Save"]);
});
