// The rules grammar for plugin tests: a plugin may import only the plugin contract, so its tests
// reach the grammar (to check the vocabulary it declares) through this support module.
export { parseAssertion, parseCondition, parseStep } from "../../src/grammar/index.ts";
