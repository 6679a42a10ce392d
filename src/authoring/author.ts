// The authoring loop for one plain step: read a stable scene, ask the model, ground its whole
// action sequence, give it one correction round (and one retry for invalid JSON), and stop with a
// structured clarification when the step is too ambiguous. Secrets are redacted from every prompt.
import type { SceneInventory } from "../plugins/api.ts";
import { FlowproofError } from "../diagnostics/diagnostic.ts";
import type { FlowStep } from "../spec/flow.ts";
import type { ParseContext } from "../grammar/ast.ts";
import type { ExecutionContext } from "../engine/context.ts";
import { redact } from "../engine/context.ts";
import type { AuthoredBatch, StepAuthor } from "../engine/blocks.ts";
import type { ChatMessage, ModelClient } from "./provider.ts";
import { INVALID_JSON_PROMPT, SYSTEM_PROMPT, correctionPrompt, parseReply, rangePrompt, userPrompt } from "./protocol.ts";
import { groundActions, rangeChallenge, type Grounded } from "./ground.ts";
import { clarification, type Clarification } from "./clarification.ts";
import { ambiguousPronoun } from "./captures.ts";

/** How often the scene is read at most while waiting for two readings to agree. */
const SCENE_READS = 12;
const SCENE_INTERVAL_MS = 150;

export interface AuthoringSession {
  /** The hook the record loop calls for each plain step. */
  readonly author: StepAuthor;
  /** Set when a step stopped for a clarification. */
  readonly clarification: () => Clarification | undefined;
  /** Requests sent so far. */
  readonly requests: () => number;
}

export interface AuthoringOptions {
  readonly client: ModelClient;
  readonly ctx: ExecutionContext;
  readonly flowName: string;
  readonly app: string;
  readonly stepTimeoutMs: number;
  /** Intents of the steps recorded so far (in order), for context and clarifications. */
  readonly completed: () => readonly string[];
  /** 1-based number the next recorded step will get. */
  readonly nextStepNumber: () => number;
  readonly log?: (line: string) => void;
  /** The app's "today" (injected so tests own the date). */
  readonly today?: string;
  /** The vocabulary of the surface a step runs on (by its `in:` surface; undefined: the flow's app). */
  readonly grammar?: (surface: string | undefined) => ParseContext;
}

/** Reads the scene until two consecutive readings list the same targets and the document is loaded (bounded). */
export async function stableScene(ctx: ExecutionContext): Promise<SceneInventory> {
  const read = ctx.driver.scene;
  if (!read)
    throw new FlowproofError({
      code: "unsupported-step",
      message: "this app's driver cannot list a scene, so its plain steps cannot be model-authored; record with --author rules",
      hint: "record with --author rules, or write the step as a `rules:` step",
    });
  let previous: SceneInventory | undefined;
  let latest: SceneInventory | undefined;
  for (let i = 0; i < SCENE_READS; i++) {
    latest = await read.call(ctx.driver);
    if (previous && latest.loaded && sameTargets(previous, latest)) return latest;
    previous = latest;
    await ctx.clock.sleep(SCENE_INTERVAL_MS);
  }
  // The page never settled: author against the latest reading (volatile text is tolerated).
  return latest!;
}

const sameTargets = (a: SceneInventory, b: SceneInventory) =>
  a.entries.length === b.entries.length && a.entries.every((e, i) => e.target === b.entries[i]!.target);

