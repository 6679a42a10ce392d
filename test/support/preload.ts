// Test preload: a stable environment for every test file.
process.env["NO_COLOR"] = "1";
// A CI service sets CI, which turns a suite's unrecorded flow into an error: tests that want that set it themselves.
delete process.env["CI"];
