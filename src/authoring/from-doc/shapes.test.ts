import { describe, expect, test } from "bun:test";
import { headerRoles, normalizeHeader, readHeader } from "./shapes.ts";

describe("readHeader", () => {
  test.each([
    ["HP ALM", ["Step Name", "Description", "Expected Result", "Actual Result"], { action: 1, name: 0, expected: 2, shape: "hp-alm" }],
    [
      "Azure DevOps",
      ["ID", "Work Item Type", "Title", "Test Step", "Step Action", "Step Expected"],
      { action: 4, name: 3, expected: 5, shape: "azure-devops" },
    ],
    ["Xray", ["Action", "Data", "Expected Result"], { action: 0, data: 1, expected: 2, shape: "xray-jira" }],
    ["Zephyr", ["Test Step", "Test Data", "Expected Result"], { action: 0, data: 1, expected: 2, shape: "xray-jira" }],
    ["TestRail", ["ID", "Title", "Steps (Step)", "Steps (Expected Result)"], { action: 2, expected: 3, shape: "testrail" }],
    ["numbered", ["#", "Step", "Expected Result"], { action: 1, name: 0, expected: 2, shape: "generic" }],
    ["a plain table", ["Steps", "Expected:"], { action: 0, expected: 1, shape: "generic" }],
  ])("reads the %s header", (_, cells, expected) => {
    expect(readHeader(cells)).toEqual(expected as never);
  });

  test.each([
    ["a metadata row", ["Description", "Checks the login"]],
    ["no action column", ["Name", "Expected Result"]],
    ["an empty row", []],
  ])("refuses %s", (_, cells) => {
    expect(readHeader(cells)).toBeUndefined();
  });
});

describe("headerRoles", () => {
  test("a `Step` header may name the step or hold its action", () => {
    expect(headerRoles("  Step ")).toEqual(["action", "name"]);
    expect(headerRoles("Expected Result*")).toEqual(["expected"]);
    expect(headerRoles("Owner")).toEqual([]);
  });
  test("normalizeHeader lower-cases, collapses spaces and drops a trailing colon", () => {
    expect(normalizeHeader(" Expected\n Result: ")).toBe("expected result");
  });
});
