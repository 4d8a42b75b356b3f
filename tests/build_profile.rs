//! The test command runs the checks the test profile turns on. `cargo test --release` would
//! build with the release profile, where `debug_assert!` and overflow checks are compiled out,
//! so every invariant the code asserts would go unchecked: this test fails there, naming the
//! command to use (`cargo test`, whose `[profile.test]` in the workspace's Cargo.toml is
//! optimised and checked).

#[test]
fn the_test_build_checks_debug_assertions_and_overflow() {
    let debug_assertions = std::hint::black_box(cfg!(debug_assertions));
    assert!(
        debug_assertions,
        "built without debug assertions: run the tests with `cargo test` (not --release)"
    );
    let max = std::hint::black_box(u8::MAX);
    let overflowed = std::panic::catch_unwind(|| max + std::hint::black_box(1));
    assert!(
        overflowed.is_err(),
        "built without overflow checks: run the tests with `cargo test` (not --release)"
    );
}
