import { expect, test } from "bun:test";
import { ScreenUnavailableError } from "./screen.ts";

test("screen errors carry stable codes and say what to do", () => {
  const e = new ScreenUnavailableError("the window is gone", "keep it open");
  expect(e).toMatchObject({ code: "app-launch", message: "the window is gone" });
  expect(e.diagnostics[0]!.hint).toBe("keep it open");
});
