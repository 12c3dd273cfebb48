//! The pages' notes on their inputs, tested.

use super::*;

/// A line of the failures warning, as the site and the DFRC report
/// write it: the run and what failed, escaped, and on a position's
/// page each failure there with its reason.
#[test]
fn failure_lines_come_from_their_template() {
    let line = Failure {
        label: "sf <1>",
        summary: "2 failed positions & more",
        what: "table",
        failed: vec![(7, "engine \"crashed\""), (7, "again")],
    }
    .to_string();
    assert_eq!(
        line,
        "Incomplete input: run <b>sf &lt;1&gt;</b> has 2 failed positions &amp; more; the table \
         has no numbers for them.<br>SP 7 failed in this run: engine &quot;crashed&quot;\
         <br>SP 7 failed in this run: again"
    );
    let none = Failure {
        label: "dfrc",
        summary: "1 failed setup (3)",
        what: "report",
        failed: Vec::new(),
    }
    .to_string();
    assert_eq!(
        none,
        "Incomplete input: run <b>dfrc</b> has 1 failed setup (3); the report has no numbers \
         for them."
    );
}
