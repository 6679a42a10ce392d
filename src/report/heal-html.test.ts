import { describe, expect, test } from "bun:test";
import { healHtml } from "./heal-html.ts";
import type { TraceDiff } from "../trace/diff.ts";

const diff: TraceDiff = {
  changed: true,
  steps_added: 0,
  steps_removed: 0,
  steps_changed: [
    {
      id: "s0002",
      intent: "Send the <order>",
      fields: ["selectors"],
      old: {
        intent: "Send the <order>",
        action: { type: "click", params: {} },
        selectors: [{ tier: "native_id", provenance: "llm", payload: { css: "#send" } }],
      },
      new: {
        intent: "Send the <order>",
        action: { type: "click", params: {} },
        selectors: [{ tier: "native_id", provenance: "llm", payload: { css: "#submit-order" } }],
      },
    },
  ],
};

describe("healHtml", () => {
  test("shows each changed step with the old frames beside the new frames and the changed fields", () => {
    const html = healHtml({
      name: "Shop",
      tracePath: "shop.trace.jsonl",
      proposedPath: "shop.proposed.jsonl",
      diff,
      frames: new Map([["s0002", { old: ["a/f1.png", "a/f2.png"], new: ["b/f1.png"] }]]),
    });
    expect(html).toContain('data-step="s0002"');
    expect(html).toContain("Send the &lt;order&gt;");
    expect(html).toContain('<span class="field">selectors</span>');
    expect(html.indexOf('src="a/f1.png"')).toBeLessThan(html.indexOf('src="b/f1.png"'));
    expect(html).toContain("#submit-order");
    expect(html).not.toMatch(/<link|<script src/);
  });
  test("says when a step has no frames", () => {
    const html = healHtml({ name: "Shop", tracePath: "t", proposedPath: "p", diff, frames: new Map() });
    expect(html).toContain("No frames were recorded for this step.");
  });

  test("flags each step whose effect changed, with the recorded and proposed effect", () => {
    const effects = [
      {
        id: "s0001",
        intent: 'Press the "Place order" button',
        old: { observes: [], requests: ["POST /api/orders"], navigated: "/orders/confirm" },
        new: { observes: [], focus: true as const },
      },
    ];
    const html = healHtml({
      name: "Shop",
      tracePath: "t",
      proposedPath: "p",
      diff: { changed: true, steps_changed: [], steps_added: 0, steps_removed: 0 },
      effects,
      frames: new Map(),
    });
    expect(html).toContain("effect changed");
    expect(html).toContain("Recorded: sent POST /api/orders · navigated to /orders/confirm");
    expect(html).toContain("Proposed: moved focus");
    expect(html).toContain("--accept-effect-changes");
  });
});
