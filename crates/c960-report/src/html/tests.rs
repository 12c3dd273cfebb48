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
