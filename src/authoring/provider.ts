// The authoring model's provider: which backend the environment configures (OpenAI-compatible
// through the `openai` package, or Anthropic's Messages API over fetch), and one chat call with a
// timeout. Errors quote the provider's body with the key redacted. No prompt knowledge here.
import type OpenAI from "openai";
import { SpecError, FlowproofError, diagnostic } from "../diagnostics/diagnostic.ts";
import { msFromEnv } from "../diagnostics/env-number.ts";

export type Backend = "openai-compatible" | "anthropic";

export interface ProviderConfig {
  readonly backend: Backend;
  readonly baseUrl: string;
  readonly model: string;
  /** Never printed, logged or persisted; redacted from every error. */
  readonly apiKey?: string;
  readonly timeoutMs: number;
}

export type ProviderResolution = { readonly configured: false } | { readonly configured: true; readonly config: ProviderConfig };

export interface ChatMessage {
  readonly role: "user" | "assistant";
  readonly content: string;
}

/** One model, as the authoring loop calls it. */
export interface ModelClient {
  readonly backend: Backend;
  readonly model: string;
  /** One request; the reply's text. Throws ModelRequestError when the provider fails. */
  complete(system: string, messages: readonly ChatMessage[]): Promise<string>;
}

export const DEFAULT_MODEL_TIMEOUT_MS = 180_000;
export const DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-4-5";
const DEFAULT_OPENAI_MODEL = "gpt-4.1-mini";
const OPENAI_DEFAULT_BASE = "https://api.openai.com/v1";
const ANTHROPIC_DEFAULT_BASE = "https://api.anthropic.com";
/** Provider error bodies are quoted up to this many characters. */
const ERROR_BODY_MAX = 1000;
const OPENAI_MAX_TOKENS = 4096;
const ANTHROPIC_MAX_TOKENS = 16384;

type Env = Readonly<Record<string, string | undefined>>;

/** A provider request failed (network, timeout, non-2xx); the message quotes the body, key redacted. */
export class ModelRequestError extends FlowproofError {}

const configError = (message: string, hint: string) => new SpecError(diagnostic("model-config", message, { hint }));

/**
 * Reads the provider configuration. Nothing set → not configured (auto mode falls back to the
 * rules grammar with a warning); anything set but incomplete or contradictory → an error, never a
 * silent fallback.
 */
export function resolveProvider(env: Env): ProviderResolution {
  const get = (k: string) => {
    const v = env[k];
    return v === undefined || v.trim() === "" ? undefined : v.trim();
  };
  const explicit = get("FLOWPROOF_AI_PROVIDER");
  if (explicit !== undefined && explicit !== "openai-compatible" && explicit !== "openai" && explicit !== "anthropic") {
    throw configError(
      `FLOWPROOF_AI_PROVIDER must be openai-compatible or anthropic, not ${JSON.stringify(explicit)}`,
      "FLOWPROOF_AI_PROVIDER=openai-compatible (any OpenAI-compatible endpoint) or FLOWPROOF_AI_PROVIDER=anthropic",
    );
  }
  const timeoutMs = msFromEnv({ FLOWPROOF_AI_TIMEOUT_MS: get("FLOWPROOF_AI_TIMEOUT_MS") }, "FLOWPROOF_AI_TIMEOUT_MS", {
    fallback: DEFAULT_MODEL_TIMEOUT_MS,
    code: "model-config",
  });
  const aiBase = get("FLOWPROOF_AI_BASE_URL");
  const aiKey = get("FLOWPROOF_AI_API_KEY");
  const aiModel = get("FLOWPROOF_AI_MODEL");
  const openaiKey = get("OPENAI_API_KEY");
  const openaiBase = get("OPENAI_BASE_URL");
  const anthropicKey = get("ANTHROPIC_API_KEY");
  const backend: Backend | undefined =
    explicit === "anthropic"
      ? "anthropic"
      : explicit !== undefined
        ? "openai-compatible"
        : aiBase || aiKey || openaiKey || openaiBase
          ? "openai-compatible"
          : anthropicKey
            ? "anthropic"
            : aiModel
              ? "openai-compatible"
              : undefined;
  if (backend === undefined) return { configured: false };
  const checkUrl = (url: string, name: string) => {
    if (!/^https?:\/\/[^\s/]+/i.test(url)) throw configError(`${name} must be an http(s) URL, not ${JSON.stringify(url)}`, `${name}=http://127.0.0.1:8000/v1`);
    return url.replace(/\/+$/, "");
  };
  if (backend === "anthropic") {
    const key = aiKey ?? anthropicKey;
    if (!key) throw configError("FLOWPROOF_AI_PROVIDER=anthropic needs an API key", "set FLOWPROOF_AI_API_KEY or ANTHROPIC_API_KEY");
    const base = checkUrl(aiBase ?? get("ANTHROPIC_BASE_URL") ?? ANTHROPIC_DEFAULT_BASE, aiBase ? "FLOWPROOF_AI_BASE_URL" : "ANTHROPIC_BASE_URL");
    return { configured: true, config: { backend, baseUrl: base, model: aiModel ?? DEFAULT_ANTHROPIC_MODEL, apiKey: key, timeoutMs } };
  }
  const base = aiBase ? checkUrl(aiBase, "FLOWPROOF_AI_BASE_URL") : openaiBase ? checkUrl(openaiBase, "OPENAI_BASE_URL") : undefined;
  const key = aiKey ?? openaiKey;
  if (base === undefined && key === undefined) {
    throw configError(
      "an OpenAI-compatible authoring model needs an endpoint",
      "set FLOWPROOF_AI_BASE_URL (e.g. http://127.0.0.1:11434/v1 for Ollama) or OPENAI_API_KEY for api.openai.com",
    );
  }
  const model = aiModel ?? (base === undefined || base === OPENAI_DEFAULT_BASE ? DEFAULT_OPENAI_MODEL : undefined);
  if (model === undefined)
    throw configError(
      `FLOWPROOF_AI_MODEL is not set for the endpoint ${base ?? ""}`,
      "set FLOWPROOF_AI_MODEL to a model the endpoint serves, e.g. FLOWPROOF_AI_MODEL=llama3.1",
    );
  return { configured: true, config: { backend, baseUrl: base ?? OPENAI_DEFAULT_BASE, model, ...(key ? { apiKey: key } : {}), timeoutMs } };
}

