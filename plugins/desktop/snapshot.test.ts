import { expect, test } from "bun:test";
import type { DesktopElement } from "./element.ts";
import { anchorTexts, windowSnapshot } from "./snapshot.ts";

const el = (name: string, extra: Partial<DesktopElement> = {}): DesktopElement => ({
  ref: name,
  name,
  controlType: "edit",
  automationId: "",
  rect: { x: 1, y: 2, width: 3, height: 4 },
  enabled: true,
  visible: true,
  focused: false,
  password: false,
  ...extra,
});

test("a password's value is never in the snapshot; every text is redacted", () => {
  const window = { handle: "1", title: "Login token-1", className: "App", pid: 1, visible: true };
  const snap = windowSnapshot(
    [
      {
        window,
        elements: [el("", { password: true, automationId: "5" }), el("User", { value: "token-1" }), el("&OK", { controlType: "button", enabled: false })],
      },
    ],
    (t) => t.replace("token-1", "${T}"),
  );
  expect(snap.dom).toBe(
    'window "Login ${T}" (App)\n  edit id=5 password at 1,2 3x4\n  edit "User" value="${T}" at 1,2 3x4\n  button "OK" disabled at 1,2 3x4\n',
  );
  expect(snap.anchors).toEqual(["User", "${T}", "OK"]);
  expect(snap.console).toEqual([]);
});

test("anchor texts are the labels and the values of controls that are not passwords", () => {
  expect(anchorTexts([el("A", { value: "v" }), el("", { password: true, value: "secret" }), el("A")])).toEqual(["A", "v"]);
});
