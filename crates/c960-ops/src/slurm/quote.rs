//! Quoting for the two readers of a batch script: bash (single quotes) in
//! commands and sbatch's own parser (backslash escapes) in `#SBATCH` lines.

/// `text` as one argument of an `#SBATCH` line: sbatch reads a backslash
/// as "take the next character as it is" (a space, quote or `#` too).
pub(super) fn sbatch_quote(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len());
    for c in text.chars() {
        if !(c.is_ascii_alphanumeric() || "-_./%:,+@=".contains(c)) {
            quoted.push('\\');
        }
        quoted.push(c);
    }
    quoted
}

/// `text` in single quotes for bash (as it is when bash reads it as one
/// word anyway).
#[must_use]
pub fn shell_quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
    {
        return text.to_owned();
    }
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_quote_keeps_words_whole() {
        assert_eq!(shell_quote("--nodes"), "--nodes");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }

    #[test]
    fn sbatch_quote_escapes_what_sbatch_would_split_or_cut() {
        assert_eq!(sbatch_quote("/runs/sp"), "/runs/sp");
        assert_eq!(sbatch_quote("/a b/\"c\"#d"), "/a\\ b/\\\"c\\\"\\#d");
        assert_eq!(sbatch_quote("it's $(x)"), "it\\'s\\ \\$\\(x\\)");
    }
}
