import { describe, expect, test } from "bun:test";
import { describeScopedPayload, ordinal, scopedSelector } from "./scoped.ts";

describe("scopedSelector", () => {
  test("records a cell by column header text and row anchors", () => {
    expect(scopedSelector({ kind: "cell", column: "Status", rowAnchors: ["Grace Hopper"] })).toEqual({
      tier: "structural",
      provenance: "rules",
      payload: { kind: "cell", column_text: "Status", row_anchor: "Grace Hopper" },
    });
    expect(scopedSelector({ kind: "cell", column: "Email", rowAnchors: ["John", "Doe"], role: "field" }).payload).toEqual({
      kind: "cell",
      column_text: "Email",
      row_anchor: "John",
      row_anchor_also: ["Doe"],
      role: "field",
    });
  });

  test("records containers as item, css: or id: with prefixed inner keys", () => {
    expect(scopedSelector({ kind: "scoped", container: { kind: "item" }, anchors: ["Invoice 4711"], inner: { kind: "text", text: "Pay" } }).payload).toEqual({
      kind: "scoped",
      container: "item",
      container_anchor: "Invoice 4711",
      inner_text: "Pay",
    });
    expect(
      scopedSelector({ kind: "scoped", container: { kind: "css", selector: ".card" }, anchors: ["A", "B"], inner: { kind: "css", selector: ".amount" } })
        .payload,
    ).toEqual({ kind: "scoped", container: "css:.card", container_anchor: "A", anchor_also: ["B"], inner_css: ".amount" });
    expect(
      scopedSelector({ kind: "scoped", container: { kind: "id", id: "box" }, anchors: ["A"], inner: { kind: "id", id: "x" }, role: "checkbox" }).payload,
    ).toEqual({ kind: "scoped", container: "id:box", container_anchor: "A", inner_id: "x", role: "checkbox" });
  });

  test("records a role noun alone with no inner key, and its ordinal as nth", () => {
    expect(scopedSelector({ kind: "scoped", container: { kind: "item" }, anchors: ["Buy milk"], role: "checkbox" }).payload).toEqual({
      kind: "scoped",
      container: "item",
      container_anchor: "Buy milk",
      role: "checkbox",
    });
    expect(scopedSelector({ kind: "scoped", container: { kind: "item" }, anchors: ["Buy milk"], role: "button", nth: 2 }).payload).toEqual({
      kind: "scoped",
      container: "item",
      container_anchor: "Buy milk",
      nth: 2,
      role: "button",
    });
  });

  test("records an iframe by its name or css selector", () => {
    expect(scopedSelector({ kind: "framed", frame: { kind: "text", text: "checkout" }, inner: { kind: "css", selector: "#total" } }).payload).toEqual({
      kind: "framed",
      frame_text: "checkout",
      inner_css: "#total",
    });
    expect(
      scopedSelector({ kind: "framed", frame: { kind: "css", selector: "iframe[title=x]" }, inner: { kind: "text", text: "Coupon" }, role: "field" }).payload,
    ).toEqual({ kind: "framed", frame_css: "iframe[title=x]", inner_text: "Coupon", role: "field" });
  });
});

describe("describeScopedPayload", () => {
  test("reads each kind back as the step wrote it", () => {
    expect(describeScopedPayload(scopedSelector({ kind: "cell", column: "Status", rowAnchors: ["John", "Doe"] }).payload)).toBe(
      'the "Status" column of the row containing "John" and "Doe"',
    );
    expect(
      describeScopedPayload(
        scopedSelector({ kind: "scoped", container: { kind: "css", selector: ".card" }, anchors: ["Order 8801"], inner: { kind: "text", text: "Ship" } })
          .payload,
      ),
    ).toBe('the "Ship" in the "css:.card" containing "Order 8801"');
    expect(describeScopedPayload(scopedSelector({ kind: "scoped", container: { kind: "item" }, anchors: ["Buy milk"], role: "checkbox" }).payload)).toBe(
      'the checkbox in the item containing "Buy milk"',
    );
    expect(describeScopedPayload(scopedSelector({ kind: "scoped", container: { kind: "item" }, anchors: ["Buy milk"], role: "button", nth: 2 }).payload)).toBe(
      'the 2nd button in the item containing "Buy milk"',
    );
    expect(
      describeScopedPayload(scopedSelector({ kind: "framed", frame: { kind: "text", text: "checkout" }, inner: { kind: "css", selector: "#total" } }).payload),
    ).toBe('the "css:#total" in the iframe "checkout"');
  });

  test("returns undefined for a plain payload", () => {
    expect(describeScopedPayload({ text: "Save" })).toBeUndefined();
  });
});

describe("ordinal", () => {
  test.each([
    [1, "1st"],
    [2, "2nd"],
    [3, "3rd"],
    [4, "4th"],
    [11, "11th"],
    [12, "12th"],
    [13, "13th"],
    [21, "21st"],
    [22, "22nd"],
    [111, "111th"],
    [123, "123rd"],
  ])("writes %i as %s", (n, text) => {
    expect(ordinal(n)).toBe(text);
  });
});
