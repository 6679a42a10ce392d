import { describe, expect, test } from "bun:test";
import type { Selector } from "../../src/plugins/api.ts";
import { WindowsDriver, type AppFlavour } from "./driver.ts";
import { FakeDesktop, control, type FakeWindow } from "./backends/fake.ts";

const text = (t: string, extra: Record<string, unknown> = {}): Selector[] => [{ tier: "text_anchor", provenance: "rules", payload: { text: t, ...extra } }];
const id = (i: string): Selector[] => [{ tier: "native_id", provenance: "rules", payload: { id: i } }];
const LEFT = { button: "left", clickCount: 1 } as const;

function fixture(flavour: AppFlavour = "windows") {
  const desk = new FakeDesktop();
  const main = desk.addWindow({ title: "Fixture", pid: 7 });
  const status = control({ name: "Ready", controlType: "text", automationId: "200" });
  main.controls.push(
    control({ name: "&Name:", controlType: "text", automationId: "100", rect: { x: 10, y: 10, width: 60, height: 20 } }),
    control({ name: "", controlType: "edit", automationId: "101", value: "", rect: { x: 80, y: 10, width: 120, height: 20 } }),
    control({ name: "Password:", controlType: "text", automationId: "102" }),
    control({ name: "", controlType: "edit", automationId: "103", password: true, value: "", rect: { x: 80, y: 40, width: 120, height: 20 } }),
    control({
      name: "&Greet",
      controlType: "button",
      automationId: "104",
      onInvoke: () => {
        status.name = "Hello";
      },
    }),
    control({ name: "Subscribe", controlType: "checkbox", automationId: "105", checked: false }),
    control({ name: "Colour:", controlType: "text", automationId: "106" }),
    control({ name: "", controlType: "combobox", automationId: "107", items: ["Red", "Green"], selected: [], value: "" }),
    control({ name: "Fruit", controlType: "list", automationId: "108", items: ["Apple", "Pear"], selected: [] }),
    control({ name: "Disabled", controlType: "button", automationId: "109", enabled: false }),
    status,
  );
  desk.foregroundHandle = main.handle;
  const driver = new WindowsDriver({
    desktop: desk,
    backend: desk,
    window: { handle: main.handle, title: main.title, className: main.className, pid: 7, visible: true },
    flavour,
    sleep: async () => undefined,
  });
  return { desk, main, driver, status };
}

const valueOf = (w: FakeWindow, automationId: string) => w.controls.find((c) => c.automationId === automationId)?.value;

