// Web components: targets and text inside open shadow roots (nested ones included) are found,
// driven and asserted like the light DOM, recorded and then replayed in real Chromium; a closed
// shadow root stays unreachable, and the error says what was looked for.
import { describe, expect, test } from "bun:test";
import { flowYaml } from "../support/tmp-project.ts";
import { expectGreen, webE2e } from "../support/e2e.ts";
import { record } from "../../src/commands/record.ts";

const { server, project } = await webE2e();

describe("open shadow roots in real Chromium", () => {
  test("types, checks, clicks and asserts inside components, nested ones too, and replays", async () => {
    const spec = project.write(
      "components.flow.yaml",
      flowYaml("Web components", `${server.url}/web-components.html`, [
        "assert: page shows Join the list",
        "assert: page shows Slotted light note",
        'rules: Type ada@example.com into the "Email address" field',
        'rules: Check the "Weekly digest" checkbox',
        'rules: Click "Subscribe"',
        "assert: page shows Subscribed ada@example.com (weekly)",
        'assert: the "css:#status" shows Subscribed ada@example.com',
        'assert: the "Email address" field shows ada@example.com',
        "assert: page shows Nested panel",
        'rules: Click "Add one"',
        'rules: Click "Add one"',
        "assert: page shows Clicks 2",
        "assert: page does not show Closed root text",
      ]),
    );
    await expectGreen(spec);
  });

  test("an assertion on text inside a component fails with what the page shows", async () => {
    const spec = project.write(
      "components-red.flow.yaml",
      flowYaml("Web components red", `${server.url}/web-components.html`, [
        'rules: Click "Subscribe"',
        "assert: page shows Subscribed ada@example.com within 1s",
      ]),
    );
    const recorded = await record({ spec, author: "rules", recordingDetail: "off" });
    expect(recorded.ok).toBe(false);
    const failed = recorded.step_results.find((r) => r.status === "failed");
    // What the page shows includes the components' own text.
    expect(failed?.detail).toContain("Join the list Email address");
  });

  test("text inside a closed shadow root cannot be targeted", async () => {
    const spec = project.write(
      "components-closed.flow.yaml",
      flowYaml("Closed root", `${server.url}/web-components.html`, ['rules: Click "Closed root text"']),
    );
    const recorded = await record({ spec, author: "rules", recordingDetail: "off", env: { ...process.env, FLOWPROOF_STEP_TIMEOUT_MS: "1500" } });
    expect(recorded.ok).toBe(false);
    expect(recorded.step_results.at(-1)?.detail).toContain("Closed root text");
  });
});

describe("css: selectors and text across shadow boundaries", () => {
  test("a descendant or child combinator reaches the shadow roots of components inside the list, and replays", async () => {
    const spec = project.write(
      "component-list.flow.yaml",
      flowYaml("Component list", `${server.url}/component-list.html`, [
        'assert: the "css:.tasks li" appears 3 times',
        'assert: the "css:.tasks > task-item" appears 3 times',
        'assert: the "css:task-list li.done label" shows Walk the dog',
        'assert: the "css:.toggle" checkbox in the item containing "Walk the dog" is checked',
        'assert: the "css:.light li, .tasks li" appears 4 times',
        'rules: Check the "css:.toggle" checkbox in the item containing "Read a book"',
        'assert: the "css:.tasks li.done" appears 2 times',
        'rules: Click "Show open"',
        "assert: page does not show Walk the dog",
        'assert: the "css:.tasks" does not show Read a book',
        "assert: page shows Buy milk",
        'assert: the "css:.tasks li" appears 1 times',
        'rules: Click "Clear done"',
        'assert: the "css:.tasks li" appears 1 times',
        'assert: the "css:task-list li.done" appears 0 times',
        'assert: the "css:.tasks li.done" is not visible',
      ]),
    );
    await expectGreen(spec);
  });

  test("a count of zero and is not visible fail while components render what the selector names, and text of a hidden component is not shown", async () => {
    for (const [step, said] of [
      ['assert: the "css:.tasks li" appears 0 times within 1s', "it appears 3 times"],
      ['assert: the "css:.tasks li.done" is not visible within 1s', "visible"],
      ["assert: page shows Walk the dog within 1s", "expected the page to show"],
    ] as const) {
      const first = step.includes("page shows") ? ['rules: Click "Show open"'] : [];
      const spec = project.write("component-list-red.flow.yaml", flowYaml("Component list red", `${server.url}/component-list.html`, [...first, step]));
      const recorded = await record({ spec, author: "rules", recordingDetail: "off" });
      expect(recorded.ok).toBe(false);
      expect(recorded.step_results.at(-1)?.detail).toContain(said);
    }
  });
});
