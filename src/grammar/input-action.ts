// Value verbs of the action grammar: Type, Replace, Clear, Check/Uncheck, Select, Upload, Scroll,
// Remember, Go to, Go back/forward, Reload, Resize, Wait. Pure: each takes the text after its
// verb and returns an ActionStep.

import type { ActionStep, ParseContext, ParseResult, Target, Template } from "./ast.ts";
import { fail, failAt, matchAt, ok, refuseLarge, splitWithin, sub, trimSlice, type Slice } from "./result.ts";
import { LIMITS } from "../diagnostics/limits.ts";
import { parseTargetPrefix, parseWholeTarget, refuseFramedPointer } from "./target.ts";
import { hasCapture, parseTemplateAt } from "./template.ts";
import { lackedForm, lacks } from "./vocabulary.ts";

const NAME = /^[a-z][a-z0-9_]*$/;

function textTemplate(s: Slice, what: string, example: string): ParseResult<Template> {
  if (s.text === "") return failAt("unknown-step", `\`${what}\` has no text.`, `write \`${example}\``, s);
  return parseTemplateAt(s.text, s.offset);
}

function requireTarget(s: Slice, ctx: ParseContext, verb: string, example: string): ParseResult<Target> {
  const t = parseWholeTarget(s, ctx);
  if (t !== undefined) return t;
  const more = verb === "Clear" ? ", or `Clear local storage`, `Clear session storage` or `Clear cookies`" : "";
  return failAt("unknown-step", `\`${verb}\` needs a quoted label or a bare \`the <id> field\`.`, `write \`${example}\`${more}`, s);
}

/**
 * Finds the right-most `<keyword> <target>` split whose remainder really is a target, so
 * `Type see you into the future` stays a focused Type of the whole text. The keyword is searched
 * in the raw text, quotes included: typed text may hold a quote (`Type 5" screen into the "Size"
 * field`), and the last quoted label is the target. `undefined` when none.
 */
function splitOnTarget(s: Slice, ctx: ParseContext, keyword: RegExp): { before: Slice; target: ParseResult<Target> } | undefined {
  const global = new RegExp(keyword.source, "gi");
  const hits = Array.from(s.text.matchAll(global), (m) => m.index).reverse();
  for (const at of hits) {
    const kw = matchAt(keyword, s.text, at);
    if (kw === null) continue;
    const target = parseWholeTarget(trimSlice(sub(s, at + kw[0].length)), ctx);
    if (target !== undefined) return { before: trimSlice(sub(s, 0, at)), target };
  }
  return undefined;
}

/**
 * Typed text: as written, or, when it is wrapped in double quotes, exactly what is between them,
 * spaces included (`Type " padded " into …`). Only the outer pair is taken off.
 */
function typedText(s: Slice, what: string, example: string): ParseResult<Template> {
  if (s.text.length >= 2 && s.text.startsWith('"') && s.text.endsWith('"')) {
    const inner = sub(s, 1, s.text.length - 1);
    if (inner.text === "")
      return failAt(
        "unknown-step",
        `\`${what}\` has no text between its quotes.`,
        `write the text to type, e.g. \`${example}\`, or \`Clear the "Name" field\` to empty a field`,
        s,
      );
    return parseTemplateAt(inner.text, inner.offset);
  }
  return textTemplate(s, what, example);
}

/**
 * A focused Type whose text names a quoted label after `into` meant a target that is not one
 * (`Type Ada into a "Name" field`): refused, so the target is never silently typed as text.
 */
function refuseLostTarget(rest: Slice): ParseResult<never> | undefined {
  const into = Array.from(rest.text.matchAll(/\sinto\s+/gi)).pop();
  if (into === undefined || !rest.text.slice(into.index).includes('"')) return undefined;
  const after = trimSlice(sub(rest, into.index + into[0].length));
  return failAt(
    "unknown-step",
    `\`${after.text}\` after \`into\` is not a target, so this step would type it as text into whatever has focus.`,
    'name the field with `the "<label>"` and a role noun, e.g. `Type Ada into the "Name" field`; to type the text as it is, wrap it in quotes: `Type "…"`',
    after,
  );
}

