// Menus: the menu bar of a window (GetMenu) and the popup menus open on it (top-level `#32768`
// windows of its process; MN_GETHMENU gives their menu). Each item (separators left out) is an
// element (type `menuitem`) named by its text without the shortcut part (`&Select All\tCtrl+A`
// reads `&Select All`), disabled when grayed, with its rectangle (GetMenuItemRect): a click on a
// menu bar item opens its menu, a click on a popup's item picks it. A popup's items belong to the
// window that opened it, which keeps the keyboard while a menu is open.
//
// On Windows this process reads another's menu directly (GetMenuItemInfoW). Wine keeps a menu in
// the process that made it and answers those calls only there, so under Wine they are made inside
// that process (remote-call.ts).
import { ptr } from "bun:ffi";
import type { Rect } from "../../../../src/plugins/api.ts";
import type { DesktopElement } from "../../../desktop/element.ts";
import * as u from "../../ffi/user32.ts";
import { isWine, remoteProcAddress, withRemoteMemory } from "../../ffi/process-memory.ts";
import { callRemote } from "../../ffi/remote-call.ts";
import { fromWide } from "../../ffi/wide.ts";
import { item, rectFrom } from "./reader.ts";

export const POPUP_MENU_CLASS = "#32768";
const MN_GETHMENU = 0x01e1;
const MIIM_STATE = 0x1;
const MIIM_ID = 0x2;
const MIIM_SUBMENU = 0x4;
const MIIM_STRING = 0x40;
const MIIM_FTYPE = 0x100;
const MFT_SEPARATOR = 0x800;
const MFS_GRAYED = 0x3;
const MFS_HILITE = 0x80;
const MII_BYTES = 80;
const TEXT_CHARS = 256;
/** Items read at most per menu. */
const MAX_ITEMS = 64;

/** One menu item as read. */
export interface MenuItemFacts {
  readonly text: string;
  readonly type: number;
  readonly state: number;
  readonly submenu: number;
  /** Screen pixels; undefined when the item has no place on screen (not laid out yet). */
  readonly rect?: Rect;
}

/** Reads a menu's items: `owner` is the window showing it (its menu bar's window, or the popup window). */
export type MenuReader = (pid: number, owner: number, menu: number) => readonly MenuItemFacts[];

/** Pure: a MENUITEMINFOW asking for an item's type, state, id, submenu and text (into `textAt`, `chars` long). */
export function menuItemQuery(textAt: number, chars: number): Uint8Array {
  const out = new Uint8Array(MII_BYTES);
  const v = new DataView(out.buffer);
  v.setUint32(0, MII_BYTES, true);
  v.setUint32(4, MIIM_STATE | MIIM_ID | MIIM_SUBMENU | MIIM_STRING | MIIM_FTYPE, true);
  v.setBigUint64(56, BigInt(textAt), true);
  v.setUint32(64, chars, true);
  return out;
}

/** Pure: type, state and submenu of an answered MENUITEMINFOW. */
export function menuItemFacts(bytes: Uint8Array): { type: number; state: number; submenu: number } {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { type: v.getUint32(8, true), state: v.getUint32(12, true), submenu: Number(v.getBigUint64(24, true)) };
}

/** Pure: how an item's text reads: its shortcut part (after a tab) left out. */
export function menuLabel(text: string): string {
  return text.split("\t")[0]!.trim();
}

/** Pure: the elements of a menu's items shown by window `owner`. */
export function menuElements(owner: number, menu: number, items: readonly MenuItemFacts[]): DesktopElement[] {
  const out: DesktopElement[] = [];
  items.forEach((facts, i) => {
    const name = menuLabel(facts.text);
    if ((facts.type & MFT_SEPARATOR) !== 0 || name === "") return;
    const rect = facts.rect ?? { x: 0, y: 0, width: 0, height: 0 };
    out.push(
      item({
        ref: `${owner}/menu/${menu}/${i}`,
        name,
        controlType: "menuitem",
        rect,
        enabled: (facts.state & MFS_GRAYED) === 0,
        visible: rect.width > 0 && rect.height > 0,
        ...(facts.submenu !== 0 ? { expanded: (facts.state & MFS_HILITE) !== 0 } : {}),
      }),
    );
  });
  return out;
}

