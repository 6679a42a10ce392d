import { expect, test } from "bun:test";
import { plugin } from "./index.ts";
import { VisionSession } from "./session.ts";

test("the vision adapter declares its kind and capabilities and opens a session without touching the screen", async () => {
  expect(plugin.kind).toBe("vision");
  // Spelled out: comparing the declaration with the constant it is built from could not fail.
  expect(plugin.capabilities).toEqual(["pointer", "keyboard", "screenshot"]);
  const session = await plugin.open();
  expect(session).toBeInstanceOf(VisionSession);
  await session.close();
});
