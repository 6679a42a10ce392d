import { describe, expect, test } from "bun:test";
import {
  appKindHint,
  article,
  catalogOf,
  grammarContext,
  inAppKind,
  keyNamesOf,
  ownersOf,
  requires,
  rolesOf,
  titleOf,
  type SurfaceKind,
} from "./surface-kinds.ts";

const sugar = (phrase: string) => ({
  phrase,
  value: "text" as const,
  reads: { id: "x" },
  compare: "contains" as const,
  example: `${phrase} y`,
  elsewhere: { what: "its sugar", hint: "write `page shows y`" },
});
const PAGE: SurfaceKind = { kind: "page", capabilities: ["pointer"] };
const DESK: SurfaceKind = {
  kind: "desk",
  title: "the desk app",
  capabilities: [],
  keys: {
    schema: {
      type: "object",
      required: ["command"],
      properties: {
        command: { type: "string", flowproof: { recorded: true } },
        login: { type: "object", properties: { password: { type: "string", flowproof: { secret: true } } } },
      },
    } as never,
    inApp: ["command"],
  },
  grammar: { lacks: ["css"], sugar: [sugar("screen shows")] },
};
const OTHER: SurfaceKind = { kind: "other", capabilities: [], grammar: { sugar: [sugar("screen shows"), sugar("log contains")] } };
const catalog = catalogOf([PAGE, DESK, OTHER], ["later"]);

describe("the surface catalog", () => {
  test("a kind without keys takes an optional url only", () => {
    expect(keyNamesOf(PAGE)).toEqual(["url"]);
    expect(requires(PAGE, "url")).toBe(false);
    expect(requires(DESK, "command")).toBe(true);
  });

  test("roles by dotted path, nested keys included", () => {
    expect([...rolesOf(DESK)]).toEqual([
      ["command", { recorded: true }],
      ["login.password", { secret: true }],
    ]);
  });

  test("a key written in one of several forms holds the roles of every form, and each mapping form's keys", () => {
    const window = {
      anyOf: [
        { type: "string", flowproof: { references: "captured" } },
        { type: "object", properties: { title: { type: "string", flowproof: { references: "captured" } } } },
      ],
      flowproof: { recorded: true },
    };
    const SEEN: SurfaceKind = { kind: "seen", capabilities: [], keys: { schema: { type: "object", properties: { window } } as never } };
    expect([...rolesOf(SEEN)]).toEqual([
      ["window", { recorded: true, references: "captured" }],
      ["window.title", { references: "captured" }],
    ]);
  });

  test("the kind that claims `app:` as a mapping, the owners of a key, and how messages name a kind", () => {
    expect(inAppKind(catalog)?.kind).toBe("desk");
    // A key written inside `app:` is no top-level key of its owner.
    expect(ownersOf(catalog, "command").map((k) => k.kind)).toEqual([]);
    expect(ownersOf(catalog, "login").map((k) => k.kind)).toEqual(["desk"]);
    expect(ownersOf(catalog, "url", "page").map((k) => k.kind)).toEqual(["other"]);
    expect([titleOf(DESK), titleOf(PAGE)]).toEqual(["the desk app", "`app: page`"]);
    expect([article("`app: api`"), article("web")]).toEqual(["an", "a"]);
  });

  test("a grammar context carries the kind's vocabulary under its title, and the sugar only other kinds own", () => {
    const ctx = grammarContext(catalog, DESK, "desk");
    expect(ctx.surface).toEqual({ name: "the desk app", lacks: ["css"], sugar: [sugar("screen shows")] });
    expect(grammarContext(catalog, PAGE, "page").surface.name).toBe("an `app: page` surface");
    expect(ctx.foreignSugar?.map((s) => s.phrase)).toEqual(["log contains"]);
    expect(grammarContext(catalog, undefined, "nope").surface).toEqual({ name: "nope" });
  });
});

describe("appKindHint", () => {
  test("names what to write for `app:` with every kind of the catalog, a project's among them", () => {
    expect(appKindHint(catalogOf([PAGE, DESK]))).toBe("app: <kind>, one of page, desk");
  });
});
