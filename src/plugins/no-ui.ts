// What a surface with no UI answers (an api flow, an agent flow): every action and read is
// `unsupported` with the surface's own reason. Shaped like the driver contract without naming it,
// so api.ts can build `noUiDriver` on it without an import cycle. Pure.

/** The answers of a no-UI surface, with `reason` as the detail of every refusal. */
export function noUiAnswers(reason: string) {
  const unsupported = async () => ({ ok: false as const, failed: "unsupported" as const, detail: reason, retryable: false });
  return {
    capabilities: new Set<never>(),
    navigate: async () => ({ ok: true as const, value: undefined }),
    reload: unsupported,
    click: unsupported,
    hover: unsupported,
    fill: unsupported,
    typeFocused: unsupported,
    pressKey: unsupported,
    select: unsupported,
    setChecked: unsupported,
    readText: unsupported,
    count: async () => 0,
    check: async () => ({ pass: false, actual: reason, retryable: false }),
    environment: async () => ({ os: process.platform, resolution: [0, 0] as [number, number] }),
    close: async () => undefined,
  };
}
