// The built-in adapters bundled with flowproof (user plugins are loaded by the plugin loader).
import type { AdapterPlugin } from "./api.ts";
import { plugin as web } from "../../plugins/web/index.ts";

export const BUILTIN_ADAPTERS: readonly AdapterPlugin[] = [web];