export function parseType(rest: Slice, ctx: ParseContext): ParseResult<ActionStep> {
  const split = splitOnTarget(rest, ctx, /(?:^|\s)into(?=\s)/);
  if (split === undefined) {
    const quoted = rest.text.length >= 2 && rest.text.startsWith('"') && rest.text.endsWith('"');
    const lost = quoted ? undefined : refuseLostTarget(rest);
    if (lost !== undefined) return lost;
    const text = typedText(rest, "Type", "Type Berlin");
    return text.ok ? ok({ kind: "type", text: text.value }) : text;
  }
  if (!split.target.ok) return split.target;
  const text = typedText(split.before, "Type … into", 'Type Ada into the "Full name" field');
  return text.ok ? ok({ kind: "type", text: text.value, target: split.target.value }) : text;
}

export function parseReplace(rest: Slice, ctx: ParseContext): ParseResult<ActionStep> {
  const example = 'Replace the "Search" field with Berlin';
  const target = parseTargetPrefix(rest, ctx);
  if (target === undefined) return failAt("unknown-step", "`Replace` needs a quoted label or a bare `the <id> field`.", `write \`${example}\``, rest);
  if (!target.ok) return target;
  const w = matchAt(/\s+with(?:\s+|$)/, rest.text, target.value.end);
  if (w === null) return failAt("unknown-step", "`Replace` needs `with <text>` after the target.", `write \`${example}\``, rest);
  const text = typedText(trimSlice(sub(rest, target.value.end + w[0].length)), "Replace … with", example);
  return text.ok ? ok({ kind: "replace", target: target.value.target, text: text.value }) : text;
}

export function parseClear(rest: Slice, ctx: ParseContext): ParseResult<ActionStep> {
  const store = /^(?:(local|session)\s+storage|(?:all\s+)?(cookies))$/i.exec(rest.text);
  if (store !== null) {
    const what = store[2] !== undefined ? "cookies" : store[1]?.toLowerCase() === "local" ? "local" : "session";
    if (lacks(ctx, "clear_storage"))
      return failAt("unsupported-step", lackedForm(ctx, `\`Clear ${rest.text}\``, "done", "clear_storage"), "sign out or reset through the app instead", rest);
    return ok({ kind: "clear_storage", what });
  }
  const target = requireTarget(rest, ctx, "Clear", 'Clear the "Search" field');
  return target.ok ? ok({ kind: "clear", target: target.value }) : target;
}

/**
 * `Set cookie "theme" to dark`: a cookie for the page's URL, as the app would set it. The value is
 * written in the flow and the trace, so a `${VAR}` (a secret) is refused: secret cookies are seeded
 * with `session: cookies`.
 */
export function parseSetCookie(rest: Slice, ctx: ParseContext): ParseResult<ActionStep> {
  const example = 'Set cookie "theme" to dark';
  const m = /^"([^"]+)"\s+to\s+(.+)$/i.exec(rest.text);
  if (m?.[1] === undefined || m[2] === undefined)
    return failAt("unknown-step", "`Set cookie` names the cookie in quotes, then `to <value>`.", `write \`${example}\``, rest);
  if (lacks(ctx, "cookie")) return failAt("unsupported-step", lackedForm(ctx, "`Set cookie`", "done", "cookie"), "set it through the app instead", rest);
  const value = m[2].trim().replace(/^"(.*)"$/, "$1");
  if (/\$\{/.test(value)) {
    return failAt(
      "refused-step",
      "`Set cookie` takes a plain value: it is written into the trace, and a `${…}` value is a secret or a capture.",
      'seed a secret cookie with `session: cookies:` in the flow\'s header, or set a plain value, e.g. `Set cookie "theme" to dark`',
      rest,
    );
  }
  if (value.includes(";")) return failAt("unknown-step", "A cookie value cannot hold `;`.", `write \`${example}\``, rest);
  return ok({ kind: "set_cookie", name: m[1], value });
}

