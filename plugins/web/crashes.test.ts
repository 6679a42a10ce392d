import { describe, expect, test } from "bun:test";
import { describeCrash } from "./crashes.ts";

describe("describeCrash", () => {
  test.each([
    ["killed", 9, 'its renderer process was killed (status "killed", code 9)'],
    ["oom", 0, 'its renderer process ran out of memory (status "oom")'],
    ["crashed", 139, 'its renderer process crashed (status "crashed", code 139)'],
    ["weird", 0, 'its renderer process ended (status "weird")'],
  ])("status %p, code %p", (status, code, words) => {
    expect(describeCrash(status, code)).toBe(words);
  });
});
