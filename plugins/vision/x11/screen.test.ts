// The X11 screen runs against Xvfb, x11vnc and TigerVNC's viewer in test/e2e/vision.test.ts
// (windows by title, capture, focus and grab verification, XTest input). Here: how it fails to open.
import { describe, expect, test } from "bun:test";
import { openX11Screen } from "./screen.ts";

describe("openX11Screen", () => {
  test("without DISPLAY it says to set one", () => {
    expect(() => openX11Screen(undefined)).toThrow("there is no X display to read: DISPLAY is not set");
  });

  test.skipIf(process.platform !== "linux")("an X display nobody serves is named in the error", () => {
    expect(() => openX11Screen(":9999")).toThrow(/^cannot connect to the X display :9999$|^libX11 or libXtst could not be opened/);
  });
});