export function parseCheck(rest: Slice, ctx: ParseContext, checked: boolean): ParseResult<ActionStep> {
  const verb = checked ? "Check" : "Uncheck";
  const target = requireTarget(rest, ctx, verb, `${verb} the "Remember me" checkbox`);
  return target.ok ? ok({ kind: "set_checked", target: target.value, checked }) : target;
}

export function parseSelect(rest: Slice, ctx: ParseContext): ParseResult<ActionStep> {
  const example = 'Select Admin from the "Role" dropdown';
  let found: { options: Slice; target: ParseResult<Target> } | undefined;
  // Keywords are found with a lookahead so `Sign in from …` yields both ` in` and ` from`; the
  // right-most whose remainder is a target wins, searched in the raw text so an option may hold a
  // quote (`Select 5" screen from the "Size" dropdown`): the last quoted label is the target.
  const keywords = Array.from(rest.text.matchAll(/\s(?:from|in)(?=\s)/gi), (m) => m.index).reverse();
  for (const at of keywords) {
    const kw = matchAt(/\s(?:from|in)(?=\s)/, rest.text, at);
    if (kw === null) continue;
    const target = parseWholeTarget(trimSlice(sub(rest, at + kw[0].length)), ctx);
    if (target !== undefined) {
      found = { options: trimSlice(sub(rest, 0, at)), target };
      break;
    }
  }
  if (found === undefined) return failAt("unknown-step", '`Select` needs `from the "<label>" field` or `dropdown`.', `write \`${example}\``, rest);
  if (!found.target.ok) return found.target;
  const target = found.target.value;
  const scoped = target.kind === "cell" || target.kind === "scoped";
  if ((!scoped && target.role === undefined) || (target.role !== undefined && target.role !== "field" && target.role !== "dropdown")) {
    return failAt("unknown-step", "`Select` needs the `field` or `dropdown` noun after the label.", `write \`${example}\``, rest);
  }
  const options = parseOptions(found.options);
  if (!options.ok) return options;
  return ok({ kind: "select", target, options: options.value, multi: options.value.length > 1 });
}

/** One unquoted option, or a quoted list of at least two (`"A", "B" and "C"`). */
function parseOptions(s: Slice): ParseResult<readonly string[]> {
  if (s.text === "") return failAt("unknown-step", "`Select` has no option.", 'write `Select Admin from the "Role" dropdown`', s);
  if (!s.text.startsWith('"')) {
    // A quoted pair means a list was meant; a lone quote is part of the option (`5" screen`).
    if (/"[^"]*"/.test(s.text))
      return failAt("unknown-step", "Every option of a multi-select must be quoted.", 'write `Select "A", "B" and "C" from the "Tags" field`', s);
    return ok([s.text]);
  }
  const options: string[] = [];
  let i = 0;
  for (;;) {
    const q = matchAt(/"([^"]*)"/, s.text, i);
    if (q?.[1] === undefined || q[1] === "") {
      return fail(
        "unknown-step",
        "Every option of a multi-select must be quoted.",
        'write `Select "A", "B" and "C" from the "Tags" field`',
        s.offset + i,
        s.text.length - i,
      );
    }
    options.push(q[1]);
    i += q[0].length;
    if (i >= s.text.length) break;
    const sep = matchAt(/\s*,\s*(?:and\s+)?|\s+and\s+/, s.text, i);
    if (sep === null)
      return fail(
        "unknown-step",
        "Options are separated by `,` or `and`.",
        'write `Select "A", "B" and "C" from the "Tags" field`',
        s.offset + i,
        s.text.length - i,
      );
    i += sep[0].length;
  }
  if (options.length < 2) {
    return failAt(
      "unknown-step",
      "A quoted option list needs at least two options.",
      `for one option write it unquoted, e.g. \`Select ${options[0] ?? "A"} from the "L" field\``,
      s,
    );
  }
  return ok(options);
}

