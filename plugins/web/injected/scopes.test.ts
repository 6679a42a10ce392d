// The page-side scope rules, asked directly through the web driver on fixture pages in real
// Chromium: which cell, which container, which frame, and which misses are errors.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { toSelector, type Selector } from "../../../src/plugins/api.ts";
import { engineHarness, type EngineHarness } from "../../../test/support/engine.ts";

let h: EngineHarness;
beforeAll(async () => {
  h = await engineHarness();
});
afterAll(async () => {
  await h.close();
});

const rung = (payload: Record<string, unknown>): Selector[] => [toSelector({ tier: "structural", provenance: "rules", payload })];
const cell = (column: string, ...anchors: string[]) =>
  rung({ kind: "cell", column_text: column, row_anchor: anchors[0], ...(anchors.length > 1 ? { row_anchor_also: anchors.slice(1) } : {}) });
const item = (anchor: string, inner: Record<string, unknown>, container = "item") => rung({ kind: "scoped", container, container_anchor: anchor, ...inner });
const framed = (frame: Record<string, unknown>, inner: Record<string, unknown>) => rung({ kind: "framed", ...frame, ...inner });

const read = async (ladder: Selector[]) => {
  const r = await h.driver.readText(ladder);
  return r.ok ? r.value : `${r.failed}${r.retryable ? "" : " (final)"}: ${r.detail}`;
};

describe("cells", () => {
  test("match the column header by the anchor ladder and the row by its anchors", async () => {
    await h.context("grid.html");
    expect(await read(cell("Status", "Grace Hopper"))).toBe("Suspended");
    expect(await read(cell("status", "grace hopper"))).toBe("Suspended");
    expect(await read(cell("Email", "John", "Doe"))).toBe("john.doe@example.com");
    expect(await read(cell("Balance", "Grace Hopper"))).toBe("");
  });

  test("read a grid that draws its header and its body as two tables by the header table's columns", async () => {
    await h.context("split-grid.html");
    expect(await read(cell("Price", "Banana"))).toBe("4");
    expect(await read(cell("Stock", "Apple"))).toBe("10");
    // A table with headers of its own is never a header table's body.
    expect(await read(cell("Price", "Cherry"))).toStartWith("not-found: no row contains");
    expect(await read(cell("Origin", "Cherry"))).toBe("Chile");
  });

  test("line up stub-header grids by position within the header's own row", async () => {
    await h.context("grid.html");
    expect(await read(cell("Thursday", "11:00 - 13:00"))).toBe("THU-B");
    expect(await read(cell("Monday", "09:00 - 11:00"))).toBe("MON-A");
  });

  test("resolve to the one control a cell holds", async () => {
    await h.context("grid.html");
    const r = await h.driver.check(cell("Note", "Grace Hopper"), { kind: "enabled", enabled: false });
    expect(r.pass).toBe(true);
  });

  test("say which anchors matched several rows, and stop at once", async () => {
    await h.context("grid.html");
    const detail = await read(cell("Email", "John"));
    expect(detail).toStartWith("ambiguous (final): ");
    expect(detail).toContain('"John" is in 2 rows');
    expect(detail).toContain("css:");
  });

  test("refuse a duplicate column header", async () => {
    await h.context("grid.html");
    expect(await read(cell("Total", "Q1"))).toContain('2 columns headed "Total"');
  });

  test("report a missing column with the columns seen, and a missing row, as retryable", async () => {
    await h.context("grid.html");
    const column = await read(cell("Salary", "Ada Lovelace"));
    expect(column).toStartWith('not-found: no table or grid has a column headed "Salary"');
    expect(column).toContain('"Status"');
    expect(await read(cell("Status", "Nobody"))).toStartWith('not-found: no row contains "Nobody"');
  });
});

