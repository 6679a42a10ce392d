// `assert_screenshot`: record mints `<stem>.baselines/<name>.png` (`<name>@<surface>.png` in a
// multi-surface flow, so surfaces never share a baseline); replay compares the surface
// (masks blanked) with it pixel-exactly, allowing `threshold` (a fraction of pixels). A mismatch
// leaves `visual/<name>.actual.png` and `visual/<name>.diff.png` in the run bundle.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defineAssertion, type Verdict } from "../../src/plugins/api.ts";

export interface ScreenshotArgs {
  readonly name: string;
  readonly mask?: readonly string[];
  readonly threshold?: number;
  readonly timeout_seconds?: number;
}

export const schema = {
  type: "object",
  required: ["name"],
  additionalProperties: false,
  properties: {
    name: { type: "string", pattern: "^[^/\\\\@]+$", minLength: 1, description: "plain file name: no /, \\ or @, no extension" },
    mask: { type: "array", items: { type: "string", minLength: 1 } },
    threshold: { type: "number", minimum: 0, maximum: 1 },
    timeout_seconds: { type: "number", minimum: 0 },
  },
} as const;

const fail = (expected: string, actual: string, extra: { hint?: string; retryable?: boolean; evidence?: string[] } = {}): Verdict => ({
  pass: false,
  expected,
  actual,
  ...extra,
});
const pct = (f: number) => `${(f * 100).toFixed(f < 0.001 && f > 0 ? 4 : 2)}%`;

export const plugin = defineAssertion<ScreenshotArgs>({
  key: "assert_screenshot",
  schema,
  needs: ["screenshot"],
  async run(a, ctx) {
    if (!ctx.screenshot)
      return fail("a surface to photograph", "this flow's surface cannot take screenshots", {
        retryable: false,
        hint: "assert_screenshot needs a UI surface (app: web)",
      });
    const shot = await ctx.screenshot(a.mask ?? []);
    if (!shot.ok) return fail("a screenshot with every mask resolved", shot.detail);
    const dir = join(ctx.baseDir, `${ctx.flowStem}.baselines`);
    // `@` is refused in names by the schema, so `<name>@<surface>` never collides with a plain name.
    const file = ctx.surface !== undefined ? `${a.name}@${ctx.surface}` : a.name;
    const baseline = join(dir, `${file}.png`);
    // Read and written inside the run's roots only: a baselines folder or file linked out of it is refused.
    ctx.paths?.file("the screenshot baseline", baseline, ctx.baseDir);
    if (ctx.mode === "record") {
      mkdirSync(dir, { recursive: true });
      writeFileSync(baseline, shot.png);
      ctx.log(`baseline ${ctx.flowStem}.baselines/${file}.png written`);
      return { pass: true };
    }
    if (!existsSync(baseline)) {
      return fail(`baseline ${ctx.flowStem}.baselines/${file}.png`, `no baseline ${ctx.flowStem}.baselines/${file}.png`, {
        retryable: false,
        hint: "record the flow to mint it",
      });
    }
    // The image comparison (pixelmatch) loads when a screenshot is compared, never in a run without one.
    const { compareImages } = await import("./compare.ts");
    const result = compareImages(readFileSync(baseline), shot.png);
    if (result.kind === "size") {
      return fail(
        `${result.baseline.width}x${result.baseline.height}`,
        `screenshot '${a.name}' is ${result.actual.width}x${result.actual.height} but its baseline is ${result.baseline.width}x${result.baseline.height}`,
        { retryable: false, hint: "the viewport (or device scale) changed since the baseline was recorded: restore it, or re-record to mint a new baseline" },
      );
    }
    const threshold = a.threshold ?? 0;
    if (result.fraction <= threshold) return { pass: true };
    const visual = join(ctx.artifactDir, "visual");
    mkdirSync(visual, { recursive: true });
    writeFileSync(join(visual, `${file}.actual.png`), shot.png);
    writeFileSync(join(visual, `${file}.diff.png`), result.diff);
    return fail(
      `at most ${pct(threshold)} of pixels to differ`,
      `screenshot '${file}' differs from its baseline in ${pct(result.fraction)} of pixels (${result.differing} of ${result.total}), threshold ${pct(threshold)}; see visual/${file}.diff.png`,
      { evidence: [`visual/${file}.actual.png`, `visual/${file}.diff.png`] },
    );
  },
});
