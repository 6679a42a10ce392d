// Runs the driver conformance suite (the form every UI driver is checked on) and the item
// conformance suite (menus, tabs, trees, tables) against the Windows driver over the in-memory
// desktop, modelled on the Win32 fixtures as the Win32 backend reads them: the form of
// test/fixtures/win32/fixture.c, the items of test/fixtures/win32/controls.c. The same cases run
// for real under Wine in test/e2e/windows-conformance.test.ts and windows-controls.test.ts.
import { runDriverConformance } from "../../test/conformance/driver.ts";
import { runItemConformance } from "../../test/conformance/items.ts";
import { WINDOWS_FORM_IDS, WINDOWS_GAPS } from "../../test/conformance/surfaces.ts";
import { FakeDesktop, control, type FakeControl } from "./backends/fake.ts";
import { WindowsDriver } from "./driver.ts";

/** The form of fixture.c: labels before their fields, Greet writes the greeting and the status. */
function formWindow(): WindowsDriver {
  const desk = new FakeDesktop();
  const main = desk.addWindow({ title: "Flowproof Fixture", pid: 5 });
  let y = 0;
  const at = (x: number, width = 100) => ({ x, y: (y += 30), width, height: 24 });
  const name = control({ name: "", controlType: "edit", automationId: "101", value: "", rect: at(110) });
  const greeting = control({ name: "Waiting", controlType: "text", automationId: "112", rect: at(120) });
  const status = control({ name: "Ready", controlType: "text", automationId: "119", rect: at(10, 320) });
  main.controls.push(
    control({ name: "Name:", controlType: "text", automationId: "100", rect: at(10) }),
    name,
    control({ name: "Email:", controlType: "text", automationId: "102", rect: at(10) }),
    control({ name: "", controlType: "edit", automationId: "103", value: "", rect: at(110) }),
    control({ name: "Password:", controlType: "text", automationId: "104", rect: at(10) }),
    control({ name: "", controlType: "edit", automationId: "105", password: true, value: "", rect: at(110) }),
    control({ name: "Subscribe", controlType: "checkbox", automationId: "106", checked: false, rect: at(110) }),
    control({ name: "Country:", controlType: "text", automationId: "107", rect: at(10) }),
    control({ name: "", controlType: "combobox", automationId: "108", items: ["Belgium", "France", "Germany"], selected: [], value: "", rect: at(110) }),
    control({
      name: "Greet",
      controlType: "button",
      automationId: "111",
      rect: at(10),
      onInvoke: () => {
        greeting.name = `Hello, ${name.value ?? ""}!`;
        status.name = "Greeted";
      },
    }),
    greeting,
    control({ name: "Disabled", controlType: "button", automationId: "114", enabled: false, rect: at(120) }),
    status,
  );
  desk.foregroundHandle = main.handle;
  return new WindowsDriver({
    desktop: desk,
    backend: desk,
    window: { handle: main.handle, title: main.title, className: "FlowproofFixture", pid: 5, visible: true },
    flavour: "windows",
    sleep: async () => undefined,
  });
}

runDriverConformance({
  name: "windows (in-memory desktop)",
  launch: async () => {
    const driver = formWindow();
    return { driver, close: () => driver.close() };
  },
  ids: WINDOWS_FORM_IDS,
  expectations: WINDOWS_GAPS,
});

function controlsWindow(): { desk: FakeDesktop; driver: WindowsDriver } {
  const desk = new FakeDesktop();
  const main = desk.addWindow({ title: "Flowproof Controls", pid: 3 });
  let y = 0;
  const at = (x: number) => ({ x, y: (y += 20), width: 60, height: 16 });
  const status = control({ name: "", controlType: "statusbar", value: "Ready | 3 items", rect: at(0) });
  const say = (t: string) => (status.value = `${t} | 3 items`);
  const open = control({
    name: "&Open",
    controlType: "menuitem",
    rect: at(0),
    visible: false,
    onClick: () => {
      say("Opened");
      open.visible = save.visible = false;
    },
  });
  const save = control({ name: "&Save", controlType: "menuitem", rect: at(0), visible: false, enabled: false });
  const file = control({
    name: "&File",
    controlType: "menuitem",
    rect: at(0),
    onClick: () => {
      open.visible = save.visible = true;
    },
  });
  const pick = (group: FakeControl[], chosen: FakeControl, said: string) => {
    for (const c of group) c.itemSelected = c === chosen;
    say(said);
  };
  const tabs = ["General", "Details", "Sharing"].map((name, i) => control({ name, controlType: "tab", rect: at(0), itemSelected: i === 0 }));
  for (const t of tabs) t.onClick = () => pick(tabs, t, `Tab: ${t.name}`);
  const tree = ["Fruits", "Apple", "Pear"].map((name) =>
    control({ name, controlType: "treeitem", rect: at(0), itemSelected: false, expanded: name === "Fruits" }),
  );
  for (const t of tree) t.onClick = () => pick(tree, t, `Tree: ${t.name}`);
  const rows = [
    ["notes.txt", "Text", "2 KB"],
    ["photo.png", "Image", "40 KB"],
    ["report.pdf", "Document", "120 KB"],
  ];
  const cells = rows.flatMap((texts, row) => {
    const rect = at(0);
    return texts.map((name, c) =>
      control({
        name,
        controlType: c === 0 ? "listitem" : "cell",
        rect: { ...rect, x: 70 * c },
        cell: { table: "list", row, column: ["Name", "Type", "Size"][c]! },
      }),
    );
  });
  main.controls.push(file, open, save, ...tabs, ...tree, ...cells, status);
  desk.foregroundHandle = main.handle;
  const driver = new WindowsDriver({
    desktop: desk,
    backend: desk,
    window: { handle: main.handle, title: main.title, className: "FlowproofControls", pid: 3, visible: true },
    flavour: "windows",
    sleep: async () => undefined,
  });
  return { desk, driver };
}

runItemConformance({
  name: "windows (in-memory desktop)",
  open: async () => {
    const { driver } = controlsWindow();
    return { driver, close: () => driver.close() };
  },
});
