// Targets: quoted anchors ("Save", "css:…", "id:…"), bare ids (`the name field`), ordinals,
// role nouns, and the scope tails (table cell, item/css/id container, iframe, `and` anchors).
// Pure: no I/O; what a surface lacks (css:, iframes) comes from its vocabulary in ParseContext.

import type { Anchor, Container, ParseContext, ParseResult, RoleNoun, Target } from "./ast.ts";
import { lackedForm, lacks } from "./vocabulary.ts";
import { fail, matchAt, MAX_STEP_NUMBER, ok, refuseLarge, sub, type Failure, type Slice } from "./result.ts";
import { CAPTURE_HINT, readAnchors, readQuoted, toAnchor } from "./quoted-label.ts";
import { BARE, refuseNonRoleNoun, ROLE, ROLE_ALONE, ROLE_ONLY, roleOf } from "./role-noun.ts";

/** A target read from the start of a slice; `end` is the index in the slice where it stopped. */
export interface TargetParse {
  readonly target: Target;
  readonly end: number;
}

const ORDINAL = /(\d+)(?:st|nd|rd|th)\s+/;
const SCOPE = /\s+(?:in|inside)\s+(?:the\s+)?/;

const SCOPE_ORDINAL_HINT =
  'name the row or item by its content instead, e.g. `Click the "Pay" in the item containing "Invoice 4711"`, adding `and "…"` anchors to narrow it';

