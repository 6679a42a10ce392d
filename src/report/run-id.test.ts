import { describe, expect, test } from "bun:test";
import { EARLIER_RUN_ID_PATTERN, RUN_ID_PATTERN, isRunId, runId, unusedRunId } from "./run-id.ts";

describe("runId", () => {
  test.each([
    ["2025-01-02T03:04:05.678Z", "20250102T030405.678Z"],
    ["1999-12-31T23:59:59.000Z", "19991231T235959.000Z"],
  ])("formats %s as %s", (iso, id) => {
    expect(runId(new Date(iso))).toBe(id);
    expect(RUN_ID_PATTERN.test(id)).toBe(true);
  });

  test("sorts in time order as text", () => {
    const [a, b, c] = ["2025-01-02T03:04:05.678Z", "2024-12-31T23:59:59.999Z", "2025-01-02T03:04:05.679Z"].map((s) => runId(new Date(s)));
    expect([a, b, c].sort()).toEqual([b, a, c]);
  });
});

describe("unusedRunId", () => {
  test("numbers a later run of the same millisecond", () => {
    const at = new Date("2025-01-02T03:04:05.678Z");
    const taken = new Set<string>();
    const ids = [1, 2, 3].map(() => {
      const id = unusedRunId(at, (i) => taken.has(i));
      taken.add(id);
      return id;
    });
    expect(ids).toEqual(["20250102T030405.678Z", "20250102T030405.678Z-2", "20250102T030405.678Z-3"]);
    expect(ids.every((id) => RUN_ID_PATTERN.test(id))).toBe(true);
  });
});

describe("isRunId", () => {
  test("accepts the current format and the earlier run-record ids, which sort before any later run", () => {
    const earlier = "2026-03-04T05-06-07Z-ab12";
    expect(EARLIER_RUN_ID_PATTERN.test(earlier)).toBe(true);
    expect(isRunId(earlier)).toBe(true);
    expect(isRunId("20260101T000000.000Z-2")).toBe(true);
    expect([runId(new Date("2026-03-04T05:06:07.000Z")), earlier].sort()).toEqual([earlier, "20260304T050607.000Z"]);
  });

  test.each(["report.html", "20260101T000000Z", "2026-03-04T05-06-07Z", "20260101T000000.000Z-x"])("refuses %p", (name) => {
    expect(isRunId(name)).toBe(false);
  });
});
