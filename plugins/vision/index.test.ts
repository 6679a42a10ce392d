import { expect, test } from "bun:test";
import { CAPABILITIES, plugin } from "./index.ts";
import { VisionSession } from "./session.ts";

test("the vision adapter declares its kind and capabilities and opens a session without touching the screen", async () => {
  expect(plugin.kind).toBe("vision");
  expect(plugin.capabilities).toEqual(CAPABILITIES);
  const session = await plugin.open();
  expect(session).toBeInstanceOf(VisionSession);
  await session.close();
});