describe("WindowsDriver actions", () => {
  test("Type into a labelled field replaces its text (select-all, then keystrokes)", async () => {
    const { driver, main } = fixture();
    main.controls[1]!.value = "old";
    expect(await driver.fill(text("Name", { role: "field" }), "Ada")).toEqual({ ok: true, value: undefined, tier: "text_anchor" });
    expect(valueOf(main, "101")).toBe("Ada");
  });

  test("Type nothing into a field empties it: its text is selected and deleted", async () => {
    const { driver, desk, main } = fixture();
    main.controls[1]!.value = "old";
    expect(await driver.fill(text("Name", { role: "field" }), "")).toEqual({ ok: true, value: undefined, tier: "text_anchor" });
    expect(valueOf(main, "101")).toBe("");
    expect(desk.keys).toEqual(["Delete"]);
  });

  test("keystrokes that land late are waited for before the field is judged", async () => {
    const { driver, desk, main } = fixture();
    const type = desk.typeText.bind(desk);
    // The last keystroke arrives only after the first read-back, as queued input does.
    desk.typeText = async (t: string) => {
      await type(t.slice(0, -1));
      setTimeout(() => void type(t.slice(-1)), 0);
    };
    const slow = new WindowsDriver({
      desktop: desk,
      backend: desk,
      window: driver.window,
      flavour: "windows",
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    });
    expect((await slow.fill(text("Name", { role: "field" }), "Ada")).ok).toBe(true);
    expect(valueOf(main, "101")).toBe("Ada");
  });

  test("a field that is not there is not-found (retryable: it may appear)", async () => {
    const { driver } = fixture();
    const r = await driver.fill(text("Surname", { role: "field" }), "x");
    expect(r).toMatchObject({ ok: false, failed: "not-found", retryable: true });
  });

  test("clicking a button by its label (mnemonic & ignored) changes the label; a red check says what it shows", async () => {
    const { driver } = fixture();
    expect(await driver.check(id("200"), { kind: "text_contains", text: "Hello" })).toMatchObject({ pass: false, actual: '"Ready"' });
    expect((await driver.click(text("Greet", { role: "button" }), LEFT)).ok).toBe(true);
    expect(await driver.check(id("200"), { kind: "text_contains", text: "Hello" })).toMatchObject({ pass: true });
  });

  test("a label that matches two controls is ambiguous, naming both, never the first", async () => {
    const { driver, main, status } = fixture();
    let pressed = 0;
    main.controls.push(
      control({ name: "OK", controlType: "button", automationId: "301", onInvoke: () => pressed++ }),
      control({ name: "OK", controlType: "button", automationId: "302", onInvoke: () => pressed++ }),
    );
    const r = await driver.click(text("OK"), LEFT);
    expect(r).toMatchObject({ ok: false, failed: "ambiguous", retryable: false });
    expect(r.ok ? "" : r.detail).toContain("(id 301)");
    expect(r.ok ? "" : r.detail).toContain("(id 302)");
    expect(pressed).toBe(0);
    expect((await driver.click(text("OK", { nth: 2 }), LEFT)).ok).toBe(true);
    expect(pressed).toBe(1);
    expect(status.name).toBe("Ready");
  });

  test("Check and Uncheck set the box and verify it; checked assertions green and red", async () => {
    const { driver } = fixture();
    expect(await driver.check(text("Subscribe"), { kind: "checked", checked: true })).toMatchObject({ pass: false, actual: "not checked" });
    expect((await driver.setChecked(text("Subscribe", { role: "checkbox" }), true)).ok).toBe(true);
    expect(await driver.check(text("Subscribe"), { kind: "checked", checked: true })).toMatchObject({ pass: true });
    expect((await driver.setChecked(text("Subscribe"), true)).ok).toBe(true);
    expect((await driver.setChecked(text("Subscribe"), false)).ok).toBe(true);
    expect(await driver.check(text("Subscribe"), { kind: "checked", checked: false })).toMatchObject({ pass: true });
  });

  test("Select in a combo box (by its label) and in a list box; an unknown item lists the items", async () => {
    const { driver, main } = fixture();
    expect((await driver.select(text("Colour", { role: "dropdown" }), ["Green"])).ok).toBe(true);
    expect(valueOf(main, "107")).toBe("Green");
    expect((await driver.select(text("Fruit"), ["Pear"])).ok).toBe(true);
    expect(main.controls.find((c) => c.automationId === "108")?.selected).toEqual(["Pear"]);
    const bad = await driver.select(text("Fruit"), ["Plum"]);
    expect(bad).toMatchObject({ ok: false, failed: "not-found" });
    // The list is named by its kind, id and place on screen, as an ambiguity message names a control.
    if (!bad.ok) expect(bad.detail).toMatch(/^list (.*)?\(id 108\) at \d+,\d+ has no item "Plum"; its items: "Apple", "Pear"/);
  });

  test("a disabled button is not pressed; enabled assertions green and red", async () => {
    const { driver } = fixture();
    expect(await driver.click(text("Disabled"), LEFT)).toMatchObject({ ok: false, failed: "enabled" });
    expect(await driver.check(text("Disabled"), { kind: "enabled", enabled: false })).toMatchObject({ pass: true });
    expect(await driver.check(text("Disabled"), { kind: "enabled", enabled: true })).toMatchObject({ pass: false, actual: "disabled" });
  });

  test("a control that appears late is found once it is shown", async () => {
    const { driver, main } = fixture();
    const late = control({ name: "Late", controlType: "button", automationId: "400", visible: false });
    main.controls.push(late);
    expect(await driver.click(text("Late"), LEFT)).toMatchObject({ ok: false, failed: "not-found", retryable: true });
    expect(await driver.check(text("Late"), { kind: "visible", visible: true })).toMatchObject({ pass: false });
    expect(await driver.check(text("Late"), { kind: "visible", visible: false })).toMatchObject({ pass: true });
    late.visible = true;
    expect((await driver.click(text("Late"), LEFT)).ok).toBe(true);
    expect(await driver.check(text("Late"), { kind: "visible", visible: true })).toMatchObject({ pass: true });
  });

  test("css targets are refused as web-only", async () => {
    const { driver } = fixture();
    expect(await driver.click([{ tier: "native_id", provenance: "rules", payload: { css: "#x" } }], LEFT)).toMatchObject({
      ok: false,
      failed: "unsupported",
      retryable: false,
    });
  });

  test("right- and double-click are real mouse gestures on the control's centre, even on a button", async () => {
    const { driver, desk, status } = fixture();
    expect(await driver.click(text("Greet"), { button: "right", clickCount: 1 })).toEqual({ ok: true, value: undefined, tier: "text_anchor" });
    expect(await driver.click(id("108"), { button: "left", clickCount: 2 })).toEqual({ ok: true, value: undefined, tier: "native_id" });
    const greet = desk.windows[0]!.controls.find((c) => c.automationId === "104")!;
    const fruit = desk.windows[0]!.controls.find((c) => c.automationId === "108")!;
    expect(desk.clicks).toEqual([
      { x: greet.rect.x + Math.round(greet.rect.width / 2), y: greet.rect.y + Math.round(greet.rect.height / 2), button: "right", count: 1 },
      { x: fruit.rect.x + Math.round(fruit.rect.width / 2), y: fruit.rect.y + Math.round(fruit.rect.height / 2), button: "left", count: 2 },
    ]);
    // A right-click is not the button's default action.
    expect(status.name).toBe("Ready");
    expect(await driver.click(text("Disabled"), { button: "left", clickCount: 2 })).toMatchObject({ ok: false, failed: "enabled" });
  });

  test("hover and reload are not implemented", async () => {
    const { driver } = fixture();
    expect(await driver.hover()).toMatchObject({ ok: false, failed: "unsupported" });
    expect(await driver.reload()).toMatchObject({ ok: false, failed: "unsupported" });
  });
});

