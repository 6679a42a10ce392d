// The item conformance suite: what every UI driver does with the items of menus, tabs, trees and
// tables, against a fixture that offers the same names on each surface (a web page,
// test/fixtures/pages/items.html; a desktop window modelled on test/fixtures/win32/controls.c).
// Expected gaps are data, each with a reason.
import { afterAll, describe, expect, test } from "bun:test";
import type { AppDriver, Selector } from "../../src/plugins/api.ts";

export type ItemArea = "menus" | "tabs" | "trees" | "tables";

export interface ItemConformanceOptions {
  readonly name: string;
  /** A driver showing the fixture (opened once per test, so each starts from the fixture's first state). */
  readonly open: () => Promise<{ readonly driver: AppDriver; close(): Promise<void> }>;
  /** Item kinds this driver does not have, each with the reason. */
  readonly expectations?: Readonly<Partial<Record<ItemArea, string>>>;
}

const text = (t: string): Selector[] => [{ tier: "text_anchor", provenance: "rules", payload: { text: t } }];
const cell = (column: string, row: string): Selector[] => [
  { tier: "structural", provenance: "rules", payload: { kind: "cell", column_text: column, row_anchor: row } },
];
const LEFT = { button: "left", clickCount: 1 } as const;

export function runItemConformance(options: ItemConformanceOptions): void {
  const skipFor = (area: ItemArea) => options.expectations?.[area] !== undefined;
  let opened: { readonly driver: AppDriver; close(): Promise<void> } | undefined;
  const driver = async (): Promise<AppDriver> => {
    await opened?.close();
    opened = await options.open();
    return opened.driver;
  };
  const shows = async (d: AppDriver, t: string) => (await d.check([], { kind: "text_contains", text: t })).pass;

  describe(`${options.name} item conformance`, () => {
    afterAll(async () => {
      await opened?.close();
    });

    test.skipIf(skipFor("menus"))("a menu opens on its menu bar item and its item is picked; a disabled item fails on the enabled condition", async () => {
      const d = await driver();
      expect(await d.click(text("File"), LEFT)).toMatchObject({ ok: true });
      expect(await d.click(text("Save"), LEFT)).toMatchObject({ ok: false, failed: "enabled" });
      expect(await d.click(text("Open"), LEFT)).toMatchObject({ ok: true });
      expect(await shows(d, "Opened")).toBe(true);
    });

    test.skipIf(skipFor("tabs"))("a tab is clicked by its text and reads as selected; the others do not", async () => {
      const d = await driver();
      expect((await d.check(text("General"), { kind: "selected", selected: true })).pass).toBe(true);
      expect(await d.click(text("Sharing"), LEFT)).toMatchObject({ ok: true });
      expect((await d.check(text("Sharing"), { kind: "selected", selected: true })).pass).toBe(true);
      expect(await d.check(text("General"), { kind: "selected", selected: true })).toMatchObject({ pass: false, actual: "not selected" });
      expect(await shows(d, "Tab: Sharing")).toBe(true);
    });

    test.skipIf(skipFor("trees"))("a tree item is clicked by its text and reads as selected", async () => {
      const d = await driver();
      expect((await d.check(text("Pear"), { kind: "selected", selected: false })).pass).toBe(true);
      expect(await d.click(text("Pear"), LEFT)).toMatchObject({ ok: true });
      expect((await d.check(text("Pear"), { kind: "selected", selected: true })).pass).toBe(true);
      expect(await shows(d, "Tree: Pear")).toBe(true);
    });

    test.skipIf(skipFor("tables"))("a cell is named by its column and the texts of its row; a row no cell names is not found", async () => {
      const d = await driver();
      expect(await d.readText(cell("Type", "photo.png"))).toMatchObject({ ok: true, value: "Image" });
      expect((await d.check(cell("Size", "report.pdf"), { kind: "text_contains", text: "120 KB" })).pass).toBe(true);
      expect(await d.readText(cell("Type", "movie.mp4"))).toMatchObject({ ok: false, failed: "not-found" });
      expect(await shows(d, "notes.txt")).toBe(true);
    });
  });
}
