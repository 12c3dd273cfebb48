//! The report's index pages on a phone (390 px, in headless Chromium):
//! the page never scrolls sideways, and no word of a table breaks inside
//! (a wide table scrolls in its own box instead; its headers broke one
//! letter a line).

use crate::{browser, util::Dir};

/// The layout of `page` at 390 px: no sideways scroll, no word of a table
/// broken inside.
fn fits_a_phone(page: &std::path::Path, profile: &std::path::Path) {
    let check = browser::layout(profile, page, 390);
    assert!(
        check["scroll"].as_u64() <= check["width"].as_u64(),
        "{} scrolls sideways: {check}",
        page.display()
    );
    let split = check["split"].as_array().unwrap();
    assert!(
        split.is_empty(),
        "{}: {} words of a table broken inside, such as {:?}",
        page.display(),
        split.len(),
        &split[..split.len().min(8)]
    );
}

#[test]
fn the_index_and_the_fair_list_fit_a_phone() {
    let dir = Dir::new();
    let site = browser::site_with_games(&dir);
    let profile = dir.file("profile");
    fits_a_phone(&site.join("index.html"), &profile);
    fits_a_phone(&site.join("fair.html"), &profile);
}

#[test]
fn the_dfrc_report_fits_a_phone() {
    let dir = Dir::new();
    let site = browser::dfrc_site(&dir);
    fits_a_phone(&site.join("index.html"), &dir.file("profile"));
}