describe("recorded ladders", () => {
  test("a step that passed records the live control's AutomationId and control type with name first, then its own rungs; replay resolves by them in order", async () => {
    const { driver, main } = fixture();
    expect((await driver.click(text("Greet"), LEFT)).ok).toBe(true);
    const greet = await driver.recordedLadder(text("Greet"));
    expect(greet).toEqual([
      { tier: "native_id", provenance: "recorder", payload: { automation_id: "104", name: "Greet" } },
      { tier: "structural", provenance: "recorder", confidence: 0.7, payload: { control_type: "button", name: "Greet" } },
      ...text("Greet"),
    ]);
    // A field named by its label: its id only (an edit has no name of its own).
    expect((await driver.fill(text("Name", { role: "field" }), "Ada")).ok).toBe(true);
    expect(await driver.recordedLadder(text("Name", { role: "field" }))).toEqual([
      { tier: "native_id", provenance: "recorder", payload: { automation_id: "101" } },
      ...text("Name", { role: "field" }),
    ]);
    // An id target keeps one native rung (the live one, with the name) and gains the structural one.
    expect((await driver.check(id("105"), { kind: "checked", checked: false })).pass).toBe(true);
    expect(await driver.recordedLadder(id("105"))).toEqual([
      { tier: "native_id", provenance: "recorder", payload: { automation_id: "105", name: "Subscribe" } },
      { tier: "structural", provenance: "recorder", confidence: 0.7, payload: { control_type: "checkbox", name: "Subscribe" } },
    ]);
    // Replay: the label changed, the AutomationId still names the button.
    main.controls.find((c) => c.automationId === "104")!.name = "&Say hello";
    expect(await driver.click(greet!, LEFT)).toEqual({ ok: true, value: undefined, tier: "native_id" });
    // Its id gone, the structural rung is next.
    const other = main.controls.find((c) => c.automationId === "104")!;
    other.name = "&Greet";
    (other as { automationId: string }).automationId = "";
    expect(await driver.click(greet!, LEFT)).toEqual({ ok: true, value: undefined, tier: "structural" });
  });

  test("a rung that would name several controls is not recorded; a step that resolved no control keeps its ladder", async () => {
    const { driver, main } = fixture();
    main.controls.push(control({ name: "Greet", controlType: "button", automationId: "104" }));
    expect((await driver.click(text("Greet", { nth: 1 }), LEFT)).ok).toBe(true);
    expect(await driver.recordedLadder(text("Greet", { nth: 1 }))).toBeUndefined();
    expect(await driver.recordedLadder(text("Nothing"))).toBeUndefined();
    expect((await driver.pressKey("Enter", [])).ok).toBe(true);
    expect(await driver.recordedLadder([])).toBeUndefined();
  });
});

