//! The plain-text part of a message, read from its HTML.

/// The plain-text part: tags, comments, styles and scripts dropped, block boundaries kept as spaces, the common
/// entities decoded, and each link kept as "text (address)" so a plain-text reader can follow it (and unsubscribe).
pub(crate) fn text_version(html: &str) -> String {
    let mut text = String::with_capacity(html.len() / 2);
    let mut rest = html;
    // The open link: its address and where its text starts in `text`.
    let mut link: Option<(String, usize)> = None;
    while let Some(lt) = rest.find('<') {
        push_decoded(&mut text, &rest[..lt]);
        rest = &rest[lt..];
        if let Some(comment) = rest.strip_prefix("<!--") {
            rest = comment.find("-->").map_or("", |end| &comment[end + 3..]);
            continue;
        }
        let Some(gt) = rest.find('>') else {
            rest = "";
            break;
        };
        let tag = &rest[1..gt];
        rest = &rest[gt + 1..];
        let name = tag_name(tag);
        if !tag.starts_with('/') && (name == "style" || name == "script") {
            let close = format!("</{name}");
            rest = find_ignore_case(rest, &close)
                .and_then(|at| rest[at..].find('>').map(|end| &rest[at + end + 1..]))
                .unwrap_or("");
            continue;
        }
        if name == "a" {
            if tag.starts_with('/') {
                if let Some((href, from)) = link.take() {
                    let label = text[from..].trim();
                    if label.is_empty() {
                        text.push_str(&href);
                    } else if label != href {
                        text.push_str(&format!(" ({href})"));
                    }
                }
            } else {
                link = attribute(tag, "href")
                    .map(|href| decoded(href.trim()))
                    .filter(|href| !href.is_empty() && !href.starts_with('#'))
                    .map(|href| (href, text.len()));
            }
        } else if is_block_tag(tag) {
            text.push(' ');
        }
    }
    push_decoded(&mut text, rest);
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn tag_name(tag: &str) -> String {
    tag.trim_start_matches('/')
        .split(|c: char| c.is_whitespace() || c == '/')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
}

fn find_ignore_case(haystack: &str, needle: &str) -> Option<usize> {
    haystack
        .as_bytes()
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// The value of `name="…"` (or '…') in a start tag.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let mut at = 0;
    while let Some(found) = find_ignore_case(&tag[at..], name) {
        let start = at + found;
        at = start + name.len();
        let before_ok = start == 0 || tag.as_bytes()[start - 1].is_ascii_whitespace();
        let after = tag[at..].trim_start();
        if !before_ok || !after.starts_with('=') {
            continue;
        }
        let value = after[1..].trim_start();
        let quote = value.chars().next()?;
        if quote == '"' || quote == '\'' {
            return value[1..].find(quote).map(|end| &value[1..1 + end]);
        }
        return value.split_whitespace().next();
    }
    None
}

fn decoded(s: &str) -> String {
    let mut out = String::new();
    push_decoded(&mut out, s);
    out
}

fn is_block_tag(tag: &str) -> bool {
    let name = tag_name(tag);
    matches!(
        name.as_str(),
        "p" | "br" | "div" | "tr" | "td" | "li" | "table" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6"
    )
}

fn push_decoded(out: &mut String, s: &str) {
    if !s.contains('&') {
        out.push_str(s);
        return;
    }
    out.push_str(
        &s.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&nbsp;", " ")
            .replace("&amp;", "&"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_part_keeps_paragraphs_apart_and_decodes_entities() {
        assert_eq!(
            text_version("<p>One.</p><p>Go to a&amp;b &lt;now&gt;</p>"),
            "One. Go to a&b <now>"
        );
        assert_eq!(text_version("Hel<b>lo</b>"), "Hello");
    }

    #[test]
    fn the_text_part_keeps_link_addresses_including_unsubscribe() {
        let html = "<!-- compass-designer:eyJibG9ja3MiOltdfQ== --><style>p { color: red }</style>\
            <p><a href=\"https://example.org/donate?a=1&amp;b=2\">Donate now</a></p>\
            <p><A HREF='https://t.example/u/abc'>Unsubscribe</A> <a href=\"https://example.org\">https://example.org</a> \
            <a href=\"#top\">Top</a></p>";
        assert_eq!(
            text_version(html),
            "Donate now (https://example.org/donate?a=1&b=2) Unsubscribe (https://t.example/u/abc) \
             https://example.org Top"
        );
    }
}
