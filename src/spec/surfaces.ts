// Multi-surface flows: the `apps:` map of named surfaces and the `in: <surface>` blocks that run
// steps on one of them. A surface is any app kind of the catalog: its adapter's keys (`url`,
// `browser:`, `connection:`, `window:`, …) are checked as the adapter declares them. Pure: YAML
// nodes in, typed surfaces and diagnostics out.
import { parseTemplate } from "../grammar/index.ts";
import type { Template } from "../grammar/ast.ts";
import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { isMap, isScalar, isSeq, keyName, spanOf, type Node, type YAMLMap, type YamlSource } from "./yaml.ts";
import type { BlockLoader, FlowNode, Scope } from "./block.ts";
import { loadAgentBlock } from "./agent-surface.ts";
import { loadAdapterKeys, type KeyPair } from "./adapter-keys.ts";
import { ownerNames } from "./owners.ts";
import { nearest } from "./suggest.ts";
import { appKindHint, article, inAppKind, topKeysOf, ownersOf, requires, rolesOf, titleOf, type SurfaceCatalog, type SurfaceKind } from "./surface-kinds.ts";

/** One named surface of a multi-surface flow. */
export interface SurfaceSpec {
  /** The app kind (an adapter's `kind`). */
  readonly app: string;
  /** Start URL template (`${VAR}` resolved at the surface's first activation), for a kind that takes `url`. */
  readonly url?: Template;
  /** The adapter's keys as written (plain JSON, `${…}` raw), e.g. `browser:`, `connection:`, `window:`. */
  readonly keys: Readonly<Record<string, unknown>>;
}

export const SURFACE_NAME = /^[a-z][a-z0-9_-]*$/;
const EXAMPLE = "apps:\n  shop:  { app: web, url: http://127.0.0.1:3000/ }\n  admin: { app: web, url: http://127.0.0.1:4000/ }\n  backend: { app: api }";

/** `platform`: the OS the flow would run on; a surface whose adapter runs elsewhere is refused (absent: not checked). */
export function loadApps(
  source: YamlSource,
  node: Node | null,
  problems: Diagnostic[],
  catalog: SurfaceCatalog,
  platform?: string,
): Record<string, SurfaceSpec> | undefined {
  if (!isMap(node) || node.items.length === 0) {
    problems.push(diagnostic("bad-value", "`apps` must map surface names to `{ app, url }`", { span: spanOf(source, node), hint: EXAMPLE }));
    return undefined;
  }
  const out: Record<string, SurfaceSpec> = {};
  let ok = true;
  for (const pair of node.items) {
    const name = keyName(pair);
    const value = pair.value as Node | null;
    if (!SURFACE_NAME.test(name)) {
      problems.push(
        diagnostic("bad-value", `surface name ${JSON.stringify(name)} must match [a-z][a-z0-9_-]*`, { span: spanOf(source, pair.key as Node), hint: "shop:" }),
      );
      ok = false;
      continue;
    }
    const surface = loadSurface(source, name, value, problems, catalog, platform);
    if (surface) out[name] = surface;
    else ok = false;
  }
  return ok ? out : undefined;
}

