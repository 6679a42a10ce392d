// Google Gemini `generateContent` / `streamGenerateContent` (`POST …/models/<model>:generateContent`):
// the model is named in the path (the cassette keeps it as the request's `model`), `contents` of
// `user` and `model` turns whose parts are text, `functionCall` or `functionResponse`,
// `systemInstruction`, and tools as `functionDeclarations`. A streamed answer is one SSE event
// (`alt=sse`) holding the recorded response. Pure.
import { arr, obj, str, type Codec, type Json, type RequestView, type ResponseView } from "./wire.ts";

/** The model and method a Gemini path names (`/v1beta/models/gemini-2.5-flash:streamGenerateContent`). */
export function geminiRoute(path: string): { readonly model: string; readonly stream: boolean; readonly version?: string } | undefined {
  const m = /(?:\/(v\d+\w*))?\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(path);
  if (!m) return undefined;
  return { model: decodeURIComponent(m[2]!), stream: m[3] === "streamGenerateContent", ...(m[1] ? { version: m[1] } : {}) };
}

const partsText = (content: unknown): string =>
  arr(obj(content)["parts"])
    .map((p) => str(obj(p)["text"]))
    .join("");
const contentsOf = (o: Json): Json[] => arr(o["contents"]).map(obj);

/** What the model is told a tool answered: `response.content` (or `.output`) when it is text, else the JSON. */
function responseText(fr: Json): string {
  const r = obj(fr["response"]);
  for (const key of ["content", "output", "result"]) if (typeof r[key] === "string") return r[key] as string;
  return JSON.stringify(fr["response"] ?? {});
}

/**
 * Tool results by call id. A `functionResponse` without an id answers the earliest unanswered
 * `functionCall` of the same name before it (and, when that one has no id either, its name).
 */
function resultsOf(contents: readonly Json[]): Map<string, string> {
  const results = new Map<string, string>();
  const pending: { id: string; name: string }[] = [];
  for (const c of contents) {
    for (const p of arr(c["parts"]).map(obj)) {
      const call = obj(p["functionCall"]);
      if (p["functionCall"] !== undefined) pending.push({ name: str(call["name"]), id: str(call["id"]) || str(call["name"]) });
      if (p["functionResponse"] === undefined) continue;
      const fr = obj(p["functionResponse"]);
      const name = str(fr["name"]);
      const at = pending.findIndex((q) => (fr["id"] !== undefined ? q.id === str(fr["id"]) : q.name === name));
      const id = at >= 0 ? pending.splice(at, 1)[0]!.id : str(fr["id"]) || name;
      results.set(id, responseText(fr));
    }
  }
  return results;
}

function readRequest(body: unknown): RequestView {
  const o = obj(body);
  const contents = contentsOf(o);
  const declarations = arr(o["tools"]).flatMap((t) => arr(obj(t)["functionDeclarations"] ?? obj(t)["function_declarations"]));
  return {
    model: str(o["model"]),
    roles: contents.map((c) => str(c["role"]) || "user"),
    tools: declarations.map((d) => str(obj(d)["name"])),
    system: partsText(o["systemInstruction"] ?? o["system_instruction"]),
    results: resultsOf(contents),
    text: contents.map(partsText).join("\n"),
    userTurns: contents.filter((c) => (str(c["role"]) || "user") === "user" && arr(c["parts"]).some((p) => typeof obj(p)["text"] === "string")).length,
  };
}

function readResponse(body: unknown): ResponseView {
  const parts = arr(obj(obj(arr(obj(body)["candidates"])[0])["content"])["parts"]).map(obj);
  return {
    text: parts
      .filter((p) => typeof p["text"] === "string" && p["thought"] !== true)
      .map((p) => p["text"] as string)
      .join(""),
    calls: parts
      .filter((p) => p["functionCall"] !== undefined)
      .map((p) => {
        const c = obj(p["functionCall"]);
        return { id: str(c["id"]) || str(c["name"]), name: str(c["name"]), arguments: c["args"] ?? {} };
      }),
  };
}

function substituteResults(body: Json, results: ReadonlyMap<string, unknown>): Json {
  if (results.size === 0) return body;
  return {
    ...body,
    contents: contentsOf(body).map((c) => ({
      ...c,
      parts: arr(c["parts"])
        .map(obj)
        .map((p) => {
          const fr = obj(p["functionResponse"]);
          const name = str(fr["name"]);
          if (p["functionResponse"] === undefined || !results.has(name)) return p;
          const value = results.get(name);
          // `response` is a JSON object: a declared object as it is, anything else as its `content`.
          const response = value !== null && typeof value === "object" && !Array.isArray(value) ? value : { name, content: value };
          return { ...p, functionResponse: { ...fr, response } };
        }),
    })),
  };
}

/**
 * The answer with an id on every `functionCall` that has none (`flowproof-<request>-<n>`): a client
 * that makes up ids of its own (the Vercel AI SDK does) then sends the recorded ones back, so the
 * next request is the same at replay.
 */
export function stampCallIds(body: unknown, ordinal: number): unknown {
  const o = obj(body);
  if (!Array.isArray(o["candidates"])) return body;
  let n = 0;
  return {
    ...o,
    candidates: arr(o["candidates"])
      .map(obj)
      .map((cand) => ({
        ...cand,
        ...(cand["content"] !== undefined
          ? {
              content: {
                ...obj(cand["content"]),
                parts: arr(obj(cand["content"])["parts"])
                  .map(obj)
                  .map((p) => {
                    if (p["functionCall"] === undefined || str(obj(p["functionCall"])["id"]) !== "") return p;
                    n += 1;
                    return { ...p, functionCall: { ...obj(p["functionCall"]), id: `flowproof-${ordinal}-${n}` } };
                  }),
              },
            }
          : {}),
      })),
  };
}

export const geminiCodec: Codec = {
  readRequest,
  readResponse,
  substituteResults,
  synthesizeStream: (body) => `data: ${JSON.stringify(body)}\n\n`,
  errorBody: (message) => ({ error: { code: 400, message, status: "INVALID_ARGUMENT" } }),
};
