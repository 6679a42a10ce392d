// The `api` app kind: a surface with no UI. An api flow runs only structured steps (assert_api,
// assert_sql, …), so this driver launches nothing and answers `unsupported` to every UI action.
import { defineAdapter, type AppDriver, type Attempt, type Reading } from "../../src/plugins/api.ts";

const NO_UI = "an `app: api` flow has no UI to drive";
const unsupported = async (): Promise<Attempt> => ({ ok: false, failed: "unsupported", detail: NO_UI, retryable: false });

/** The driver of an api flow: navigation is a no-op, every UI action is unsupported, nothing is shown. */
export function createApiDriver(): AppDriver {
  return {
    capabilities: new Set(),
    navigate: async () => ({ ok: true, value: undefined }),
    reload: unsupported,
    click: unsupported,
    hover: unsupported,
    fill: unsupported,
    typeFocused: unsupported,
    pressKey: unsupported,
    select: unsupported,
    setChecked: unsupported,
    readText: async () => ({ ok: false, failed: "unsupported", detail: NO_UI, retryable: false }),
    count: async () => 0,
    check: async (): Promise<Reading> => ({ pass: false, actual: NO_UI, retryable: false }),
    environment: async () => ({ os: process.platform, resolution: [0, 0] }),
    close: async () => undefined,
  };
}

export const plugin = defineAdapter({
  kind: "api",
  capabilities: [],
  open: async () => ({ launch: async () => createApiDriver(), close: async () => undefined }),
});
