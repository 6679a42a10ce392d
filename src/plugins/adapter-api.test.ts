import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { KEY_ROLE, keyRole } from "./adapter-api.ts";

describe("keyRole", () => {
  test("puts the role under the one keyword flowproof reads, beside the schema's own options", () => {
    const schema = Type.String({ minLength: 1, ...keyRole({ recorded: true, references: "env" }) });
    expect(schema[KEY_ROLE as keyof typeof schema]).toEqual({ recorded: true, references: "env" });
    expect(JSON.parse(JSON.stringify(schema))).toEqual({ type: "string", minLength: 1, flowproof: { recorded: true, references: "env" } });
  });
});
