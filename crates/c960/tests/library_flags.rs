//! The flags whose values are a library's type (`--lang`, `--verdict`,
//! `--weights`, `--verdicts-from`) parse straight into it, with the same
//! spellings, help and errors as before.

use crate::util::Dir;

#[test]
fn library_types_parse_straight_from_the_flags() {
    let dir = Dir::new();
    let german = dir.ok(&["show", "518", "--lang", "de"]);
    assert!(german.contains("Weiß: g-Rochade"), "{german}");
    for (args, flag, values) in [
        (
            &["draw", "--seed", "1", "--lang", "xx"][..],
            "--lang <LANG>",
            "en, de, nl, tr",
        ),
        (
            &["draw", "--seed", "1", "--verdict", "xx", "--balance", "x"],
            "--verdict <VERDICT>",
            "balanced, more-for-white, less-for-white, unresolved",
        ),
        (
            &["balance", "--weights", "xx"],
            "--weights <HOW>",
            "data, equal",
        ),
        (
            &["balance", "--verdicts-from", "xx"],
            "--verdicts-from <METHOD>",
            "more-reliable, games, sweep",
        ),
    ] {
        assert_eq!(
            dir.bad_input(args),
            format!(
                "c960: error: invalid value 'xx' for '{flag}' [possible values: {values}] \
                 (see --help)"
            )
        );
    }
    let help = dir.ok(&["draw", "--help"]);
    for line in [
        "- de: German (c-Rochade, g-Rochade)",
        "- more-for-white: More for White than the band",
        "[default: en]",
    ] {
        assert!(help.contains(line), "{line} not in {help}");
    }
    let help = dir.ok(&["balance", "--help"]);
    for line in [
        "- more-reliable: The method with the higher split-half reliability",
        "- data:  By the inverse of each rater's error variance",
        "[default: more-reliable]",
        "[default: data]",
    ] {
        assert!(help.contains(line), "{line} not in {help}");
    }
}
