import { expect, test } from "bun:test";
import { FakeDesktop, control } from "./fake.ts";

test("keystrokes land in the focused control of the foreground window, replacing a selection", async () => {
  const desk = new FakeDesktop();
  const w = desk.addWindow({ title: "A" });
  const edit = control({ name: "", controlType: "edit", value: "old" });
  w.controls.push(edit);
  desk.foregroundHandle = w.handle;
  const [el] = await desk.elements({ handle: w.handle, title: "A", className: "", pid: 1, visible: true });
  await desk.focus(el!);
  await desk.typeText("x");
  expect(edit.value).toBe("oldx");
  await desk.selectAll(el!);
  await desk.typeText("new");
  expect(edit.value).toBe("new");
});

test("a password control's value is never reported", async () => {
  const desk = new FakeDesktop();
  const w = desk.addWindow({ title: "A" });
  w.controls.push(control({ name: "", controlType: "edit", password: true, value: "secret" }));
  const [el] = await desk.elements({ handle: w.handle, title: "A", className: "", pid: 1, visible: true });
  expect(el?.value).toBeUndefined();
  expect(el?.password).toBe(true);
});