describe("foreground safety", () => {
  test("a window that stole the foreground is given back to ours when the system allows it", async () => {
    const { desk, driver, main } = fixture();
    const other = desk.addWindow({ title: "Other", pid: 9 });
    desk.foregroundHandle = other.handle;
    expect((await driver.fill(text("Name", { role: "field" }), "Ada")).ok).toBe(true);
    expect(valueOf(main, "101")).toBe("Ada");
  });

  test("when another window keeps the foreground, the step fails naming it and nothing is typed anywhere", async () => {
    const { desk, driver, main } = fixture();
    const other = desk.addWindow({ title: "Intruder", className: "Popup", pid: 9 });
    desk.foregroundHandle = other.handle;
    desk.foregroundLocked = true;
    const r = await driver.fill(text("Name", { role: "field" }), "Ada");
    expect(r).toMatchObject({ ok: false, retryable: false });
    if (!r.ok) expect(r.detail).toContain('"Intruder" (Popup, pid 9) has the keyboard');
    expect(valueOf(main, "101")).toBe("");
    expect(other.typed).toBe("");
    expect(await driver.typeFocused("x")).toMatchObject({ ok: false });
    expect(await driver.pressKey("Enter", [])).toMatchObject({ ok: false });
    expect(desk.keys).toEqual([]);
    expect(other.typed).toBe("");
  });

  test("bringToFront (a multi-surface block starting on the window) takes the foreground back, or fails naming the window that keeps it", async () => {
    const { desk, driver, main } = fixture();
    const other = desk.addWindow({ title: "Notepad", className: "Notepad", pid: 9 });
    desk.foregroundHandle = other.handle;
    expect(await driver.bringToFront()).toEqual({ ok: true, value: undefined });
    expect(desk.foregroundHandle).toBe(main.handle);
    desk.foregroundHandle = other.handle;
    desk.foregroundLocked = true;
    const r = await driver.bringToFront();
    expect(r.ok ? "" : r.detail).toContain('"Notepad" (Notepad, pid 9) has the keyboard and "Fixture" could not be brought to the front');
  });

  test("a control of the main window is not typed into while another of the app's windows keeps the keyboard", async () => {
    const { desk, driver, main } = fixture();
    const popup = desk.addWindow({ title: "Tip of the day", className: "Tip", pid: 7, owner: main.handle });
    popup.controls.push(control({ name: "", controlType: "edit", automationId: "1" }));
    desk.foregroundHandle = popup.handle;
    desk.foregroundLocked = true;
    const r = await driver.fill(id("101"), "Ada");
    expect(r).toMatchObject({ ok: false, retryable: false });
    expect(r.ok ? "" : r.detail).toContain('"Tip of the day" (Tip, pid 7) has the keyboard and "Fixture" could not be brought to the front');
    expect(valueOf(main, "101")).toBe("");
    expect(popup.controls[0]!.value).toBeUndefined();
  });

  test("a dialog the window owns may hold the foreground, and its controls are searched first", async () => {
    const { desk, driver, main } = fixture();
    const dialog = desk.addWindow({ title: "Confirm", pid: 7, owner: main.handle });
    let confirmed = false;
    dialog.controls.push(
      control({
        name: "OK",
        controlType: "button",
        automationId: "1",
        onInvoke: () => {
          confirmed = true;
        },
      }),
    );
    main.controls.push(control({ name: "OK", controlType: "button", automationId: "1" }));
    desk.foregroundHandle = dialog.handle;
    desk.foregroundLocked = true;
    expect((await driver.click(text("OK"), LEFT)).ok).toBe(true);
    expect(confirmed).toBe(true);
  });
});