/** `text` with every occurrence of the key (and of a Bearer header carrying it) replaced. */
export function redactKey(text: string, key: string | undefined): string {
  if (!key || key.length < 4) return text;
  return text.split(key).join("[redacted]");
}

const quoteBody = (body: string, key: string | undefined) => {
  const clean = redactKey(body, key).trim();
  return clean.length > ERROR_BODY_MAX ? `${clean.slice(0, ERROR_BODY_MAX)}…` : clean;
};

export function createModelClient(config: ProviderConfig): ModelClient {
  return config.backend === "anthropic" ? anthropicClient(config) : openAiClient(config);
}

function requestError(config: ProviderConfig, what: string): ModelRequestError {
  return new ModelRequestError(
    diagnostic("model-error", redactKey(`the authoring model (${config.backend} ${config.model} at ${config.baseUrl}) ${what}`, config.apiKey), {
      hint: "check FLOWPROOF_AI_BASE_URL, FLOWPROOF_AI_MODEL and the key; or record with --author rules",
    }),
  );
}

function openAiClient(config: ProviderConfig): ModelClient {
  // The SDK loads on the first request: a replay never asks a model and does not pay for loading it.
  let client: OpenAI | undefined;
  return {
    backend: config.backend,
    model: config.model,
    async complete(system, messages) {
      const { default: Sdk } = await import("openai");
      client ??= new Sdk({ apiKey: config.apiKey ?? "none", baseURL: config.baseUrl, timeout: config.timeoutMs, maxRetries: 0 });
      let res;
      try {
        res = await client.chat.completions.create({
          model: config.model,
          max_tokens: OPENAI_MAX_TOKENS,
          temperature: 0,
          messages: [{ role: "system", content: system }, ...messages.map((m) => ({ role: m.role, content: m.content }))],
        });
      } catch (error) {
        if (error instanceof Sdk.APIError && typeof error.status === "number") {
          const body = typeof error.error === "object" && error.error !== null ? JSON.stringify(error.error) : String(error.message);
          throw requestError(config, `answered HTTP ${error.status}: ${quoteBody(body, config.apiKey)}`);
        }
        if (error instanceof Sdk.APIConnectionTimeoutError) throw requestError(config, `did not answer within ${config.timeoutMs} ms`);
        throw requestError(config, `could not be reached: ${error instanceof Error ? error.message : String(error)}`);
      }
      const text = res.choices?.[0]?.message?.content;
      if (typeof text !== "string" || text === "") throw requestError(config, "answered with no text");
      return text;
    },
  };
}

function anthropicClient(config: ProviderConfig): ModelClient {
  return {
    backend: config.backend,
    model: config.model,
    async complete(system, messages) {
      let res: Response;
      try {
        res = await fetch(`${config.baseUrl}/v1/messages`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": config.apiKey ?? "", "anthropic-version": "2023-06-01" },
          body: JSON.stringify({ model: config.model, max_tokens: ANTHROPIC_MAX_TOKENS, system, messages }),
          signal: AbortSignal.timeout(config.timeoutMs),
        });
      } catch (error) {
        if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
          throw requestError(config, `did not answer within ${config.timeoutMs} ms`);
        throw requestError(config, `could not be reached: ${error instanceof Error ? error.message : String(error)}`);
      }
      const body = await res.text();
      if (!res.ok) throw requestError(config, `answered HTTP ${res.status}: ${quoteBody(body, config.apiKey)}`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        throw requestError(config, `answered with a body that is not JSON: ${quoteBody(body, config.apiKey)}`);
      }
      const obj = parsed as { content?: Array<{ type?: string; text?: string }>; stop_reason?: string };
      const text = obj.content?.find((b) => b.type === "text")?.text;
      if (typeof text !== "string") {
        throw requestError(config, obj.stop_reason === "max_tokens" ? "used its whole output budget before writing any text" : "answered with no text block");
      }
      return text;
    },
  };
}
