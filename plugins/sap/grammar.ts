// What SAP GUI says in the rules grammar: no page-level web forms, F-keys, and `Go to VA01` as
// transaction navigation (recorded as `/nVA01`). Data only (docs/sap.md).
import { GRAMMAR_FORMS, type AdapterGrammar } from "../../src/plugins/api.ts";

export const SAP_GRAMMAR: AdapterGrammar = {
  lacks: GRAMMAR_FORMS,
  cssHint: 'use the SAP scripting id, e.g. `"id:wnd[0]/usr/txtVBAK-KUNNR"`',
  keys: { functionKeys: true },
  bareDestination: { prefix: "/n" },
};
