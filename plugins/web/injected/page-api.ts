// Page-side script: resolves selector ladders, answers actionability probes and assertion
// readings, each in one round trip. Built from these modules into one script (bundle.ts) that the
// driver runs in every document; installPageApi sets `globalThis.__flowproof`.
import type { PageApi } from "./protocol.ts";
import { useStructural } from "./resolver.ts";
import { candidates, checkedState, clickLanded, count, fileInput, focusForTyping, hovered, probe, read, typingLost } from "./probes.ts";
import { select } from "./select.ts";
import { check } from "./readings.ts";
import { resolveStructural } from "./scopes.ts";
import { fence } from "./frames.ts";
import { readScene } from "./scene.ts";
import { readDebugPage } from "./debug-page.ts";

/** Installs the page API on this document's global object and returns it (fenced: framed ladders, scope errors). */
export function installPageApi(): PageApi {
  useStructural(resolveStructural);
  const api: PageApi = {
    probe,
    focusForTyping,
    typingLost,
    clickLanded,
    check,
    read,
    count,
    candidates,
    select,
    checkedState,
    hovered,
    fileInput,
    scene: readScene,
    debugPage: readDebugPage,
  };
  const fenced = fence(api);
  Object.defineProperty(globalThis, "__flowproof", { value: fenced, configurable: true, enumerable: false, writable: true });
  return fenced;
}
