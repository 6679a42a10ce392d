import { describe, expect, test } from "bun:test";
import { parseVisionConfig, VisionConfigError, VisionConfigSchema } from "./config.ts";

describe("parseVisionConfig", () => {
  test("takes the window's title and the geometry to pin", () => {
    expect(parseVisionConfig({ window: { title: "Payments" } })).toEqual({ title: "Payments" });
    expect(parseVisionConfig({ window: { title: "Payments", width: 700, height: 480, x: 0, y: 10 } })).toEqual({
      title: "Payments",
      width: 700,
      height: 480,
      x: 0,
      y: 10,
    });
  });

  test('takes the title alone as `window: "Payments"`', () => {
    expect(parseVisionConfig({ window: "Payments" })).toEqual({ title: "Payments" });
  });

  test.each([
    [{ window_title: "Payments" }, "a vision app names its window with `window.title`, not `window_title`"],
    [{}, "vision app config/window: Expected required property"],
    [{ window: { title: "" } }, "vision app config/window/title: Expected string length greater or equal to 1"],
    [{ window: "" }, "vision app config/window: Expected string length greater or equal to 1"],
    [{ window: { title: "P", colour: "red" } }, "vision app config/window/colour: Unexpected property"],
    [{ window: { title: "P", width: 700 } }, "`window.width` and `window.height` pin the size together: give both or neither"],
    [{ window: { title: "P", x: 3 } }, "`window.x` and `window.y` move a window whose size is pinned: give `width` and `height` too"],
  ])("refuses %j: %s", (raw, message) => {
    let error: unknown;
    try {
      parseVisionConfig(raw);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(VisionConfigError);
    expect((error as VisionConfigError).message).toStartWith(message);
    expect((error as VisionConfigError).code).toBe("bad-value");
  });

  test("the schema is plain JSON Schema with the documented keys", () => {
    const [title, mapping] = VisionConfigSchema.properties.window.anyOf;
    expect(title.type).toBe("string");
    expect(Object.keys(mapping.properties)).toEqual(["title", "width", "height", "x", "y"]);
    expect(JSON.parse(JSON.stringify(VisionConfigSchema)).required).toEqual(["window"]);
  });
});
