import { expect, test } from "bun:test";
import { UnsupportedPlatformError } from "./platform.ts";

test("one unsupported-platform error for every desktop surface: its kind, what it needs, the platform, what to do", () => {
  const e = new UnsupportedPlatformError({ kind: "swing", needs: "Windows", platform: "linux", hint: "run it on Windows" });
  expect(e).toMatchObject({
    code: "unsupported-platform",
    name: "UnsupportedPlatformError",
    message: "`app: swing` requires Windows; this machine runs linux",
  });
  expect(e.diagnostics[0]!.hint).toBe("run it on Windows");
  const v = new UnsupportedPlatformError({ kind: "vision", verb: "reads windows through", needs: "X11", platform: "darwin", hint: "h" });
  expect(v.message).toBe("`app: vision` reads windows through X11; this machine runs darwin");
});