/** The kind an `apps:` entry names with `app:` (a kind, or the mapping form an adapter claims). */
function surfaceKind(
  source: YamlSource,
  name: string,
  appPair: KeyPair | undefined,
  entry: YAMLMap,
  catalog: SurfaceCatalog,
  platform: string | undefined,
  problems: Diagnostic[],
): SurfaceKind | undefined {
  if (!appPair) {
    problems.push(diagnostic("missing-key", `surface \`${name}\` needs \`app\``, { span: spanOf(source, entry), hint: appKindHint(catalog) }));
    return undefined;
  }
  const value = appPair.value;
  const kinds = [...catalog.kinds.values()].filter((k) => k.steps !== undefined || (k.keys?.inApp?.length ?? 0) === 0).map((k) => `\`${k.kind}\``);
  let kind: SurfaceKind | undefined;
  let written: string;
  if (isMap(value)) {
    kind = inAppKind(catalog);
    written = `{${kind?.keys?.inApp?.join(", ") ?? ""}}`;
    if (!kind) {
      problems.push(diagnostic("bad-value", `\`apps.${name}.app\` must be an app kind`, { span: spanOf(source, value), hint: appKindHint(catalog) }));
      return undefined;
    }
  } else if (!isScalar(value) || typeof value.value !== "string") {
    problems.push(
      diagnostic("bad-value", `\`apps.${name}.app\` must be an app kind`, { span: spanOf(source, value ?? appPair.key), hint: appKindHint(catalog) }),
    );
    return undefined;
  } else {
    written = value.value;
    kind = catalog.kinds.get(value.value);
    if (!kind) {
      const later = catalog.planned?.includes(value.value) === true;
      problems.push(
        diagnostic(
          later ? "unsupported-feature" : "bad-value",
          later
            ? `surface \`${name}\`: app \`${value.value}\` is not available as a surface in this version of flowproof`
            : `surface \`${name}\`: unknown app \`${value.value}\``,
          { span: spanOf(source, value), hint: `surfaces of kind ${kinds.join(", ")} run in this version` },
        ),
      );
      return undefined;
    }
    const inApp = kind.keys?.inApp ?? [];
    if (inApp.some((k) => requires(kind!, k))) {
      problems.push(
        diagnostic("bad-value", `surface \`${name}\`: ${titleOf(kind)} is written as its keys, \`app: {${inApp.join(", ")}}\``, {
          span: spanOf(source, value),
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
        `\`apps.${name}.app: ${written}\` requires ${platforms.name}${platforms.why ? `: ${platforms.why}` : ""}; this machine runs ${platform}`,
        { span: spanOf(source, value), hint: platforms.hint },
      ),
    );
    return undefined;
  }
  return kind;
}

function loadSurface(
  source: YamlSource,
  name: string,
  node: Node | null,
  problems: Diagnostic[],
  catalog: SurfaceCatalog,
  platform: string | undefined,
): SurfaceSpec | undefined {
  if (!isMap(node)) {
    problems.push(diagnostic("bad-value", `surface \`${name}\` must be a mapping \`{ app, url }\``, { span: spanOf(source, node), hint: EXAMPLE }));
    return undefined;
  }
  const pairs: KeyPair[] = node.items.map((p) => ({ name: keyName(p), key: p.key as Node, value: p.value as Node | null }));
  const before = problems.length;
  const kind = surfaceKind(
    source,
    name,
    pairs.find((p) => p.name === "app"),
    node,
    catalog,
    platform,
    problems,
  );
  if (!kind) return undefined;
  const where = `surface \`${name}\``;
  const own = topKeysOf(kind);
  const roles = rolesOf(kind);
  const adapterPairs: KeyPair[] = [];
  let url: Template | undefined;
  const takesUrl = own.includes("url") && roles.get("url")?.surface !== false;
  for (const pair of pairs) {
    if (pair.name === "app") continue;
    if (pair.name === "url" && takesUrl) {
      url = surfaceUrl(source, name, pair, problems);
      continue;
    }
    if (pair.name !== "url" && own.includes(pair.name) && roles.get(pair.name)?.surface === false) {
      problems.push(
        diagnostic(
          "unsupported-feature",
          `\`apps.${name}.${pair.name}\` is part of the flow format but this version of flowproof does not run it on a surface yet`,
          { span: spanOf(source, pair.key), hint: `remove \`${pair.name}:\` from the surface for now` },
        ),
      );
      continue;
    }
    if (own.includes(pair.name) && pair.name !== "url") {
      adapterPairs.push(pair);
      continue;
    }
    const refused = kind.keys?.refuse?.[pair.name];
    const owners = ownersOf(catalog, pair.name, kind.kind);
    const owner = owners[0];
    if (pair.name === "url") {
      problems.push(
        diagnostic("bad-value", `${kind.kind} surface \`${name}\` has no start page, so it takes no \`url\``, {
          span: spanOf(source, pair.key),
          hint: refused?.hint ?? "remove `url:`",
        }),
      );
    } else if (refused || owner) {
      problems.push(
        diagnostic(
          "unsupported-feature",
          refused?.message ?? `\`apps.${name}.${pair.name}\` belongs to ${ownerNames(owners)}; ${where} is \`app: ${kind.kind}\``,
          {
            span: spanOf(source, pair.key),
            hint: refused?.hint ?? `remove \`${pair.name}:\` from the surface`,
          },
        ),
      );
    } else {
      const guess = nearest(pair.name, ["app", ...own]);
      problems.push(
        diagnostic("unknown-key", `unknown key \`${pair.name}\` in ${where}`, {
          span: spanOf(source, pair.key),
          hint: `${guess ? `did you mean \`${guess}\`? ` : ""}${article(`app: ${kind.kind}`)} \`app: ${kind.kind}\` surface takes: ${["app", ...own].join(", ")}`,
        }),
      );
    }
  }
  if (problems.length === before && url === undefined && requires(kind, "url")) {
    problems.push(
      diagnostic("missing-key", `${kind.kind} surface \`${name}\` needs a \`url\``, { span: spanOf(source, node), hint: "url: http://127.0.0.1:3000/" }),
    );
  }
  const appValue = pairs.find((p) => p.name === "app")?.value;
  const keys = loadAdapterKeys(
    source,
    kind,
    adapterPairs,
    isMap(appValue) ? appValue : undefined,
    { where: "surface", name: where, prefix: `apps.${name}.`, anchor: node },
    problems,
  );
  if (problems.length > before || !keys) return undefined;
  return { app: kind.kind, ...(url ? { url } : {}), keys };
}

/** A surface's start URL: a `${VAR}` template (it opens at the surface's first block, before any of its steps). */
function surfaceUrl(source: YamlSource, name: string, pair: KeyPair, problems: Diagnostic[]): Template | undefined {
  const value = pair.value;
  if (!isScalar(value) || typeof value.value !== "string" || value.value.trim() === "") {
    problems.push(
      diagnostic("bad-value", `\`apps.${name}.url\` must be a URL string`, { span: spanOf(source, value ?? pair.key), hint: "url: http://127.0.0.1:3000/" }),
    );
    return undefined;
  }
  const parsed = parseTemplate(value.value);
  if (!parsed.ok) {
    problems.push(diagnostic(parsed.error.code, parsed.error.message, { span: spanOf(source, value), hint: parsed.error.hint }));
    return undefined;
  }
  if (parsed.value.parts.some((p) => p.kind === "captured")) {
    problems.push(
      diagnostic("bad-reference", "a surface's url cannot use ${captured.…}: it opens at its first block", {
        span: spanOf(source, value),
        hint: "use a `${VAR}` reference, or `Go to ${captured.x}` as a step inside the block",
      }),
    );
    return undefined;
  }
  return parsed.value;
}

/**
 * `- in: <surface>` + `steps: [...]`: the steps run on that surface. Blocks sit at the top level
 * of `steps:` only and hold plain, `rules:`, `assert:` and structured steps and `repeat:`,
 * `when:` and `foreach:` blocks; a structured-only surface's blocks hold structured steps only
 * (refused by the step loader, which knows the surface).
 */
export function loadIn(loader: BlockLoader, item: YAMLMap, scope: Scope, surfaces: Readonly<Record<string, SurfaceSpec>> | undefined): FlowNode[] {
  const { source, problems } = loader;
  const inPair = item.items.find((p) => keyName(p) === "in")!;
  const inNode = inPair.value as Node | null;
  const at = spanOf(source, inPair.key as Node);
  if (!surfaces) {
    problems.push(diagnostic("bad-value", "`in:` blocks need the flow's surfaces declared under `apps:`", { span: at, hint: EXAMPLE }));
    return [];
  }
  if (!scope.top || scope.surface !== undefined) {
    problems.push(
      diagnostic("bad-value", "`in:` blocks sit at the top level of `steps:`, one after another; they do not nest", {
        span: at,
        hint: "end the block, then start the next `- in: <surface>` block",
      }),
    );
    return [];
  }
  const extra = item.items.map(keyName).filter((k) => k !== "in" && k !== "steps");
  if (extra.length > 0 || item.items.length !== 2) {
    problems.push(
      diagnostic("bad-value", "an `in:` block is a two-key mapping: `in: <surface>` and `steps:`", {
        span: spanOf(source, item),
        hint: '- in: shop\n  steps:\n    - rules: Click "Buy"',
      }),
    );
    return [];
  }
  const name = isScalar(inNode) && typeof inNode.value === "string" ? inNode.value : undefined;
  if (name === undefined || !(name in surfaces)) {
    problems.push(
      diagnostic("bad-value", name === undefined ? "`in:` names a surface of `apps:`" : `no surface \`${name}\` in \`apps:\``, {
        span: spanOf(source, inNode ?? (inPair.key as Node)),
        hint: `declared surfaces: ${Object.keys(surfaces).join(", ")}`,
      }),
    );
    return [];
  }
  const stepsNode = item.items.find((p) => keyName(p) === "steps")!.value as Node | null;
  if (!isSeq(stepsNode) || stepsNode.items.length === 0) {
    problems.push(
      diagnostic("bad-value", "an `in:` block's `steps` must be a non-empty list", { span: spanOf(source, stepsNode), hint: 'steps:\n  - rules: Click "Buy"' }),
    );
    return [];
  }
  const own = surfaces[name]!;
  const kind = loader.kindOf(name);
  if (kind?.steps === "agent_steps") return loadAgentBlock(loader, loader.steps ?? [], stepsNode.items as Node[], name, kind, own.keys);
  // Steps, `repeat:`/`when:` (their conditions read on this surface) and `foreach:` all run here.
  const nodes = loader.loadList(stepsNode.items as Node[], { top: false, surface: name, blockTop: true });
  const block = kind?.steps === "structured" ? nodes.find((n) => n.kind !== "step") : undefined;
  if (block) {
    problems.push(
      diagnostic("unsupported-step", `surface \`${name}\` is \`app: ${own.app}\`: it has no screen, and a \`${block.kind}:\` condition reads the screen`, {
        span: block.span,
        hint: "check the backend with structured steps (`assert_api:`, …) here, or move the block into the block of a surface with a screen",
      }),
    );
    return [];
  }
  return nodes;
}
