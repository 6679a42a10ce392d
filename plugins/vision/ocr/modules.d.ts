// Types for the untyped CommonJS modules of tesseract.js that the OCR worker loads, and for the
// model file imported as a path (`with { type: "file" }`: embedded into a compiled executable).
declare module "tesseract.js/src/worker-script/index.js" {
  const script: {
    setAdapter(adapter: Record<string, unknown>): void;
    dispatchHandlers(packet: unknown, send: (reply: unknown) => void): void;
  };
  export default script;
}
declare module "tesseract.js-core/tesseract-core-simd-lstm.wasm.js" {
  const core: (options: Record<string, unknown>) => Promise<unknown>;
  export default core;
}
declare module "*.traineddata.gz" {
  const path: string;
  export default path;
}
