import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { defineAdapter, keyRole } from "../src/plugins/api.ts";
import { renderAdapterTables, travels, typeOf } from "./adapter-docs.ts";

describe("renderAdapterTables", () => {
  test("a section per adapter: what it declares, then a row per key with how it travels", () => {
    const adapter = defineAdapter({
      kind: "term",
      title: "a terminal app",
      capabilities: ["keyboard"],
      keys: {
        schema: Type.Object({
          command: Type.String({ description: "The program.", ...keyRole({ recorded: true, references: "env" }) }),
          login: Type.Optional(Type.Object({ password: Type.String(keyRole({ secret: true })) })),
        }),
      },
      grammar: { lacks: ["css"], keys: { functionKeys: true } },
      open: async () => ({
        launch: async () => {
          throw new Error("unused");
        },
        close: async () => undefined,
      }),
    });
    expect(renderAdapterTables([adapter]).split("\n")).toEqual([
      "### `app: term` — a terminal app",
      "",
      "capabilities: `keyboard`; steps: `ui`; lacks: `css`; presses F1–F12.",
      "",
      "| Key | Type | Required | How it travels | Description |",
      "| --- | --- | --- | --- | --- |",
      "| `command` | string | yes | recorded as written; `${VAR}` | The program. |",
      "| `login` | mapping | — | — |  |",
      "| `login.password` | string | yes | secret: read from the flow at every run, never stored |  |",
    ]);
  });

  test("types and roles in words", () => {
    expect(typeOf({ anyOf: [{ type: "string" }, { type: "integer", minimum: 1, maximum: 9 }] })).toBe("string or integer 1–9");
    expect(travels({ recorded: { as: "geometry" } })).toBe("recorded as written as `geometry`");
    expect(travels({})).toBe("");
  });
});
