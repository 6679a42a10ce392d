import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { BUNDLED_MODEL_PATH } from "./bundled-model.ts";

test("the bundled model is the npm package's gzipped LSTM English model", () => {
  expect(BUNDLED_MODEL_PATH).toEndWith("4.0.0_best_int/eng.traineddata.gz");
  expect(existsSync(BUNDLED_MODEL_PATH)).toBe(true);
  expect([...readFileSync(BUNDLED_MODEL_PATH).subarray(0, 2)]).toEqual([0x1f, 0x8b]);
});
