// The flowproof version, from package.json (embedded by `bun build --compile`).
import pkg from "../package.json" with { type: "json" };

export const FLOWPROOF_VERSION: string = pkg.version;
