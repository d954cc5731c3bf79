use super::escape::shown_as_is;
use super::*;

#[test]
fn quoted_text_is_json_and_reads_back() {
    for text in [
        "",
        "plain",
        "a\"b\\c",
        "tab\tcr\rnl\n",
        "\u{0}\u{1b}[31m\u{7f}\u{85}\u{a0}\u{200b}\u{202e}\u{2028}\u{2029}\u{feff}",
        "e\u{301} é 日本 🦀 'quote'",
    ] {
        let quoted = OutlineQuoted(text).to_string();
        let back: String = serde_json::from_str(&quoted).unwrap();
        assert_eq!(back, text, "{quoted}");
        assert!(
            quoted
                .chars()
                .all(|c| shown_as_is(c) || c == '"' || c == '\\'),
            "{quoted}"
        );
    }
    assert_eq!(OutlineQuoted("é 🦀").to_string(), "\"é 🦀\"");
    assert_eq!(OutlineQuoted("\u{1f}").to_string(), r#""\u001f""#);
    assert_eq!(
        OutlineQuoted("\u{200b}\u{202e}\u{2028}\u{a0}").to_string(),
        r#""\u200b\u202e\u2028\u00a0""#,
        "zero-width, bidi, line separator, NBSP"
    );
    // Combining marks stay, as in a decomposed file name; so do emoji.
    assert_eq!(
        OutlineQuoted("cafe\u{301} 🦀").to_string(),
        "\"cafe\u{301} 🦀\""
    );
    assert_eq!(
        OutlineName("files/cafe\u{301}").to_string(),
        "files/cafe\u{301}"
    );
}

#[test]
fn plain_names_are_written_as_they_are() {
    for name in [
        "save",
        "tasks/3",
        "tasks/list_item#2",
        "id~2",
        "files/main.rs",
        "naïve",
        "a:b=c'd",
    ] {
        assert_eq!(OutlineName(name).to_string(), name);
    }
    for name in [
        "",
        "a b",
        "a]",
        "{",
        "a,b",
        "\"",
        "back\\slash",
        "nl\n",
        "nbsp\u{a0}",
    ] {
        let written = OutlineName(name).to_string();
        assert!(written.starts_with('"'), "{written}");
        assert_eq!(serde_json::from_str::<String>(&written).unwrap(), name);
    }
}