export function parseUpload(rest: Slice, ctx: ParseContext): ParseResult<ActionStep> {
  const example = 'Upload logo.png into the "Avatar" field';
  const split = splitOnTarget(rest, ctx, /\sinto(?=\s)/);
  if (split === undefined) return failAt("unknown-step", "`Upload` needs `into` and a file field.", `write \`${example}\``, rest);
  if (!split.target.ok) return split.target;
  const framed = refuseFramedPointer(split.target.value, "Upload", rest);
  if (framed !== undefined) return framed;
  const path = split.before.text.replace(/^"(.*)"$/, "$1").trim();
  if (path === "") return failAt("unknown-step", "`Upload` has no file path.", `write \`${example}\``, rest);
  return ok({ kind: "upload", target: split.target.value, path });
}

export function parseScroll(rest: Slice, ctx: ParseContext): ParseResult<ActionStep> {
  const page = /^to\s+(?:the\s+)?(top|bottom)$/i.exec(rest.text);
  if (page?.[1] !== undefined) return ok({ kind: "scroll", to: { kind: page[1].toLowerCase() === "top" ? "top" : "bottom" } });
  const example = 'Scroll "css:.list" to the bottom';
  const target = parseTargetPrefix(rest, ctx);
  if (target === undefined)
    return failAt("unknown-step", "`Scroll` needs `to the top|bottom` or a quoted target.", `write \`Scroll to the bottom\` or \`${example}\``, rest);
  if (!target.ok) return target;
  const tail = trimSlice(sub(rest, target.value.end));
  const t = target.value.target;
  if (/^into\s+view$/i.test(tail.text)) return ok({ kind: "scroll", target: t, to: { kind: "into_view" } });
  const edge = /^to\s+(?:the\s+)?(top|bottom|left|right)$/i.exec(tail.text);
  if (edge?.[1] !== undefined) return ok({ kind: "scroll", target: t, to: { kind: edge[1].toLowerCase() as "top" | "bottom" | "left" | "right" } });
  const to = /^to\s+(\S+)(\s+across)?$/i.exec(tail.text);
  const amount = to?.[1];
  if (amount === undefined)
    return failAt(
      "unknown-step",
      "`Scroll` ends with `to the top|bottom|left|right`, `into view`, `to <n>px` or `to <n>%` (`across` for horizontally).",
      `write \`${example}\`, \`Scroll "css:.list" to 147px\` or \`Scroll "css:.list" to 50% across\``,
      tail,
    );
  const axis = to?.[2] !== undefined ? { axis: "x" as const } : {};
  const px = /^(\d+)px$/i.exec(amount);
  if (px?.[1] !== undefined) {
    return (
      refuseLarge(px[1], "a scroll offset in pixels", LIMITS.scrollPx.value, tail.offset + tail.text.indexOf(amount)) ??
      ok({ kind: "scroll", target: t, to: { kind: "px", px: Number(px[1]), ...axis } })
    );
  }
  const pct = /^(\d+(?:\.\d+)?)%$/.exec(amount);
  if (pct?.[1] !== undefined && Number(pct[1]) <= 100) return ok({ kind: "scroll", target: t, to: { kind: "pct", pct: Number(pct[1]), ...axis } });
  if (pct?.[1] !== undefined)
    return fail(
      "unknown-step",
      `\`${amount}\` is past the end: a percentage goes from 0% to 100%.`,
      'write e.g. `Scroll "css:.list" to 100%`',
      tail.offset + tail.text.indexOf(amount),
      amount.length,
    );
  const at = tail.offset + tail.text.length - amount.length;
  if (/^-?\d+(?:\.\d+)?$/.test(amount)) {
    return fail("unknown-step", `A scroll offset needs its unit: \`${amount}\` has none.`, `write \`to ${amount}px\``, at, amount.length);
  }
  return fail(
    "unknown-step",
    `\`${amount}\` is not a whole, non-negative pixel offset.`,
    'write whole pixels, e.g. `Scroll "css:.list" to 147px`',
    at,
    amount.length,
  );
}