export function createAuthoring(options: AuthoringOptions): AuthoringSession {
  const { client, ctx } = options;
  let requests = 0;
  let stopped: Clarification | undefined;
  /** What earlier rounds of the current step performed (step_continues). */
  let performed: string[] = [];

  const ask = async (messages: readonly ChatMessage[]): Promise<string> => {
    requests++;
    return client.complete(
      SYSTEM_PROMPT,
      messages.map((m) => ({ role: m.role, content: redact(m.content, ctx.secrets) })),
    );
  };

  const clarify = (
    source: FlowStep,
    scene: SceneInventory | undefined,
    reason: string,
    hint: string,
    extra: Pick<Partial<Clarification>, "stage" | "capture_reference" | "capture_candidates"> = {},
  ): AuthoredBatch => {
    stopped = clarification({ step: source.text, stepIndex: options.nextStepNumber(), reason, hint, completed: options.completed(), scene, ...extra });
    return { ok: false, error: `the step needs clarification: ${reason}` };
  };

  const author: StepAuthor = async (source, round) => {
    if (round === 0) performed = [];
    const captures = [...ctx.captures.keys()];
    if (round === 0) {
      const pronoun = ambiguousPronoun(source.text, captures);
      if (pronoun) {
        return clarify(
          source,
          undefined,
          `"${pronoun}" could mean any of ${captures.length} remembered values (${captures.join(", ")})`,
          `name the value instead of "${pronoun}", e.g. "Enter the ${captures[0]!.replace(/_/g, " ")} in …", or remember values under clearer names`,
          { stage: "model", capture_reference: pronoun, capture_candidates: captures },
        );
      }
    }
    const scene = await stableScene(ctx);
    const messages: ChatMessage[] = [
      {
        role: "user",
        content: userPrompt({
          flowName: options.flowName,
          app: options.app,
          step: source.text,
          priorSteps: options.completed(),
          captures,
          today: options.today ?? new Date().toISOString().slice(0, 10),
          scene,
          performed,
        }),
      },
    ];
    let jsonRetried = false;
    let corrected = false;
    /** The one range challenge of this step (`target=value`); the answer to it is accepted as intended. */
    const challenged = new Set<string>();
    for (;;) {
      const reply = await ask(messages);
      messages.push({ role: "assistant", content: reply });
      const parsed = parseReply(reply);
      let grounded: Grounded;
      if (!parsed.ok && parsed.kind === "json") {
        if (jsonRetried)
          return clarify(
            source,
            scene,
            `the model did not answer with valid JSON twice (${parsed.reason})`,
            "rephrase the step more concretely, or write it as `rules: …`",
          );
        jsonRetried = true;
        options.log?.(`  model reply for "${source.text}" was not JSON; asking once more`);
        messages.push({ role: "user", content: INVALID_JSON_PROMPT(parsed.reason) });
        continue;
      }
      if (!parsed.ok)
        grounded = { ok: false, kind: "rejected", index: parsed.index ?? 0, total: parsed.index !== undefined ? parsed.index + 1 : 1, reason: parsed.reason };
      else
        grounded = groundActions(parsed.actions, {
          intent: source.text,
          scene,
          captures,
          stepTimeoutMs: options.stepTimeoutMs,
          round,
          ...(options.grammar ? { grammar: options.grammar(source.surface) } : {}),
        });
      if (grounded.ok && parsed.ok) {
        const range = rangeChallenge(parsed.actions, scene);
        if (range && challenged.size === 0) {
          challenged.add(`${range.target}=${range.value}`);
          options.log?.(`  model types ${JSON.stringify(range.value)} into ${range.target}, outside the page's rule; asking once whether that is intended`);
          messages.push({ role: "user", content: rangePrompt(range.index, range.value, range.target, range.rule) });
          continue;
        }
      }
      if (grounded.ok) {
        performed.push(...grounded.summary);
        return { ok: true, steps: grounded.steps, continues: grounded.continues };
      }
      if (grounded.kind === "ambiguity") {
        return clarify(
          source,
          scene,
          `"${grounded.reference}" could mean more than one remembered value (${grounded.candidates.join(", ")})`,
          `name the value instead of "${grounded.reference}"`,
          { stage: "model", capture_reference: grounded.reference, capture_candidates: grounded.candidates },
        );
      }
      if (corrected) {
        return clarify(
          source,
          scene,
          `the model's actions could not be grounded on the page after one correction: action ${grounded.index + 1} of ${grounded.total}: ${grounded.reason}`,
          "rewrite the step to name the element as the page labels it, split it into smaller steps, or write it as `rules: …`",
        );
      }
      corrected = true;
      options.log?.(
        `  model action ${grounded.index + 1} of ${grounded.total} for "${source.text}" was rejected (${grounded.reason}); asking for a correction`,
      );
      messages.push({ role: "user", content: correctionPrompt(grounded.index, grounded.total, grounded.reason) });
    }
  };

  return { author, clarification: () => stopped, requests: () => requests };
}
