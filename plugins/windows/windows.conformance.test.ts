// Runs the item conformance suite (menus, tabs, trees, tables) against the Windows driver over the
// in-memory desktop, modelled on the common-controls fixture (test/fixtures/win32/controls.c): its
// items as the Win32 backend reads them (menu items, tabs, tree items, list items and cells, the
// status bar). The same fixture runs for real under Wine in test/e2e/windows-controls.test.ts.
import { runItemConformance } from "../../test/conformance/items.ts";
import { FakeDesktop, control, type FakeControl } from "./backends/fake.ts";
import { WindowsDriver } from "./driver.ts";

function controlsWindow(): { desk: FakeDesktop; driver: WindowsDriver } {
  const desk = new FakeDesktop();
  const main = desk.addWindow({ title: "Flowproof Controls", pid: 3 });
  let y = 0;
  const at = (x: number) => ({ x, y: (y += 20), width: 60, height: 16 });
  const status = control({ name: "", controlType: "statusbar", value: "Ready | 3 items", rect: at(0) });
  const say = (t: string) => (status.value = `${t} | 3 items`);
  const open = control({ name: "&Open", controlType: "menuitem", rect: at(0), visible: false, onClick: () => { say("Opened"); open.visible = save.visible = false; } });
  const save = control({ name: "&Save", controlType: "menuitem", rect: at(0), visible: false, enabled: false });
  const file = control({ name: "&File", controlType: "menuitem", rect: at(0), onClick: () => { open.visible = save.visible = true; } });
  const pick = (group: FakeControl[], chosen: FakeControl, said: string) => {
    for (const c of group) c.itemSelected = c === chosen;
    say(said);
  };
  const tabs = ["General", "Details", "Sharing"].map((name, i) => control({ name, controlType: "tab", rect: at(0), itemSelected: i === 0 }));
  for (const t of tabs) t.onClick = () => pick(tabs, t, `Tab: ${t.name}`);
  const tree = ["Fruits", "Apple", "Pear"].map((name) => control({ name, controlType: "treeitem", rect: at(0), itemSelected: false, expanded: name === "Fruits" }));
  for (const t of tree) t.onClick = () => pick(tree, t, `Tree: ${t.name}`);
  const rows = [["notes.txt", "Text", "2 KB"], ["photo.png", "Image", "40 KB"], ["report.pdf", "Document", "120 KB"]];
  const cells = rows.flatMap((texts, row) => {
    const rect = at(0);
    return texts.map((name, c) => control({ name, controlType: c === 0 ? "listitem" : "cell", rect: { ...rect, x: 70 * c }, cell: { table: "list", row, column: ["Name", "Type", "Size"][c]! } }));
  });
  main.controls.push(file, open, save, ...tabs, ...tree, ...cells, status);
  desk.foregroundHandle = main.handle;
  const driver = new WindowsDriver({ desktop: desk, backend: desk, window: { handle: main.handle, title: main.title, className: "FlowproofControls", pid: 3, visible: true }, flavour: "windows", sleep: async () => undefined });
  return { desk, driver };
}

runItemConformance({
  name: "windows (in-memory desktop)",
  open: async () => {
    const { driver } = controlsWindow();
    return { driver, close: () => driver.close() };
  },
});
