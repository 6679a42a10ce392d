import { describe, expect, test } from "bun:test";
import { controlTypeOfUia, uiaBackend, type UiaApi, type UiaFacts } from "./uia.ts";
import { WindowsDriver } from "../driver.ts";
import { FakeDesktop } from "./fake.ts";

interface Node {
  facts: UiaFacts;
  value?: string;
  toggle?: number;
  selected?: boolean;
  children: Node[];
  invoked?: number;
}

const node = (
  name: string,
  controlType: number,
  extra: Partial<Omit<Node, "facts">> & { automationId?: string; password?: boolean; offscreen?: boolean } = {},
): Node => ({
  facts: {
    name,
    automationId: extra.automationId ?? "",
    className: "",
    controlType,
    enabled: true,
    password: extra.password ?? false,
    focused: false,
    offscreen: extra.offscreen ?? false,
    hwnd: 0,
    rect: { x: 10, y: 10, width: 50, height: 20 },
  },
  children: extra.children ?? [],
  ...(extra.value !== undefined ? { value: extra.value } : {}),
  ...(extra.toggle !== undefined ? { toggle: extra.toggle } : {}),
  ...(extra.selected !== undefined ? { selected: extra.selected } : {}),
});

/** An in-memory UIA tree: one window's descendants. */
function fakeUia(tree: Node[], searchable = true): UiaApi<Node> & { focused?: Node } {
  const flat = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
  const api: UiaApi<Node> & { focused?: Node } = {
    descendants: () => (searchable ? flat(tree) : []),
    children: (n) => n.children,
    facts: (n) => n.facts,
    value: (n) => n.value,
    setValue: (n, text) => {
      n.value = text;
    },
    toggleState: (n) => n.toggle,
    isSelected: (n) => n.selected,
    setFocus: (n) => {
      api.focused = n;
    },
    invoke: (n) => {
      n.invoked = (n.invoked ?? 0) + 1;
    },
    toggle: (n) => {
      n.toggle = n.toggle === 1 ? 0 : 1;
    },
    select: (n) => {
      n.selected = true;
    },
    expand: () => undefined,
    collapse: () => undefined,
  };
  return api;
}

const WINDOW = { handle: "42", title: "Modern App", className: "Window", pid: 5, visible: true };

describe("the UI Automation backend", () => {
  test("control types map from UIA ids", () => {
    expect(controlTypeOfUia(50000)).toBe("button");
    expect(controlTypeOfUia(50004)).toBe("edit");
    expect(controlTypeOfUia(50003)).toBe("combobox");
    expect(controlTypeOfUia(99999)).toBe("other");
  });

  test("cannot search a window whose tree UIA returns empty (Wine): the Win32 backend is used instead", async () => {
    expect(await uiaBackend(fakeUia([node("OK", 50000)], false)).canSearch(WINDOW)).toBe(false);
    expect(await uiaBackend(fakeUia([node("OK", 50000)])).canSearch(WINDOW)).toBe(true);
  });

  test("reads values, toggles and selections; a password's value is never read; combo items belong to the combo", async () => {
    const combo = node("Country", 50003, {
      automationId: "country",
      children: [node("Belgium", 50007, { selected: false }), node("France", 50007, { selected: true })],
    });
    const backend = uiaBackend(
      fakeUia([
        node("Name", 50004, { automationId: "name", value: "Ada" }),
        node("Password", 50004, { automationId: "pw", password: true, value: "secret" }),
        node("Subscribe", 50002, { toggle: 1 }),
        combo,
        node("Hidden", 50000, { offscreen: true }),
      ]),
    );
    const els = await backend.elements(WINDOW);
    expect(els.map((e) => [e.controlType, e.name])).toEqual([
      ["edit", "Name"],
      ["edit", "Password"],
      ["checkbox", "Subscribe"],
      ["combobox", "Country"],
      ["button", "Hidden"],
    ]);
    expect(els[0]!.value).toBe("Ada");
    expect(els[1]!.value).toBeUndefined();
    expect(els[2]!.checked).toBe(true);
    expect(els[3]).toMatchObject({ items: ["Belgium", "France"], selected: ["France"], value: "France" });
    expect(els[4]!.visible).toBe(false);
  });

  test("the driver acts through it: fill empties the field then types, buttons are invoked, check boxes toggled, items selected", async () => {
    const name = node("Name", 50004, { automationId: "name", value: "old" });
    const greet = node("Greet", 50000, { automationId: "greet" });
    const box = node("Subscribe", 50002, { toggle: 0 });
    const belgium = node("Belgium", 50007, { selected: false });
    const api = fakeUia([name, greet, box, node("Country", 50003, { children: [belgium] })]);
    const desk = new FakeDesktop();
    desk.addWindow({ title: "Modern App", handle: "42", pid: 5 });
    desk.foregroundHandle = "42";
    const driver = new WindowsDriver({ desktop: desk, backend: uiaBackend(api), window: WINDOW, flavour: "windows", sleep: async () => undefined });
    const text = (t: string, role?: string) => [{ tier: "text_anchor" as const, provenance: "rules", payload: { text: t, ...(role ? { role } : {}) } }];
    expect((await driver.click(text("Greet"), { button: "left", clickCount: 1 })).ok).toBe(true);
    expect(greet.invoked).toBe(1);
    expect((await driver.setChecked(text("Subscribe"), true)).ok).toBe(true);
    expect(box.toggle).toBe(1);
    expect((await driver.select(text("Country"), ["Belgium"])).ok).toBe(true);
    expect(belgium.selected).toBe(true);
    const r = await driver.fill(text("Name", "field"), "Ada");
    // The fake desktop types into its own controls, not into UIA's: the field was emptied and focused first.
    expect(api.focused).toBe(name);
    expect(r.ok ? "" : r.detail).toContain('the field holds "" after typing');
  });

  test("tab, tree and list items carry their selection; a list view's items are elements; a status bar's value is its parts", async () => {
    const backend = uiaBackend(
      fakeUia([
        node("", 50018, { children: [node("General", 50019, { selected: true }), node("Sharing", 50019, { selected: false })] }),
        node("", 50023, { children: [node("Documents", 50024, { selected: false })] }),
        node("Files", 50028, { children: [node("notes.txt", 50029, { selected: true })] }),
        node("Icons", 50008, { children: [node("photo.png", 50007)] }),
        node("photo.png", 50007),
        node("", 50017, { children: [node("Ready", 50020), node(" 3 items ", 50020)] }),
      ]),
    );
    const els = await backend.elements(WINDOW);
    expect(els.map((e) => [e.controlType, e.name, e.itemSelected])).toEqual([
      ["tablist", "", undefined],
      ["tab", "General", true],
      ["tab", "Sharing", false],
      ["tree", "", undefined],
      ["treeitem", "Documents", false],
      ["table", "Files", undefined],
      ["listitem", "notes.txt", true],
      ["list", "Icons", undefined],
      ["listitem", "photo.png", undefined],
      ["statusbar", "", undefined],
      ["text", "Ready", undefined],
      ["text", " 3 items ", undefined],
    ]);
    expect(els.find((e) => e.controlType === "statusbar")?.value).toBe("Ready | 3 items");
  });
});