describe("reads and assertions", () => {
  test("page shows reads names and values across the window; a red reading shows the text", async () => {
    const { driver, main } = fixture();
    main.controls[1]!.value = "typed text";
    expect(await driver.check([], { kind: "text_contains", text: "typed text" })).toMatchObject({ pass: true });
    // The one rule of every surface: as written, else ignoring case; N times as written, else ignoring case.
    expect(await driver.check([], { kind: "text_contains", text: "TYPED Text" })).toMatchObject({ pass: true });
    expect(await driver.check([], { kind: "text_absent", text: "Typed text" })).toMatchObject({ pass: false });
    expect(await driver.check([], { kind: "text_contains", text: "typed", count: 1 })).toMatchObject({ pass: true });
    expect(await driver.check([], { kind: "text_contains", text: "typed", count: 2 })).toMatchObject({ pass: false });
    expect(await driver.check([], { kind: "text_contains", text: "Goodbye" })).toMatchObject({ pass: false });
    expect(await driver.check([], { kind: "text_absent", text: "Goodbye" })).toMatchObject({ pass: true });
    expect(await driver.check([], { kind: "title", op: "contains", value: "Fix" })).toMatchObject({ pass: true });
    expect(await driver.check([], { kind: "title", op: "equals", value: "Other" })).toMatchObject({ pass: false, actual: 'titled "Fixture"' });
    expect(await driver.check([], { kind: "url", op: "equals", value: "x" })).toMatchObject({ pass: false, retryable: false });
  });

  test("a password field's value is never read, never shown and never part of page text", async () => {
    const { desk, driver, main } = fixture();
    expect((await driver.fill(text("Password", { role: "field" }), "s3cret", { secret: true })).ok).toBe(true);
    expect(desk.valueOf(main.controls[3]!.ref)).toBe("s3cret");
    expect(await driver.readText(text("Password", { role: "field" }))).toMatchObject({ ok: false });
    expect(await driver.check([], { kind: "text_contains", text: "s3cret" })).toMatchObject({ pass: false });
    const scene = await driver.scene();
    expect(JSON.stringify(scene)).not.toContain("s3cret");
  });

  test("field contains and empty, green and red", async () => {
    const { driver, main } = fixture();
    main.controls[1]!.value = "Ada Lovelace";
    expect(await driver.check(id("101"), { kind: "text_contains", text: "Lovelace" })).toMatchObject({ pass: true });
    expect(await driver.check(id("101"), { kind: "text_contains", text: "Byron" })).toMatchObject({ pass: false, actual: '"Ada Lovelace"' });
    expect(await driver.check(id("101"), { kind: "empty", empty: false })).toMatchObject({ pass: true });
    expect(await driver.check(id("101"), { kind: "empty", empty: true })).toMatchObject({ pass: false });
    expect(await driver.count(text("Fruit"))).toBe(1);
    expect(await driver.check(text("Fruit"), { kind: "count", count: 2 })).toMatchObject({ pass: false });
  });

  test("password fields are always masked, secret-typed fields too; frames are relative to the window", async () => {
    const { driver, main } = fixture();
    main.rect = { x: 100, y: 50, width: 400, height: 300 };
    for (const c of main.controls) c.rect = { ...c.rect, x: c.rect.x + 100, y: c.rect.y + 50 };
    await driver.fill(text("Name", { role: "field" }), "Ada", { secret: true });
    const [secret, password, css] = await driver.rectsFor([{ secretFields: true }, { passwordFields: true }, { css: "input[type=password i]" }]);
    expect(password).toEqual({ ok: true, rects: [{ x: 80, y: 40, width: 120, height: 20 }] });
    expect(secret).toEqual({
      ok: true,
      rects: [
        { x: 80, y: 10, width: 120, height: 20 },
        { x: 80, y: 40, width: 120, height: 20 },
      ],
    });
    expect(css?.ok).toBe(false);
  });

  test("the scene lists controls as id: tokens (text: when the id is not unique), interactive first", async () => {
    const { driver } = fixture();
    const scene = await driver.scene();
    expect(scene.title).toBe("Fixture");
    expect(scene.entries[0]).toMatchObject({ target: "id:101", tag: "edit", actionable: true });
    expect(scene.entries.find((e) => e.target === "id:104")).toMatchObject({ text: "Greet", tag: "button" });
    expect(scene.entries.find((e) => e.target === "id:107")).toMatchObject({ options: ["Red", "Green"] });
    expect(scene.entries.find((e) => e.target === "id:103")).toMatchObject({ type: "password" });
    expect(scene.entries.at(-1)).toMatchObject({ target: "id:200", actionable: false, text: "Ready" });
  });
});

