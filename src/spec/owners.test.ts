import { describe, expect, test } from "bun:test";
import { ownerNames, writtenKind } from "./owners.ts";
import type { SurfaceKind } from "./surface-kinds.ts";

const SAP: SurfaceKind = { kind: "sap", title: "SAP GUI", capabilities: [] };
const PROGRAM: SurfaceKind = {
  kind: "windows",
  capabilities: [],
  keys: { schema: { type: "object", properties: { command: {} } } as never, inApp: ["command", "window_title"] },
};
const NOTEPAD: SurfaceKind = { kind: "notepad", capabilities: [] };

describe("ownerNames", () => {
  test("one owner by its title and kind; several by how a flow writes them", () => {
    expect(ownerNames([SAP])).toBe("SAP GUI (`app: sap`)");
    expect(ownerNames([PROGRAM, NOTEPAD])).toBe("`app: {command, window_title}` or `app: notepad`");
  });

  test("a kind that claims `app:` as a mapping is written as its keys", () => {
    expect([writtenKind(PROGRAM), writtenKind(NOTEPAD)]).toEqual(["{command, window_title}", "notepad"]);
  });
});
