// The Win32 desktop and element backend over the bun:ffi bindings (user32, gdi32, oleacc).
import type { DesktopAccess } from "../index.ts";

export async function createWin32Access(): Promise<DesktopAccess> {
  throw new Error("not yet");
}