describe("calculator and notepad sugar", () => {
  function calc() {
    const desk = new FakeDesktop();
    const main = desk.addWindow({ title: "Calculator", pid: 3 });
    const pressed: string[] = [];
    const display = control({ name: "Display is 0", controlType: "text", automationId: "CalculatorResults" });
    for (const idName of ["num1Button", "num2Button", "num5Button", "decimalSeparatorButton", "plusButton", "equalButton"]) {
      main.controls.push(control({ name: idName, controlType: "button", automationId: idName, onInvoke: () => pressed.push(idName) }));
    }
    main.controls.push(display);
    desk.foregroundHandle = main.handle;
    const driver = new WindowsDriver({
      desktop: desk,
      backend: desk,
      window: { handle: main.handle, title: "Calculator", className: "x", pid: 3, visible: true },
      flavour: "calc",
      sleep: async () => undefined,
    });
    return { driver, pressed, display };
  }

  test("Type 12.5 presses four buttons; Press plus presses the plus button", async () => {
    const { driver, pressed } = calc();
    expect((await driver.typeFocused("12.5")).ok).toBe(true);
    expect((await driver.pressKey("plus", [])).ok).toBe(true);
    expect(pressed).toEqual(["num1Button", "num2Button", "decimalSeparatorButton", "num5Button", "plusButton"]);
    expect(await driver.typeFocused("1a")).toMatchObject({ ok: false, failed: "unsupported" });
  });

  test("display shows compares numbers", async () => {
    const { driver, display } = calc();
    display.name = "Display is 1,234.5";
    const ladder = id("CalculatorResults");
    expect(await driver.check(ladder, { kind: "numeric_equals", value: 1234.5 })).toMatchObject({ pass: true });
    expect(await driver.check(ladder, { kind: "numeric_equals", value: 8 })).toMatchObject({ pass: false, actual: '"Display is 1,234.5"' });
  });

  test("notepad: Type goes into the document (id 15), appending", async () => {
    const desk = new FakeDesktop();
    const main = desk.addWindow({ title: "Untitled - Notepad", pid: 4 });
    main.controls.push(control({ name: "", controlType: "edit", automationId: "15", value: "a" }));
    desk.foregroundHandle = main.handle;
    const driver = new WindowsDriver({
      desktop: desk,
      backend: desk,
      window: { handle: main.handle, title: main.title, className: "Notepad", pid: 4, visible: true },
      flavour: "notepad",
      sleep: async () => undefined,
    });
    expect((await driver.typeFocused("bc")).ok).toBe(true);
    expect(main.controls[0]!.value).toBe("abc");
    expect(await driver.check(id("15"), { kind: "text_contains", text: "abc" })).toMatchObject({ pass: true });
  });

  test("appInfo names the backend and the geometry as applied", async () => {
    const desk = new FakeDesktop();
    const main = desk.addWindow({ title: "X" });
    const driver = new WindowsDriver({
      desktop: desk,
      backend: desk,
      window: { handle: main.handle, title: "X", className: "x", pid: 1, visible: true },
      flavour: "windows",
      geometry: { x: 1, y: 2, width: 300, height: 200 },
    });
    expect(driver.appInfo()).toEqual({ backend: "fake", geometry: { x: 1, y: 2, width: 300, height: 200 } });
  });
});

