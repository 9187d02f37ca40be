//! citegate-wasm-tests: nothing but test suites (see `tests/`).
