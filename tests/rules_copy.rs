//! The game's rules travel with the repository: `docs/rules.md` is a byte-for-byte copy of the
//! project's `RULES.md`, so that a bare clone can learn the game. Where the shared copy sits
//! beside the checkout (`../shared/RULES.md`), the two must be identical; `.ci/run` checks the
//! same with `cmp`.

use std::path::Path;

#[test]
fn docs_rules_is_the_shared_rules_text() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ours = std::fs::read(root.join("docs/rules.md")).expect("docs/rules.md");
    assert!(
        String::from_utf8_lossy(&ours).contains("## End of the game"),
        "docs/rules.md does not state the rules"
    );
    let shared = root.join("../shared/RULES.md");
    if shared.exists() {
        let theirs = std::fs::read(&shared).expect("../shared/RULES.md");
        assert!(
            ours == theirs,
            "docs/rules.md differs from {}: copy it again",
            shared.display()
        );
    }
}