describe("step effects", () => {
  test("a desktop surface observes no kind: a field it changed, a window title it changed are not claimed", async () => {
    const { driver, main, status } = fixture();
    const watch = await driver.observeEffect();
    expect(watch.kinds).toEqual([]);
    expect(watch.sent).toBeUndefined();
    expect(await driver.fill(text("Name", { role: "field" }), "Ada")).toMatchObject({ ok: true });
    await driver.click(text("Greet"), LEFT);
    main.title = "Fixture - changed";
    expect(status.name).toBe("Hello");
    expect(await watch.read()).toEqual({ effect: {}, idleMs: Number.POSITIVE_INFINITY, final: true });
    await watch.stop();
  });
});

describe("items of common controls: menus, tabs, tree and list items, status bars", () => {
  function explorer() {
    const desk = new FakeDesktop();
    const main = desk.addWindow({ title: "Explorer", pid: 9 });
    const at = (x: number, y: number) => ({ x, y, width: 40, height: 16 });
    const tabs = ["General", "Sharing"].map((name, i) => control({ name, controlType: "tab", rect: at(10 + 50 * i, 30), itemSelected: i === 0 }));
    for (const t of tabs) t.onClick = () => tabs.forEach((o) => (o.itemSelected = o === t));
    const tree = control({ name: "Documents", controlType: "treeitem", rect: at(10, 60), expanded: false, itemSelected: false });
    tree.onClick = (count) => {
      tree.itemSelected = true;
      if (count === 2) tree.expanded = !tree.expanded;
    };
    const cell = (row: number, column: string, name: string, x: number) =>
      control({ name, controlType: column === "Name" ? "listitem" : "cell", rect: at(x, 100 + 20 * row), cell: { table: "lv", row, column } });
    main.controls.push(
      control({ name: "&File", controlType: "menuitem", rect: at(0, 0) }),
      control({ name: "Select &all", controlType: "menuitem", rect: at(0, 20), enabled: false }),
      ...tabs,
      tree,
      cell(0, "Name", "notes.txt", 10),
      cell(0, "Type", "Text", 60),
      cell(0, "Size", "2 KB", 110),
      cell(1, "Name", "photo.png", 10),
      cell(1, "Type", "Image", 60),
      cell(1, "Size", "40 KB", 110),
      control({ name: "", controlType: "statusbar", value: "2 items | Ready", rect: at(0, 200) }),
    );
    desk.foregroundHandle = main.handle;
    const driver = new WindowsDriver({
      desktop: desk,
      backend: desk,
      window: { handle: main.handle, title: main.title, className: "Explorer", pid: 9, visible: true },
      flavour: "windows",
      sleep: async () => undefined,
    });
    return { desk, driver, tabs, tree };
  }
  const cellOf = (column: string, row: string): Selector[] => [
    { tier: "structural", provenance: "rules", payload: { kind: "cell", column_text: column, row_anchor: row } },
  ];

  test("a tab is clicked with the mouse and reads as selected", async () => {
    const { driver, desk } = explorer();
    expect(await driver.check(text("Sharing"), { kind: "selected", selected: false })).toMatchObject({ pass: true });
    expect(await driver.click(text("Sharing"), LEFT)).toMatchObject({ ok: true });
    expect(desk.clicks.at(-1)).toEqual({ x: 80, y: 38, button: "left", count: 1 });
    expect(await driver.check(text("Sharing"), { kind: "selected", selected: true })).toMatchObject({ pass: true, actual: "selected" });
    expect(await driver.check(text("General"), { kind: "selected", selected: true })).toMatchObject({ pass: false, actual: "not selected" });
    expect(await driver.check(text("File"), { kind: "selected", selected: true })).toMatchObject({ pass: false, retryable: false });
  });

  test("a double-click on a tree item is a real double-click (the tree expands it)", async () => {
    const { driver, tree } = explorer();
    expect(await driver.click(text("Documents"), { button: "left", clickCount: 2 })).toMatchObject({ ok: true });
    expect(tree.expanded).toBe(true);
  });

  test("a disabled menu item fails the click on the enabled condition; menu items match without their mnemonic, in any case", async () => {
    const { driver } = explorer();
    expect(await driver.click(text("Select All"), LEFT)).toMatchObject({ ok: false, failed: "enabled", detail: 'menuitem "Select all" is disabled' });
    expect(await driver.click(text("File"), LEFT)).toMatchObject({ ok: true });
  });

  test("the column of the row containing a text names one cell; a row no cell names is not found", async () => {
    const { driver } = explorer();
    expect(await driver.readText(cellOf("Size", "photo.png"))).toMatchObject({ ok: true, value: "40 KB" });
    expect(await driver.check(cellOf("type", "notes"), { kind: "text_contains", text: "Text" })).toMatchObject({ pass: true });
    expect(await driver.readText(cellOf("Name", "Image"))).toMatchObject({ ok: true, value: "photo.png" });
    expect(await driver.readText(cellOf("Size", "movie.mp4"))).toMatchObject({ ok: false, failed: "not-found" });
    expect(
      await driver.readText([{ tier: "structural", provenance: "rules", payload: { kind: "cell", column_text: "Size", row_anchor: "KB" } }]),
    ).toMatchObject({ ok: false, failed: "ambiguous" });
  });

  test('"status bar" names the window\'s status bar, and page text includes it with every item', async () => {
    const { driver } = explorer();
    expect(await driver.check(text("status bar"), { kind: "text_contains", text: "Ready" })).toMatchObject({ pass: true });
    for (const t of ["2 items", "File", "Sharing", "Documents", "photo.png", "40 KB"])
      expect(await driver.check([], { kind: "text_contains", text: t })).toMatchObject({ pass: true });
  });

  test("a miss names the nearest texts the window shows", async () => {
    const { driver } = explorer();
    const r = await driver.click(text("Documnets"), LEFT);
    expect(r).toMatchObject({ ok: false, failed: "not-found" });
    expect(r.ok ? "" : r.detail).toBe(
      'no control in "Explorer" matches "Documnets"; nearest texts it shows: "Documents", "File", "General", "Sharing", "notes.txt"',
    );
  });

  test("a path `File > Open` clicks the menu, then the item of the menu it opened", async () => {
    const { driver, desk } = explorer();
    const main = desk.windows[0]!;
    const open = control({ name: "&Open", controlType: "menuitem", rect: { x: 0, y: 40, width: 40, height: 16 }, visible: false });
    open.onClick = () => {
      main.title = "Opened";
    };
    main.controls.push(open);
    main.controls[0]!.onClick = () => {
      open.visible = true;
    };
    expect(await driver.click(text("File > Open"), LEFT)).toEqual({ ok: true, value: undefined, tier: "text_anchor" });
    expect(main.title).toBe("Opened");
    expect(desk.clicks.map((c) => c.y)).toEqual([8, 48]);
    // A missing item past the first label is final (retrying would click the menu closed again).
    expect(await driver.click(text("File > Close"), LEFT)).toMatchObject({
      ok: false,
      failed: "not-found",
      retryable: false,
      detail: expect.stringContaining('"Close" of File > Close: no control'),
    });
    expect(await driver.click(text("Fiel > Open"), LEFT)).toMatchObject({ ok: false, failed: "not-found", retryable: true });
  });

  test("the debug snapshot lists the visible controls and the texts a step could name", async () => {
    const { driver } = explorer();
    const snap = await driver.debugSnapshot((t) => t.replace("photo", "[x]"));
    expect(snap.dom).toContain('tab "General" selected at 10,30 40x16');
    expect(snap.dom).toContain('cell "[x].png"'.replace("cell", "listitem"));
    expect(snap.dom).toContain('cell "40 KB" row=1 column="Size"');
    expect(snap.anchors).toContain("2 items | Ready");
    expect(snap.anchors).toContain("[x].png");
  });
});
