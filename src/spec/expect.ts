// A flow's `expect:` key: a known failure declared with its reason (`expect: {fail: "BUG-123: …"}`),
// so a flow can stay in the suite while the app has the bug, reported as an expected failure and
// failing once the bug is gone (see docs/flow-format.md, "Known failures"). Pure.
import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { isMap, isScalar, keyName, spanOf, type Node, type YamlSource } from "./yaml.ts";

/** A declared known failure: why the flow is expected to fail (an issue id and a sentence, as the team writes them). */
export interface ExpectedFailure {
  readonly fail: string;
}

const FORM = 'expect:\n  fail: "BUG-123: the total ignores the discount"';

/** The flow's `expect:`; undefined when absent or wrong (a problem reported). */
export function loadExpect(source: YamlSource, node: Node | null | undefined, problems: Diagnostic[]): ExpectedFailure | undefined {
  if (node === undefined) return undefined;
  if (isScalar(node) && node.value === "fail") {
    problems.push(
      diagnostic(
        "bad-value",
        "a known failure needs its reason: say why the flow fails (an issue id, a sentence), so the report and whoever removes it later know",
        { span: spanOf(source, node), hint: FORM },
      ),
    );
    return undefined;
  }
  const pairs = isMap(node) ? node.items : undefined;
  const only = pairs?.length === 1 ? pairs[0] : undefined;
  const reason = only && keyName(only) === "fail" && isScalar(only.value) && typeof only.value.value === "string" ? only.value.value.trim() : undefined;
  if (!reason) {
    problems.push(
      diagnostic("bad-value", "`expect:` takes one key, `fail:`, with the reason the flow is expected to fail", {
        span: spanOf(source, (only?.value as Node | null | undefined) ?? node),
        hint: FORM,
      }),
    );
    return undefined;
  }
  return { fail: reason };
}
