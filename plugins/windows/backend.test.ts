import { expect, test } from "bun:test";
import { describeElement, isEditable, plainLabel } from "./backend.ts";

test("labels read as people read them: mnemonics and a trailing colon removed", () => {
  expect(plainLabel("&Name:")).toBe("Name");
  expect(plainLabel("Salt && Pepper")).toBe("Salt & Pepper");
  expect(plainLabel("  File   name : ")).toBe("File name");
});

test("controls are described by type, label and id", () => {
  const el = { ref: "1", name: "&Save", controlType: "button", automationId: "1001", rect: { x: 0, y: 0, width: 1, height: 1 }, enabled: true, visible: true, focused: false, password: false } as const;
  expect(describeElement(el)).toBe("button \"Save\" (id 1001)");
  expect(isEditable(el)).toBe(false);
  expect(isEditable({ ...el, controlType: "combobox" })).toBe(true);
});
