// assert_stock: at least `at_least` units of `sku` are in stock, read from STOCK_API. One attempt
// per call: flowproof re-runs it until it holds or `timeout_seconds` (default 10) pass.
import { defineAssertion } from "flowproof";

export const plugin = defineAssertion<{ sku: string; at_least: number; timeout_seconds?: number }>({
  key: "assert_stock",
  schema: {
    type: "object",
    required: ["sku", "at_least"],
    additionalProperties: false,
    properties: { sku: { type: "string" }, at_least: { type: "integer" }, timeout_seconds: { type: "number", minimum: 0 } },
  },
  check: (a) => (a.at_least < 1 ? [{ path: ["at_least"], message: "`at_least` must be 1 or more", hint: "at_least: 1" }] : []),
  run: async (args, ctx) => {
    const api = ctx.env["STOCK_API"];
    if (!api)
      return { pass: false, expected: "STOCK_API to be set", actual: "STOCK_API is not set", retryable: false, hint: "export STOCK_API=http://127.0.0.1:8080" };
    const res = await fetch(`${api}/stock/${encodeURIComponent(args.sku)}`);
    const have = Number(await res.text());
    return have >= args.at_least ? { pass: true } : { pass: false, expected: `at least ${args.at_least}`, actual: `${have} of ${args.sku} in stock` };
  },
});