describe("containers", () => {
  test("take the innermost item holding the anchor", async () => {
    await h.context("list.html");
    expect(await read(item("Invoice 4790", { inner_css: ".amount" }))).toBe("12.00");
    expect(await read(item("Group 9", { inner_css: ".group-title" }))).toBe("Group 9");
  });

  test("take explicit css: and id: containers", async () => {
    await h.context("cards.html");
    expect(await read(item("Order 8802", { inner_css: ".amount" }, "css:.card"))).toBe("80.00");
    await h.context("list.html");
    expect(await read(item("Panel", { inner_css: ".amount" }, "id:panel"))).toBe("99.00");
  });

  test("refuse an anchor that is in every item, or in none", async () => {
    await h.context("list.html");
    expect(await read(item("Invoice", { inner_text: "Pay" }))).toStartWith("ambiguous (final): ");
    const loose = await read(item("Invoice 9000", { inner_css: ".amount" }));
    expect(loose).toContain("in no list item");
    expect(loose).toContain('"css:');
  });

  test("report an inner target the container lacks", async () => {
    await h.context("list.html");
    expect(await read(item("Invoice 4790", { inner_text: "Amount", role: "field" }))).toStartWith("not-found: ");
  });
});

describe("a role noun alone in a container", () => {
  test("names the container's one element of that role, an ordinal picking among several", async () => {
    await h.context("todo-toggles.html");
    const checked = async (anchor: string, extra: Record<string, unknown> = {}) =>
      (await h.driver.check(item(anchor, { role: "checkbox", ...extra }), { kind: "checked", checked: true })).actual;
    expect(await checked("Buy milk")).toBe("not checked");
    expect(await read(item("Walk the dog", { role: "button" }))).toBe("");
    expect(await checked("Pay rent", { nth: 2 })).toBe("not checked");
  });

  test("refuses several of the role without an ordinal, listing them, and reports none as retryable", async () => {
    await h.context("todo-toggles.html");
    const several = await read(item("Pay rent", { role: "checkbox" }));
    expect(several).toStartWith("ambiguous (final): ");
    expect(several).toContain("holds 2 checkboxes: 1st <input>, 2nd <input>");
    expect(several).toContain('`the 2nd checkbox in the item containing "Pay rent"`');
    expect(await read(item("Buy milk", { role: "field" }))).toStartWith("not-found: ");
  });
});

describe("iframes", () => {
  test("fence the inner target to the frame's document", async () => {
    await h.context("frames.html");
    expect(await read([{ tier: "native_id", provenance: "rules", payload: { css: "#total" } }])).toBe("Total 10.00");
    expect(await read(framed({ frame_text: "checkout" }, { inner_css: "#total" }))).toBe("Total 42.00");
    expect(await read(framed({ frame_css: "iframe[title=checkout]" }, { inner_css: ".status" }))).toBe("Card accepted");
    expect(await read(framed({ frame_text: "receipt" }, { inner_css: "#total" }))).toStartWith("not-found: ");
  });

  test("list the frames present when the named one is missing", async () => {
    await h.context("frames.html");
    expect(await read(framed({ frame_text: "invoice" }, { inner_css: "#total" }))).toBe(
      'not-found: no iframe "invoice" on the page; frames present: title="checkout", title="receipt"',
    );
  });

  test("assign a value and read it back, refusing read-only fields and rewrites", async () => {
    await h.context("frames.html");
    expect((await h.driver.fill(framed({ frame_text: "checkout" }, { inner_text: "Card holder", role: "field" }), "Ada")).ok).toBe(true);
    expect(await read(framed({ frame_text: "checkout" }, { inner_css: "#echo" }))).toBe("holder Ada");
    const locked = await h.driver.fill(framed({ frame_text: "checkout" }, { inner_css: "#locked" }), "x");
    expect(locked.ok ? "" : locked.detail).toContain("read-only");
    const upper = await h.driver.fill(framed({ frame_text: "checkout" }, { inner_css: "#upper" }), "quiet");
    expect(upper.ok ? "" : upper.detail).toContain("the page rewrote it");
  });
});
