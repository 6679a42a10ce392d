import { expect, test } from "bun:test";
import { FakeSurface, fakeElement } from "./fake.ts";

test("the fake shows its windows (dialogs first, the main one last), reads their controls without handlers, and runs a control's handler on invoke", async () => {
  const surface = new FakeSurface();
  let clicked = 0;
  const main = surface.addWindow("Main", [fakeElement({ ref: "b", name: "Go", controlType: "button", onClick: () => clicked++ })]);
  const dialog = surface.addWindow("Dialog");
  expect(await surface.windows()).toEqual({ main: main.window, shown: [dialog.window, main.window] });
  const [el] = await surface.backend.elements(main.window);
  expect(el).toEqual({ ref: "b", name: "Go", controlType: "button", automationId: "", rect: { x: 0, y: 0, width: 10, height: 10 }, enabled: true, visible: true, focused: false, password: false });
  await surface.backend.invoke(el!);
  expect(clicked).toBe(1);
  await surface.backend.focus(el!);
  expect(main.elements[0]!.focused).toBe(true);
  surface.windowList.length = 0;
  expect(await surface.windows()).toBeUndefined();
});
