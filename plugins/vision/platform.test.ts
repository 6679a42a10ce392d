import { describe, expect, test } from "bun:test";
import { openScreen } from "./platform.ts";
import { UnsupportedPlatformError } from "../desktop/platform.ts";

describe("openScreen", () => {
  test("another platform is an unsupported-platform error naming it, before any library is opened", async () => {
    const error = await openScreen({}, "darwin").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedPlatformError);
    expect(error).toMatchObject({
      code: "unsupported-platform",
      message: "`app: vision` reads windows through X11 (Linux) or Win32 (Windows); this machine runs darwin",
    });
  });

  test.skipIf(process.platform !== "linux")("on Linux without a display it says how to give one", async () => {
    const error = await openScreen({ display: "" }, "linux").catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "app-launch", message: "there is no X display to read: DISPLAY is not set" });
  });
});