export function parseRemember(rest: Slice, ctx: ParseContext): ParseResult<ActionStep> {
  const many = matchAt(/how\s+many\s+/, rest.text, 0);
  const body = many === null ? rest : sub(rest, many[0].length);
  const example = many === null ? 'Remember the "Total" as total' : 'Remember how many "css:.order-row" appear as rows';
  const target = parseTargetPrefix(body, ctx);
  if (target === undefined) return failAt("unknown-step", "`Remember` needs a quoted target.", `write \`${example}\``, body);
  if (!target.ok) return target;
  const tail = many === null ? /^\s+as\s+(\S+)$/i : /^\s+appears?\s+as\s+(\S+)$/i;
  const m = tail.exec(body.text.slice(target.value.end));
  if (m?.[1] === undefined)
    return failAt("unknown-step", `\`Remember\` needs \`${many === null ? "" : "appear "}as <name>\` at the end.`, `write \`${example}\``, body);
  const name = m[1];
  if (!NAME.test(name)) {
    return fail(
      "unknown-step",
      `\`${name}\` is not a capture name (lowercase letters, digits and _, starting with a letter).`,
      `write e.g. \`${example}\``,
      rest.offset + rest.text.length - name.length,
      name.length,
    );
  }
  const t = target.value.target;
  if (many !== null) {
    const counted = refuseCountedTarget(t, body);
    if (counted !== undefined) return counted;
  }
  return ok({ kind: "remember", target: t, name, count: many !== null });
}

/** Counting rides on the ordinal, so a count cannot itself take one, nor a scope (yet). */
export function refuseCountedTarget(t: Target, s: Slice) {
  if (t.kind === "element" && t.nth !== undefined) {
    return failAt(
      "refused-step",
      "An ordinal cannot be counted: counting already walks the ordinals.",
      'drop the ordinal, e.g. `the "Row" appears 3 times`',
      s,
    );
  }
  if (t.kind !== "element") {
    return failAt(
      "unsupported-step",
      "Counting cannot be scoped to a row, item or iframe yet.",
      'count a selector that names the elements, e.g. `the "css:.order-row" appears 3 times`',
      s,
    );
  }
  return undefined;
}

export function parseNavigate(rest: Slice, ctx: ParseContext): ParseResult<ActionStep> {
  if (rest.text === "") return failAt("unknown-step", "`Go to` needs a path or URL.", "write `Go to /settings`", rest);
  const url = parseTemplateAt(rest.text, rest.offset);
  if (!url.ok) return url;
  if (hasCapture(url.value)) {
    return failAt(
      "bad-reference",
      "A capture cannot choose a destination: a capture may only be typed or compared.",
      'go to a fixed path, e.g. `Go to /orders`, and type the capture with `Type ${captured.order} into the "Search" field`',
      rest,
    );
  }
  // A surface that reaches named destinations (SAP's transaction codes): a bare `VA01` means `/nVA01`.
  const bare = ctx.surface.bareDestination;
  if (bare !== undefined && /^[A-Za-z][A-Za-z0-9_]*$/.test(rest.text)) {
    const raw = `${bare.prefix}${rest.text}`;
    return ok({ kind: "navigate", url: { raw, parts: [{ kind: "literal", text: raw }] } });
  }
  return ok({ kind: "navigate", url: url.value });
}

export function parseReload(rest: Slice, ctx: ParseContext): ParseResult<ActionStep> {
  if (!/^(?:(?:the\s+)?page)?$/i.test(rest.text)) {
    return failAt("unknown-step", "Only the page can be reloaded.", "write `Reload the page`", rest);
  }
  if (lacks(ctx, "reload"))
    return failAt(
      "unsupported-step",
      lackedForm(ctx, "`Reload the page`", "done", "reload"),
      'reach the screen again through the app, e.g. `Press the "Refresh" button`',
      rest,
    );
  return ok({ kind: "reload" });
}

