// Role nouns of targets (`field`, `button`, …) and the nouns after a label that are none, which
// are refused by name with the role noun that covers them. Pure: data and regexes.

import type { RoleNoun } from "./ast.ts";
import { fail, matchAt, type Failure, type Slice } from "./result.ts";

const ROLE_NOUNS = "field|button|link|dropdown|checkbox";
export const ROLE = new RegExp(`\\s+(${ROLE_NOUNS})\\b`);
export const BARE = new RegExp(`([^\\s"]+)\\s+(${ROLE_NOUNS})\\b`);
const ROLE_BY_WORD: Readonly<Record<string, RoleNoun>> = {
  field: "field",
  button: "button",
  link: "link",
  dropdown: "dropdown",
  checkbox: "checkbox",
};
export const roleOf = (word: string | undefined): RoleNoun | undefined => (word === undefined ? undefined : ROLE_BY_WORD[word.toLowerCase()]);
/** A role noun standing alone inside a scope: `the [2nd] checkbox in the item containing "…"`. */
export const ROLE_ONLY = new RegExp(`(${ROLE_NOUNS})(?=\\s+(?:in|inside)\\s)`);
export const ROLE_ALONE = new RegExp(`(${ROLE_NOUNS})\\b`);
const ROLE_LIST = "field, button, link, dropdown, checkbox";

/**
 * Nouns people put after a label that are no role noun of the grammar, with the role noun that
 * covers them when there is one (a tab or menu item is a button to the grammar, a radio or switch
 * a checkbox). The rest name no role at all (a filter is a link or a button, depending on the
 * app): the label alone is enough. Data, so the refusal says the same for every app.
 */
const NOT_ROLE_NOUNS: Readonly<Record<string, RoleNoun | undefined>> = {
  tab: "button",
  menuitem: "button",
  toggle: "checkbox",
  radio: "checkbox",
  switch: "checkbox",
  input: "field",
  textbox: "field",
  textfield: "field",
  textarea: "field",
  box: "field",
  searchbox: "field",
  select: "dropdown",
  combobox: "dropdown",
  listbox: "dropdown",
  filter: undefined,
  icon: undefined,
  menu: undefined,
  option: undefined,
  label: undefined,
  heading: undefined,
  title: undefined,
  text: undefined,
  image: undefined,
  tile: undefined,
  card: undefined,
  chip: undefined,
  badge: undefined,
  pill: undefined,
  panel: undefined,
  section: undefined,
  element: undefined,
  control: undefined,
};
const NOT_ROLE = new RegExp(`\\s+(${Object.keys(NOT_ROLE_NOUNS).join("|")})(?=\\s|$|,)`);

/** `the "Completed" filter`: refused by name, saying which role nouns exist and to drop the noun. */
export function refuseNonRoleNoun(s: Slice, i: number, label: string): Failure | undefined {
  const m = matchAt(NOT_ROLE, s.text, i);
  const word = m?.[1];
  if (m === null || word === undefined) return undefined;
  const covering = NOT_ROLE_NOUNS[word.toLowerCase()];
  const quoted = JSON.stringify(label);
  const hint =
    covering === undefined
      ? `drop the noun, the quoted label names the element: \`the ${quoted}\`; or use a role noun (${ROLE_LIST}) when the element is one, e.g. \`the ${quoted} link\``
      : `write \`the ${quoted} ${covering}\` (a ${word.toLowerCase()} is a ${covering} to the grammar), or drop the noun: \`the ${quoted}\``;
  return fail(
    "refused-step",
    `\`${word}\` is not a role noun; after a label the grammar knows ${ROLE_LIST}.`,
    hint,
    s.offset + i + m[0].length - word.length,
    word.length,
  );
}
