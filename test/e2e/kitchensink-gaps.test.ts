// The forms the kitchensink port lacked, against a real page in real Chromium, recorded and
// replayed: storage read whole (`is exactly`) and as a set of keys, cookie counts and places,
// setting a plain cookie, numbers compared, a box scrolled across and by percentage, and a
// modifier pressed alone. Each red path fails with what the page holds.
import { describe, expect, test } from "bun:test";
import { flowYaml } from "../support/tmp-project.ts";
import { expectGreen, webE2e } from "../support/e2e.ts";
import { record } from "../../src/commands/record.ts";

const { server, project } = await webE2e();
const url = () => `${server.url}/kitchensink.html`;

/** Records `steps` and answers the first failed step's detail. */
const firstFailure = async (name: string, steps: readonly string[]): Promise<string | undefined> => {
  const recorded = await record({ spec: project.write(`${name}.flow.yaml`, flowYaml(name, url(), steps)), author: "rules", recordingDetail: "off" });
  expect(recorded.ok).toBe(false);
  return recorded.step_results.find((r) => r.status === "failed")?.detail;
};

describe("storage", () => {
  test("a whole value and the set of keys, recorded and replayed", async () => {
    await expectGreen(
      project.write(
        "storage.flow.yaml",
        flowYaml("storage", url(), [
          "rules: Clear local storage",
          "assert: local storage has no keys",
          'rules: Click "Remember red"',
          'assert: local storage "theme" is exactly red',
          'assert: local storage has only "theme" and "todos"',
          'rules: Click "Forget todos"',
          'assert: local storage has only "theme"',
        ]),
      ),
      { replays: 2 },
    );
  });

  test("a value that is not the whole one, and a key too many, fail with what is stored", async () => {
    expect(await firstFailure("storage-red", ['rules: Click "Remember red"', 'assert: local storage "theme" is exactly re within 1s'])).toContain(
      'it holds "red"',
    );
    expect(await firstFailure("storage-keys-red", ['rules: Click "Remember red"', 'assert: local storage has only "theme" within 1s'])).toContain(
      'it also holds "todos"',
    );
  });
});

describe("cookies", () => {
  test("counted, placed, and one set mid-flow", async () => {
    await expectGreen(
      project.write(
        "cookies.flow.yaml",
        flowYaml("cookies", url(), [
          "rules: Clear cookies",
          "assert: no cookies are set",
          'rules: Set cookie "theme" to dark',
          'rules: Click "Accept cookies"',
          "assert: 2 cookies are set",
          'assert: cookie "theme" exists',
          'assert: cookie "theme" has path /',
          'assert: cookie "consent" has domain 127.0.0.1',
        ]),
      ),
      { replays: 2 },
    );
  });

  test("a wrong count names the cookies that are set", async () => {
    const detail = await firstFailure("cookies-red", ["rules: Clear cookies", 'rules: Set cookie "theme" to dark', "assert: 2 cookies are set within 1s"]);
    expect(detail).toContain("1 cookie is set for");
    expect(detail).toContain(": theme");
  });
});

describe("numbers, scrolling across and by percentage, a modifier alone", () => {
  test("recorded and replayed", async () => {
    await expectGreen(
      project.write(
        "misc.flow.yaml",
        flowYaml("misc", url(), [
          'assert: the "css:#total" shows a number greater than 10',
          'assert: the "css:#total" shows a number at most 12.5',
          'rules: Scroll the "css:#wide" to the right',
          'assert: the "css:#where" shows wide at 800 of 800',
          'rules: Scroll the "css:#wide" to 50% across',
          'assert: the "css:#where" shows wide at 400 of 800',
          'rules: Scroll the "css:#wide" to 120px across',
          'assert: the "css:#where" shows wide at 120 of 800',
          'rules: Scroll the "css:#wide" to the left',
          'assert: the "css:#where" shows wide at 0 of 800',
          'rules: Scroll the "css:#list" to 50%',
          'assert: the "css:#where" shows list at 200 of 400',
          'rules: Click "Keys"',
          "rules: Press Shift",
          'assert: the "css:#keys" shows Shift down with shiftKey',
        ]),
      ),
      { replays: 2 },
    );
  });

  test("a number on the wrong side fails with the text read", async () => {
    expect(await firstFailure("number-red", ['assert: the "css:#total" shows a number greater than 20 within 1s'])).toContain("Total: 12.50 EUR");
  });
});
