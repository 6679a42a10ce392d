import { describe, expect, test } from "bun:test";
import { resolveControls } from "./controls.ts";

describe("resolveControls", () => {
  test("defaults to full detail, no video and no cursor", () => {
    expect(resolveControls({})).toEqual({ recordingDetail: "full", video: false, highlightCursor: false });
  });

  test("keeps what the caller chose", () => {
    expect(resolveControls({ recordingDetail: "low", video: true, highlightCursor: true })).toEqual({
      recordingDetail: "low",
      video: true,
      highlightCursor: true,
    });
  });
});
