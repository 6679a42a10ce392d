// A flow's app and its adapter's keys: the kind `app:` names (or the mapping form an adapter
// claims), refused on a platform it does not run on; keys another adapter owns refused by name;
// a governing suite's defaults; a multi-surface flow's shared keys. Pure: YAML nodes in, kinds,
// keys and diagnostics out.
import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { isMap, spanOf, type Node, type YAMLMap, type YamlSource } from "./yaml.ts";
import { requiredString } from "./fields.ts";
import { loadAdapterKeys, type KeyPair, type SuiteValues } from "./adapter-keys.ts";
import { ownerNames, writtenKind } from "./owners.ts";
import { appKindHint, inAppKind, ownersOf, requires, rolesOf, titleOf, type SurfaceCatalog, type SurfaceKind } from "./surface-kinds.ts";
import type { SurfaceSpec } from "./surfaces.ts";

/** How messages name the app of a flow with `apps:`. */
export const MULTI_SURFACE = "multi-surface";

/** A governing suite's values for the adapters' keys (`browser:` defaults, `identities:` for `session: <name>`). */
export type FlowSuiteDefaults = SuiteValues;

/**
 * The flow's app: a kind of the catalog named by `app:`, or the adapter that claims `app:` as a
 * mapping of its keys; refused (with the platform) when it cannot run here.
 */
export function resolveApp(
  source: YamlSource,
  root: YAMLMap,
  values: Map<string, Node | null>,
  catalog: SurfaceCatalog,
  platform: string | undefined,
  problems: Diagnostic[],
): { kind?: SurfaceKind; name: string } | undefined {
  const appNode = values.get("app");
  let kind: SurfaceKind | undefined;
  let written: string;
  if (isMap(appNode)) {
    kind = inAppKind(catalog);
    if (!kind) {
      problems.push(diagnostic("bad-value", "`app` must be an app kind", { span: spanOf(source, appNode), hint: appKindHint(catalog) }));
      return undefined;
    }
    written = writtenKind(kind);
  } else {
    const text = requiredString(source, root, values, "app", problems, appKindHint(catalog));
    if (text === undefined) return undefined;
    kind = catalog.kinds.get(text);
    written = text;
    if (!kind) {
      const later = catalog.planned?.includes(text) === true;
      const others = [...catalog.kinds.keys()];
      problems.push(
        diagnostic(
          later ? "unsupported-feature" : "bad-value",
          later ? `app \`${text}\` is not available in this version of flowproof` : `unknown app \`${text}\``,
          {
            span: spanOf(source, appNode),
            hint: `use one of the app kinds there are (${others.join(", ")}), or add an adapter plugin for it (docs/plugins.md)`,
          },
        ),
      );
      return { name: text };
    }
    const inApp = kind.keys?.inApp ?? [];
    if (inApp.some((k) => requires(kind!, k))) {
      problems.push(
        diagnostic("bad-value", `\`app\` must be an app kind or a mapping \`{${inApp.join(", ")}}\`: ${titleOf(kind)} is written as its keys`, {
          span: spanOf(source, appNode),
          hint: `app: {${inApp.map((k) => `${k}: …`).join(", ")}}`,
        }),
      );
      return undefined;
    }
  }
  const platforms = kind.platforms;
  if (platforms && platform !== undefined && !platforms.os.includes(platform)) {
    problems.push(
      diagnostic(
        "unsupported-platform",
        `\`app: ${written}\` requires ${platforms.name}${platforms.why ? `: ${platforms.why}` : ""}; this machine runs ${platform}`,
        { span: spanOf(source, appNode), hint: platforms.hint },
      ),
    );
  }
  return { kind, name: kind.kind };
}

/** A key another adapter owns (or none does), written where the app does not take it. */
export function foreignKey(source: YamlSource, catalog: SurfaceCatalog, pair: KeyPair, app: string, where: string, kind?: SurfaceKind): Diagnostic {
  const own = kind?.keys?.refuse?.[pair.name];
  if (own)
    return diagnostic("unsupported-feature", own.message ?? `\`${pair.name}:\` does not belong to ${where}`, {
      span: spanOf(source, pair.key),
      hint: own.hint,
    });
  const owners = ownersOf(catalog, pair.name, app);
  const owner = owners[0];
  if (!owner)
    return diagnostic("unknown-key", `unknown key \`${pair.name}\` in ${where}`, { span: spanOf(source, pair.key), hint: `remove \`${pair.name}:\`` });
  return diagnostic("unsupported-feature", `\`${pair.name}:\` belongs to ${ownerNames(owners)}; ${where} is \`app: ${app}\``, {
    span: spanOf(source, pair.key),
    hint: `remove \`${pair.name}:\`, or make it \`app: ${writtenKind(owners.find((o) => writtenKind(o) === o.kind) ?? owner)}\``,
  });
}

/** Keys with a `suiteDefault` role the flow does not write, taken from the governing suite. */
export function withSuiteDefaults(kind: SurfaceKind, keys: Record<string, unknown>, suite: FlowSuiteDefaults | undefined): Record<string, unknown> {
  const out = { ...keys };
  for (const [path, role] of rolesOf(kind)) {
    if (!role.suiteDefault || path.includes(".") || path in out) continue;
    const value = suite?.values?.[path];
    if (value !== undefined) out[path] = structuredClone(value);
  }
  return out;
}

/**
 * The top-level adapter keys of a multi-surface flow: only keys a surface's adapter shares
 * (`shared` role), checked against the first such adapter's schema; every other one is refused.
 */
export function loadSharedKeys(
  source: YamlSource,
  written: readonly KeyPair[],
  apps: Readonly<Record<string, SurfaceSpec>> | undefined,
  catalog: SurfaceCatalog,
  problems: Diagnostic[],
  suite: FlowSuiteDefaults | undefined,
): Record<string, unknown> | undefined {
  const kinds = [...new Set(Object.values(apps ?? {}).map((a) => a.app))].flatMap((k) => catalog.kinds.get(k) ?? []);
  const sharer = (key: string) => kinds.find((k) => rolesOf(k).get(key)?.shared === true);
  const out: Record<string, unknown> = {};
  for (const pair of written) {
    const kind = sharer(pair.name);
    if (!kind) {
      if (apps) problems.push(foreignKey(source, catalog, pair, MULTI_SURFACE, "the flow"));
      continue;
    }
    const loaded = loadAdapterKeys(source, kind, [pair], undefined, { where: "flow", name: "the flow", prefix: "", partial: true }, problems, suite);
    if (loaded) Object.assign(out, loaded);
  }
  for (const kind of kinds) {
    for (const [key, role] of rolesOf(kind))
      if (role.shared && role.suiteDefault && !(key in out) && suite?.values?.[key] !== undefined) out[key] = structuredClone(suite.values[key]);
  }
  return out;
}
