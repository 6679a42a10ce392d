// Test preload: a stable environment for every test file.
process.env["NO_COLOR"] = "1";
