import { expect, test } from "bun:test";
import { controlTypeOf } from "./win32.ts";

test("Win32 classes and button styles map to control types", () => {
  expect(controlTypeOf("Button", 0x3)).toBe("checkbox");
  expect(controlTypeOf("Button", 0x9)).toBe("radio");
  expect(controlTypeOf("Button", 0x0)).toBe("button");
  expect(controlTypeOf("Button", 0x7)).toBe("group");
  expect(controlTypeOf("Edit", 0)).toBe("edit");
  expect(controlTypeOf("ComboBox", 0)).toBe("combobox");
  expect(controlTypeOf("ListBox", 0)).toBe("list");
  expect(controlTypeOf("Static", 0)).toBe("text");
  expect(controlTypeOf("RICHEDIT50W", 0)).toBe("document");
  expect(controlTypeOf("SysLink", 0)).toBe("hyperlink");
  expect(controlTypeOf("Whatever", 0)).toBe("other");
});
