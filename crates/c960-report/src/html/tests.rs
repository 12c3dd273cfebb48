//! The page layout, its escaper and the style sheets, tested.

use super::*;

#[test]
fn html_pages_from_templates_with_one_layout() {
    let page = Page {
        lang: "de",
        title: "a \"b\" & <c> 'd'",
        head: "<link>\n",
        banner: "",
        body: "<p>x</p>\n",
    }
    .render();
    assert_eq!(
        page,
        "<!DOCTYPE html>\n<html lang=\"de\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>a &quot;b&quot; &amp; &lt;c&gt; 'd'</title>\n<link>\n</head>\n<body>\n\
         <p>x</p>\n</body>\n</html>\n"
    );
    let mut escaped = String::new();
    askama::filters::Escaper::write_escaped_str(&Escape, &mut escaped, "&<>\"'é").unwrap();
    assert_eq!(escaped, escape("&<>\"'é"));
}

#[test]
fn controls_of_text_direction_never_reach_a_page() {
    let forged = "Stockfish \u{202E}71 <b>\u{202C} \u{2066}x\u{2069}";
    let mut escaped = String::new();
    askama::filters::Escaper::write_escaped_str(&Escape, &mut escaped, forged).unwrap();
    assert_eq!(escaped, "Stockfish 71 &lt;b&gt; x");
    assert_eq!(escape(forged), escaped);
    let page = Page {
        lang: "en",
        title: forged,
        head: "",
        banner: "",
        body: "",
    }
    .render();
    assert!(!page.chars().any(c960_core::is_bidi_control), "{page}");
}

#[test]
fn css_only_in_assets() {
    let head = Style {
        page_size: Some("A4"),
        sheets: &["a { b: c; }\n", NOWRAP_CSS],
    }
    .to_string();
    assert_eq!(
        head,
        "<style>\n@page { size: A4; margin: 12mm; }\na { b: c; }\n.nobr { white-space: nowrap; }\n</style>\n"
    );
    let plain = Style {
        page_size: None,
        sheets: &[NOWRAP_CSS],
    }
    .to_string();
    assert_eq!(plain, "<style>\n.nobr { white-space: nowrap; }\n</style>\n");
}

#[test]
fn castling_notation_never_breaks() {
    assert_eq!(
        escape_prose("O-O-O or O-O <b>"),
        "<span class=\"nobr\">O-O-O</span> or <span class=\"nobr\">O-O</span> &lt;b&gt;"
    );
    assert_eq!(escape_prose("no castling"), "no castling");
}

/// The templates' markup carries no inline style: how a page looks is in
/// the style sheets of `assets/` (the warning banner's frame is the
/// `warning` class of `style.css`).
#[test]
fn templates_have_no_inline_styles() {
    fn templates(dir: &std::path::Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                templates(&path, out);
            } else {
                out.push((
                    path.display().to_string(),
                    std::fs::read_to_string(&path).unwrap(),
                ));
            }
        }
    }
    let mut found = Vec::new();
    templates(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates"),
        &mut found,
    );
    assert!(found.len() > 10, "{found:?}");
    let styled: Vec<&str> = found
        .iter()
        .filter(|(_, text)| text.contains(" style="))
        .map(|(name, _)| name.as_str())
        .collect();
    assert!(styled.is_empty(), "inline styles in {styled:?}");
    assert_eq!(
        crate::site::warning(&["one".to_owned(), "two <b>x</b>".to_owned()]),
        "<div class=\"warning\" role=\"alert\">one<br>two <b>x</b></div>\n"
    );
    assert!(crate::site::STYLE.contains("\n.warning { border: 2px solid #b00;"));
}