/** This process reads the menu itself (Windows: menus answer from any process). */
export const directMenuReader: MenuReader = (_pid, owner, menu) => {
  const count = Math.min(MAX_ITEMS, u.menuItemCount(menu));
  const out: MenuItemFacts[] = [];
  for (let i = 0; i < count; i++) {
    const text = new Uint8Array(TEXT_CHARS * 2);
    const query = menuItemQuery(Number(ptr(text)), TEXT_CHARS);
    if (!u.menuItemInfo(menu, i, query)) continue;
    const rect = new Uint8Array(16);
    const placed = u.menuItemRect(owner, menu, i, rect);
    out.push({ text: fromWide(text), ...menuItemFacts(query), ...(placed ? { rect: rectFrom(rect) } : {}) });
  }
  return out;
};

// The block the calls are made from under Wine: the routine and its batch, then one slot per item.
const BATCH_AT = 0;
const SLOTS_AT = 8_192;
const SLOT_BYTES = MII_BYTES + 16 + TEXT_CHARS * 2;
const BLOCK_BYTES = SLOTS_AT + MAX_ITEMS * SLOT_BYTES;

/** Under Wine: the calls are made inside the menu's process (a 64-bit one; a 32-bit program's menus are not read). */
export function remoteMenuReader(): MenuReader {
  const addresses = new Map<number, { count: number; info: number; rect: number }>();
  const functions = (pid: number) => {
    let known = addresses.get(pid);
    if (!known) {
      known = {
        count: remoteProcAddress(pid, "user32.dll", "GetMenuItemCount"),
        info: remoteProcAddress(pid, "user32.dll", "GetMenuItemInfoW"),
        rect: remoteProcAddress(pid, "user32.dll", "GetMenuItemRect"),
      };
      addresses.set(pid, known);
    }
    return known;
  };
  return (pid, owner, menu) => {
    const fn = functions(pid);
    if (fn.count === 0 || fn.info === 0 || fn.rect === 0) return [];
    const read = withRemoteMemory(
      pid,
      BLOCK_BYTES,
      (memory) => {
        const [n] = callRemote(memory, BATCH_AT, [{ fn: fn.count, args: [menu] }]) ?? [];
        const count = Math.min(MAX_ITEMS, n ?? 0);
        if (count <= 0) return [];
        const slot = (i: number) => SLOTS_AT + i * SLOT_BYTES;
        const calls = [];
        for (let i = 0; i < count; i++) {
          memory.write(slot(i), menuItemQuery(memory.base + slot(i) + MII_BYTES + 16, TEXT_CHARS));
          memory.write(slot(i) + MII_BYTES + 16, new Uint8Array(2));
          calls.push({ fn: fn.info, args: [menu, i, 1, memory.base + slot(i)] }, { fn: fn.rect, args: [owner, menu, i, memory.base + slot(i) + MII_BYTES] });
        }
        const results = callRemote(memory, BATCH_AT, calls);
        if (!results) return [];
        const out: MenuItemFacts[] = [];
        for (let i = 0; i < count; i++) {
          if (results[i * 2] === 0) continue;
          const bytes = memory.read(slot(i), SLOT_BYTES);
          out.push({
            text: fromWide(bytes.subarray(MII_BYTES + 16)),
            ...menuItemFacts(bytes.subarray(0, MII_BYTES)),
            ...(results[i * 2 + 1] !== 0 ? { rect: rectFrom(bytes.subarray(MII_BYTES, MII_BYTES + 16)) } : {}),
          });
        }
        return out;
      },
      { executable: true },
    );
    return typeof read === "string" ? [] : read;
  };
}

/** The reader for this machine. */
export function menuReader(): MenuReader {
  return isWine() ? remoteMenuReader() : directMenuReader;
}

/**
 * The menu items window `hwnd` shows: its menu bar's, then those of the popup menus of its
 * process that are open (in the order `popups` lists them).
 */
export function windowMenuElements(read: MenuReader, hwnd: number, pid: number, popups: readonly number[]): DesktopElement[] {
  const out: DesktopElement[] = [];
  const bar = (u.windowStyle(hwnd) & u.WS_CHILD) === 0 ? u.menuOf(hwnd) : 0;
  if (bar !== 0) out.push(...menuElements(hwnd, bar, read(pid, hwnd, bar)));
  for (const popup of popups) {
    const menu = u.sendMessageTimeout(popup, MN_GETHMENU, 0, 0, 1_000) ?? 0;
    if (menu !== 0) out.push(...menuElements(popup, menu, read(pid, popup, menu)));
  }
  return out;
}