export function parseHistory(rest: Slice, ctx: ParseContext): ParseResult<ActionStep> {
  const m = /^(back|forward)$/i.exec(rest.text);
  if (m?.[1] === undefined) return failAt("unknown-step", "`Go back` and `Go forward` take nothing after them.", "write `Go back` or `Go forward`", rest);
  const direction = m[1].toLowerCase() === "back" ? "back" : "forward";
  if (lacks(ctx, "history"))
    return failAt(
      "unsupported-step",
      lackedForm(ctx, `\`Go ${direction}\``, "done", "history"),
      'press the app\'s own control, e.g. `Press the "Back" button`',
      rest,
    );
  return ok({ kind: "history", direction });
}

/** The largest viewport side `Resize the viewport` takes, in CSS pixels. */
const MAX_VIEWPORT_PX = 10_000;

export function parseResize(rest: Slice, ctx: ParseContext): ParseResult<ActionStep> {
  const example = "Resize the viewport to 320x480";
  const m = /^(?:the\s+)?viewport\s+to\s+(\d+)\s*[x×]\s*(\d+)$/i.exec(rest.text);
  if (m?.[1] === undefined || m[2] === undefined) {
    return failAt("unknown-step", "`Resize` sets the viewport to a width and height in whole CSS pixels.", `write \`${example}\``, rest);
  }
  const width = Number(m[1]);
  const height = Number(m[2]);
  if (width < 1 || height < 1 || width > MAX_VIEWPORT_PX || height > MAX_VIEWPORT_PX) {
    return failAt("unknown-step", `A viewport of ${width}x${height} is outside 1 to ${MAX_VIEWPORT_PX} pixels a side.`, `write \`${example}\``, rest);
  }
  if (lacks(ctx, "viewport"))
    return failAt(
      "unsupported-step",
      lackedForm(ctx, "`Resize the viewport`", "done", "viewport"),
      "pin a desktop app's size with `window:` in the flow",
      rest,
    );
  return ok({ kind: "resize", width, height });
}

export function parseWait(rest: Slice, ctx: ParseContext): ParseResult<ActionStep> {
  const bounded = splitWithin(rest);
  if (!bounded.ok) return bounded;
  const { body } = bounded.value;
  const bound = bounded.value.timeoutMs === undefined ? {} : { timeoutMs: bounded.value.timeoutMs };
  const shows = matchAt(/until\s+(?:the\s+)?page\s+shows(?:\s+|$)/, body.text, 0);
  if (shows !== null) {
    const text = textTemplate(trimSlice(sub(body, shows[0].length)), "Wait until page shows", "Wait until page shows Saved within 30s");
    return text.ok ? ok({ kind: "wait_text", text: text.value, ...bound }) : text;
  }
  const download = matchAt(/until\s+the\s+download\s+completes(?:\s+as)?(?:\s+|$)/, body.text, 0);
  if (download !== null) {
    const name = body.text.slice(download[0].length).trim();
    if (!/\sas\s*$/i.test(` ${download[0]}`) || name === "" || !NAME.test(name)) {
      return failAt(
        "unknown-step",
        "`Wait until the download completes` needs `as <name>` with a capture name.",
        "write `Wait until the download completes as pir_export`",
        body,
      );
    }
    if (lacks(ctx, "download"))
      return failAt(
        "unsupported-step",
        lackedForm(ctx, "`Wait until the download completes`", "done", "download"),
        "wait for what the app shows instead, e.g. `Wait until page shows Saved`",
        body,
      );
    return ok({ kind: "wait_download", name, ...bound });
  }
  return failAt(
    "unknown-step",
    "`Wait` waits for something the app shows; there is no fixed sleep.",
    "write `Wait until page shows Saved within 30s` or `Wait until the download completes as report`",
    rest,
  );
}
