// How messages name the app kinds that own a flow key, and how a flow writes a kind in `app:`. Pure.
import { joinOr } from "../diagnostics/word-list.ts";
import { titleOf, type SurfaceKind } from "./surface-kinds.ts";

/** How a flow names a kind in `app:`: its kind, or the mapping of its keys. */
export const writtenKind = (kind: SurfaceKind): string => ((kind.keys?.inApp?.length ?? 0) > 0 ? `{${kind.keys!.inApp!.join(", ")}}` : kind.kind);

/** The kinds that own a key, as messages name them: "SAP GUI (`app: sap`)", or "`app: notepad`, `app: calc` or …". */
export function ownerNames(owners: readonly SurfaceKind[]): string {
  if (owners.length === 1) return `${titleOf(owners[0]!)} (\`app: ${writtenKind(owners[0]!)}\`)`;
  return joinOr(owners.map((o) => `\`app: ${writtenKind(o)}\``));
}