function refuseNesting(s: Slice, i: number): Failure | undefined {
  const m = matchAt(/\s+(?:in|inside)\s+(?:the\s+)?(?:item|iframe|row|"|\d)/, s.text, i);
  if (m === null) return undefined;
  return fail(
    "refused-step",
    "Scopes cannot be nested: a target has one container, cell or iframe.",
    'keep one scope, e.g. `the "Amount" in the item containing "Invoice 4711"` or `the "css:#total" in the iframe "checkout"`',
    s.offset + i,
    s.text.length - i,
  );
}

/**
 * Reads a target from the start of `s`. Returns `undefined` when the text does not look like a
 * target at all (no quoted label, no bare `the <id> <role>`), so callers can try another reading;
 * a text that is a target but a malformed one is an error.
 */
export function parseTargetPrefix(s: Slice, ctx: ParseContext): ParseResult<TargetParse> | undefined {
  const t = s.text;
  let i = 0;
  const the = matchAt(/the\s+/, t, i);
  if (the !== null) i += the[0].length;
  const ord = matchAt(ORDINAL, t, i);
  const ordAt = i;
  let nth: number | undefined;
  if (ord !== null) {
    nth = Number(ord[1]);
    i += ord[0].length;
  }
  let anchor: Anchor | undefined;
  let role: RoleNoun | undefined;
  let label = "";
  const roleOnly = the === null || t[i] === '"' || matchAt(BARE, t, i) !== null ? null : matchAt(ROLE_ONLY, t, i);
  if (roleOnly !== null) {
    role = roleOf(roleOnly[1]);
    i += roleOnly[0].length;
  } else if (t[i] === '"') {
    const q = readQuoted(s, i);
    if ("ok" in q) return q;
    const a = toAnchor(s, q, ctx);
    if ("ok" in a) return a;
    anchor = a;
    label = q.text;
    i = q.end;
  } else {
    const bare = the === null ? null : matchAt(BARE, t, i);
    if (bare === null || bare[1] === undefined || bare[2] === undefined) {
      const alone = the === null ? null : matchAt(ROLE_ALONE, t, i);
      if (alone === null) return undefined;
      return fail(
        "unknown-step",
        `A role noun alone (\`the ${alone[0]}\`) names an element only inside a scope.`,
        `quote its label, e.g. \`the "Remember me" ${alone[0]}\`, or name the item it is in, e.g. \`the ${alone[0]} in the item containing "Buy milk"\``,
        s.offset + i,
        alone[0].length,
      );
    }
    if (bare[1].includes("${")) {
      return fail(
        "bad-reference",
        "A capture or variable cannot name a target: a capture may only be typed or compared.",
        CAPTURE_HINT,
        s.offset + i,
        bare[1].length,
      );
    }
    const id = bare[1].startsWith("id:") ? bare[1].slice(3) : bare[1];
    anchor = { kind: "id", id, bare: true };
    role = roleOf(bare[2]);
    i += bare[0].length;
  }
  if (nth === 0) return fail("unknown-step", "Ordinals start at 1.", 'write `the 1st "Save"` or leave the ordinal out', s.offset + ordAt, 3);
  const largeOrdinal = ord?.[1] === undefined ? undefined : refuseLarge(ord[1], "an ordinal", MAX_STEP_NUMBER, s.offset + ordAt);
  if (largeOrdinal) return largeOrdinal;

  const column = role === undefined && anchor !== undefined ? matchAt(/\s+column\s+(?:of|in)\s+(?:the\s+)?/, t, i) : null;
  if (column !== null && anchor !== undefined) return parseCell(s, { label, anchor, nth, ordAt, i: i + column[0].length });

  if (role === undefined) {
    const r = matchAt(ROLE, t, i);
    if (r !== null) {
      role = roleOf(r[1]);
      i += r[0].length;
    } else if (anchor !== undefined) {
      const noun = refuseNonRoleNoun(s, i, label);
      if (noun !== undefined) return noun;
    }
  }
  const withRole = role === undefined ? {} : { role };

  const scope = matchAt(SCOPE, t, i);
  if (anchor === undefined) return role === undefined ? undefined : parseRoleInScope(s, { role, nth, ordAt, i }, ctx);
  if (scope === null) {
    const nthPart = nth === undefined ? {} : { nth };
    return ok({ target: { kind: "element", anchor, ...nthPart, ...withRole }, end: i });
  }
  const scopeAt = i;
  i += scope[0].length;
  const scopeOrd = matchAt(/\d+(?:st|nd|rd|th)\b/, t, i);
  if (scopeOrd !== null) {
    return fail(
      "refused-step",
      "An ordinal cannot address a scoped container: position breaks when rows move.",
      SCOPE_ORDINAL_HINT,
      s.offset + i,
      scopeOrd[0].length,
    );
  }

  if (matchAt(/iframe\b/, t, i) !== null) {
    const frameAt = i;
    i += "iframe".length;
    const gap = matchAt(/\s+(?=")/, t, i);
    if (gap === null) {
      return fail(
        "unknown-step",
        "The iframe must be named.",
        'name the frame by its title, name, id or aria-label, e.g. `the "Total" in the iframe "checkout" shows 42.00`',
        s.offset + frameAt,
        i - frameAt,
      );
    }
    if (nth !== undefined) {
      return fail(
        "refused-step",
        "An ordinal cannot address an element inside an iframe.",
        'name the element uniquely instead, e.g. `the "css:#total" in the iframe "checkout" shows 42.00`',
        s.offset + ordAt,
        (ord?.[0] ?? "").trim().length,
      );
    }
    if (lacks(ctx, "iframe"))
      return fail(
        "unsupported-step",
        lackedForm(ctx, 'An iframe scope (`in the iframe "…"`)', "used", "iframe"),
        'address the element directly, e.g. `the "Total" shows 42.00`',
        s.offset + scopeAt,
        t.length - scopeAt,
      );
    const q = readQuoted(s, i + gap[0].length);
    if ("ok" in q) return q;
    const frameAnchor = toAnchor(s, q, ctx);
    if ("ok" in frameAnchor) return frameAnchor;
    const frame =
      frameAnchor.kind === "css"
        ? { kind: "css" as const, selector: frameAnchor.selector }
        : frameAnchor.kind === "id"
          ? { kind: "text" as const, text: frameAnchor.id }
          : { kind: "text" as const, text: frameAnchor.text };
    return refuseNesting(s, q.end) ?? ok({ target: { kind: "framed", frame, inner: anchor, ...withRole }, end: q.end });
  }

  if (nth !== undefined) {
    return fail(
      "refused-step",
      "An ordinal cannot address a scoped target: position breaks when rows move.",
      SCOPE_ORDINAL_HINT,
      s.offset + ordAt,
      (ord?.[0] ?? "").trim().length,
    );
  }
  const box = readContainer(s, i, scopeAt, ctx);
  if ("ok" in box) return box;
  return (
    refuseNesting(s, box.end) ?? ok({ target: { kind: "scoped", container: box.container, anchors: box.anchors, inner: anchor, ...withRole }, end: box.end })
  );
}

interface ContainerParse {
  readonly container: Container;
  readonly anchors: string[];
  readonly end: number;
}

/** `item|"css:…"|"id:…" containing "<a>" [and "<b>"…]` starting at `i` (just after `in the `). */
function readContainer(s: Slice, start: number, scopeAt: number, ctx: ParseContext): ContainerParse | Failure {
  const t = s.text;
  let i = start;
  if (lacks(ctx, "container")) {
    return fail(
      "unsupported-step",
      lackedForm(ctx, 'An item or container scope (`in the item containing "…"`)', "used", "container"),
      'name the control itself, e.g. `Click "id:<AutomationId>"`, or a table cell, e.g. `the "Status" column of the row containing "Grace Hopper"`',
      s.offset + scopeAt,
      t.length - scopeAt,
    );
  }
  let container: Container;
  if (matchAt(/item\b/, t, i) !== null) {
    container = { kind: "item" };
    i += "item".length;
  } else if (t[i] === '"') {
    const q = readQuoted(s, i);
    if ("ok" in q) return q;
    const c = toAnchor(s, q, ctx);
    if ("ok" in c) return c;
    if (c.kind === "text") {
      return fail(
        "unknown-step",
        `"${c.text}" is not a container: a container is \`item\` or a quoted \`css:\`/\`id:\` selector.`,
        'write `in the item containing "…"` or name the container, e.g. `in the "css:[data-test=transaction]" containing "Invoice 4711"`',
        s.offset + q.start,
        q.end - q.start,
      );
    }
    container = c.kind === "css" ? { kind: "css", selector: c.selector } : { kind: "id", id: c.id };
    i = q.end;
  } else {
    const word = /^\S*/.exec(t.slice(i))?.[0] ?? "";
    const isRow = /^row$/i.test(word);
    return fail(
      "unknown-step",
      isRow
        ? 'A row scope needs a column: `the "<column>" column of the row containing "…"`.'
        : `\`${word}\` is not a scope: write \`in the item containing "…"\`, \`in the "css:…" containing "…"\` or \`in the iframe "…"\`.`,
      isRow ? 'write `the "Status" column of the row containing "Grace Hopper"`' : 'write e.g. `Click the "Pay" in the item containing "Invoice 4711"`',
      s.offset + i,
      Math.max(word.length, 1),
    );
  }
  const containing = matchAt(/\s+containing\s+/, t, i);
  if (containing === null) {
    return fail(
      "unknown-step",
      'A container scope needs `containing "<anchor>"`.',
      'write e.g. `in the item containing "Invoice 4711"`',
      s.offset + scopeAt,
      t.length - scopeAt,
    );
  }
  const anchors = readAnchors(s, i + containing[0].length);
  if ("ok" in anchors) return anchors;
  return { container, anchors: anchors.anchors, end: anchors.end };
}

interface RoleStart {
  readonly role: RoleNoun;
  readonly nth: number | undefined;
  readonly ordAt: number;
  /** Index just after the role noun. */
  readonly i: number;
}

/**
 * `the [2nd] checkbox in the item containing "…"`: a role noun alone names the container's one
 * element of that role. An ordinal may pick among several: it counts inside one container the
 * anchors identify, so a moved row takes its own controls with it.
 */
function parseRoleInScope(s: Slice, r: RoleStart, ctx: ParseContext): ParseResult<TargetParse> {
  const t = s.text;
  const scope = matchAt(SCOPE, t, r.i);
  if (scope === null)
    return fail(
      "unknown-step",
      `A role noun alone names an element only inside a scope.`,
      `name the item it is in, e.g. \`the ${r.role} in the item containing "Buy milk"\`, or quote its label`,
      s.offset,
      r.i,
    );
  const at = r.i + scope[0].length;
  if (matchAt(/iframe\b/, t, at) !== null) {
    return fail(
      "unsupported-step",
      "A role noun alone cannot name an element inside an iframe.",
      `quote its label or a selector, e.g. \`the "css:input[type=checkbox]" in the iframe "checkout"\``,
      s.offset + r.i,
      t.length - r.i,
    );
  }
  const scopeOrd = matchAt(/\d+(?:st|nd|rd|th)\b/, t, at);
  if (scopeOrd !== null) {
    return fail(
      "refused-step",
      "An ordinal cannot address a scoped container: position breaks when rows move.",
      SCOPE_ORDINAL_HINT,
      s.offset + at,
      scopeOrd[0].length,
    );
  }
  const box = readContainer(s, at, r.i, ctx);
  if ("ok" in box) return box;
  const nth = r.nth === undefined ? {} : { nth: r.nth };
  return refuseNesting(s, box.end) ?? ok({ target: { kind: "scoped", container: box.container, anchors: box.anchors, role: r.role, ...nth }, end: box.end });
}

interface CellStart {
  readonly label: string;
  readonly anchor: Anchor;
  readonly nth: number | undefined;
  readonly ordAt: number;
  /** Index just after `column of the `. */
  readonly i: number;
}

function parseCell(s: Slice, c: CellStart): ParseResult<TargetParse> {
  const t = s.text;
  if (c.nth !== undefined) {
    return fail(
      "refused-step",
      "An ordinal cannot address a scoped target: position breaks when rows move.",
      'name the row by its content, e.g. `the "Status" column of the row containing "Grace Hopper"`',
      s.offset + c.ordAt,
      String(c.nth).length + 2,
    );
  }
  if (c.anchor.kind !== "text") {
    return fail(
      "unknown-step",
      "A column is named by its header text, not a selector.",
      'write the header text, e.g. `the "Status" column of the row containing "Grace Hopper"`',
      s.offset,
      c.i,
    );
  }
  const rowOrd = matchAt(/\d+(?:st|nd|rd|th)\b/, t, c.i);
  if (rowOrd !== null) {
    return fail(
      "refused-step",
      "An ordinal cannot address a scoped row: position breaks when rows move.",
      'name the row by its content, e.g. `the "Status" column of the row containing "Grace Hopper"`',
      s.offset + c.i,
      rowOrd[0].length,
    );
  }
  const row = matchAt(/row\s+containing\s+/, t, c.i);
  if (row === null) {
    return fail(
      "unknown-step",
      'A column must be followed by `of the row containing "…"`.',
      'write e.g. `the "Status" column of the row containing "Grace Hopper"`',
      s.offset + c.i,
      Math.max(t.length - c.i, 1),
    );
  }
  const anchors = readAnchors(s, c.i + row[0].length);
  if ("ok" in anchors) return anchors;
  let end = anchors.end;
  let role: RoleNoun | undefined;
  const r = matchAt(ROLE, t, end);
  if (r !== null) {
    role = roleOf(r[1]);
    end += r[0].length;
  }
  const withRole = role === undefined ? {} : { role };
  return refuseNesting(s, end) ?? ok({ target: { kind: "cell", column: c.label, rowAnchors: anchors.anchors, ...withRole }, end });
}

/**
 * A target that must fill the whole slice. `undefined` when the slice is not a target form;
 * an error when it is one with text left over.
 */
export function parseWholeTarget(s: Slice, ctx: ParseContext): ParseResult<Target> | undefined {
  const r = parseTargetPrefix(s, ctx);
  if (r === undefined || !r.ok) return r;
  const rest = sub(s, r.value.end);
  if (rest.text.trim() !== "") {
    return fail(
      "unknown-step",
      `Unexpected text after the target: \`${rest.text.trim()}\`.`,
      'end the target after its label, role noun or scope, e.g. `the "Amount" field in the item containing "Invoice 4711"`',
      rest.offset,
      rest.text.length,
    );
  }
  return ok(r.value.target);
}

/** A framed target cannot take pointer actions: they would arrive as untrusted events. */
export function refuseFramedPointer(target: Target, verb: string, s: Slice): Failure | undefined {
  if (target.kind !== "framed") return undefined;
  return fail(
    "refused-step",
    `\`${verb}\` inside an iframe could only dispatch an untrusted event (isTrusted is false), which the app may ignore while the step passes.`,
    'inside a frame, drive values instead, e.g. `Type SAVE20 into the "Coupon" field in the iframe "checkout"`',
    s.offset,
    s.text.length,
  );
}
