// heal.html: the self-contained review page of a heal proposal (inline CSS, frames referenced
// relatively): for each changed step, what changed and the old recording's frames beside the new
// recording's frames. Built from the step diff and frame lists only. Pure.
import type { ChangedStep, EffectChange, TraceDiff } from "../trace/diff.ts";
import { escapeXml as esc } from "./junit.ts";
import { effectWords } from "./html.ts";

/** Frames of one step in one recording, as paths relative to heal.html. */
export interface StepFrames {
  readonly old: readonly string[];
  readonly new: readonly string[];
}

export interface HealPage {
  readonly name: string;
  readonly tracePath: string;
  readonly proposedPath: string;
  readonly diff: TraceDiff;
  /** Steps whose effect differs in the proposal (flagged; `--apply` refuses them unless accepted). */
  readonly effects?: readonly EffectChange[];
  /** Frames per changed step id. */
  readonly frames: ReadonlyMap<string, StepFrames>;
}

const json = (v: unknown) => esc(JSON.stringify(v, null, 2));

function column(kind: "old" | "new", files: readonly string[], label: string): string {
  const figures =
    files.length === 0
      ? `<p class="none">No frames were recorded for this step.</p>`
      : files
          .map(
            (f, i) =>
              `<figure><img src="${esc(f)}" alt="${esc(`${label} frame ${i + 1}`)}"><figcaption>${esc(label)} · ${i === 0 ? "before" : i === files.length - 1 ? "after" : "during"}</figcaption></figure>`,
          )
          .join("");
  return `<div class="col ${kind}"><h3>${esc(label)}</h3>${figures}</div>`;
}

function changedSection(c: ChangedStep, frames: StepFrames | undefined): string {
  return `<section class="changed" data-step="${esc(c.id)}">
<h2>${esc(c.id)} ${esc(c.intent)} <span class="fields">${c.fields.map((f) => `<span class="field">${esc(f)}</span>`).join(" ")}</span></h2>
<div class="pair">${column("old", frames?.old ?? [], "Recorded (current trace)")}${column("new", frames?.new ?? [], "Proposed (live app now)")}</div>
<details open><summary>Step fields</summary><div class="pair"><pre class="old">${json(c.old)}</pre><pre class="new">${json(c.new)}</pre></div></details>
</section>`;
}

function effectSection(e: EffectChange, frames: StepFrames | undefined): string {
  return `<section class="changed effect-changed" data-step="${esc(e.id)}">
<h2>${esc(e.id)} ${esc(e.intent)} <span class="fields"><span class="field effect">effect changed</span></span></h2>
<div class="pair"><p class="old">Recorded: ${esc(effectWords(e.old))}</p><p class="new">Proposed: ${esc(effectWords(e.new))}</p></div>
${frames ? `<div class="pair">${column("old", frames.old, "Recorded (current trace)")}${column("new", frames.new, "Proposed (live app now)")}</div>` : ""}
</section>`;
}

/** Marks every image loaded or broken, so a reviewer (and a test) sees a missing frame at once. */
const SCRIPT = `for (const img of document.querySelectorAll("img")) {
  const mark = () => img.setAttribute("data-loaded", String(img.naturalWidth > 0));
  if (img.complete) mark(); else { img.addEventListener("load", mark); img.addEventListener("error", mark); }
}`;

export function healHtml(page: HealPage): string {
  const d = page.diff;
  const effects = page.effects ?? [];
  const sections = [
    ...effects.map((e) => effectSection(e, d.steps_changed.some((c) => c.id === e.id) ? undefined : page.frames.get(e.id))),
    ...d.steps_changed.map((c) => changedSection(c, page.frames.get(c.id))),
  ].join("\n");
  const effectNote =
    effects.length > 0
      ? ` · <strong class="effect">${effects.length} step${effects.length === 1 ? "" : "s"} now do${effects.length === 1 ? "es" : ""} something else: <code>--apply</code> needs <code>--accept-effect-changes</code></strong>`
      : "";
  const counts = `${d.steps_changed.length} changed · ${d.steps_added} added · ${d.steps_removed} removed${effectNote}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Heal proposal: ${esc(page.name)} — flowproof</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem;color:#1d2330;background:#fafbfc}
h1{font-size:1.4rem;margin:0 0 .25rem} h2{font-size:1.05rem;margin:0 0 .75rem} h3{font-size:.95rem;margin:0 0 .5rem}
.meta{color:#5b6575;margin-bottom:1.25rem} code{font-family:ui-monospace,monospace}
.changed{background:#fff;box-shadow:0 1px 2px #0001;border-radius:4px;padding:1rem;margin-bottom:1.25rem}
.field{font:600 11px ui-monospace,monospace;padding:.1rem .4rem;border-radius:3px;background:#bf8700;color:#fff}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
.col.old h3,pre.old{color:#cf222e} .col.new h3,pre.new{color:#1a7f37}
figure{margin:0 0 .75rem;border:2px solid #d0d7de;border-radius:4px;overflow:hidden;background:#f6f8fa}
.col.old figure{border-color:#cf222e55} .col.new figure{border-color:#1a7f3755}
figure img{display:block;width:100%;height:auto} figcaption{padding:.25rem .5rem;font-size:12px;color:#5b6575}
img[data-loaded=false]{min-height:2rem;background:#fff5f5} pre{white-space:pre-wrap;font-size:12px;background:#f6f8fa;padding:.5rem;border-radius:4px}
.none{color:#5b6575} .field.effect{background:#cf222e} strong.effect{color:#cf222e} p.old{color:#cf222e} p.new{color:#1a7f37}
</style></head>
<body>
<h1>Heal proposal: ${esc(page.name)}</h1>
<div class="meta">${counts} · trace <code>${esc(page.tracePath)}</code> · proposal <code>${esc(page.proposedPath)}</code> · apply with <code>flowproof heal --apply</code></div>
${sections || `<p class="none">No step changed in place.</p>`}
<script>${SCRIPT}</script>
</body></html>
`;
}
