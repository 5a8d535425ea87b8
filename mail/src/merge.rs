//! Merge tags: which a text uses, and filling them for one recipient.

/// The values merge tags draw from. A missing value renders as the tag's default (`{{First.Name|friend}}`), or
/// as nothing, never as the raw tag.
#[derive(Debug, Clone, Default)]
pub struct MergeValues {
    pub first_name: String,
    pub email: String,
}

/// The merge tags a mailing can use.
pub const MERGE_TAGS: [&str; 2] = ["First.Name", "Email"];

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// One `{{…}}` of a text: its name and its default, when it has one (`{{First.Name|friend}}`; `{{Email|}}`
/// is a default too, an empty one the author chose).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeTag<'a> {
    pub name: &'a str,
    pub default: Option<&'a str>,
}

fn parse_tag(inner: &str) -> MergeTag<'_> {
    match inner.split_once('|') {
        Some((name, default)) => MergeTag {
            name: name.trim(),
            default: Some(default.trim()),
        },
        None => MergeTag {
            name: inner.trim(),
            default: None,
        },
    }
}

/// Every merge tag of `text`, in order (`{{Unsubscribe}}` is the link, not a merge tag, and is left out).
pub fn merge_tags(text: &str) -> Vec<MergeTag<'_>> {
    let mut tags = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        let Some(len) = rest[start..].find("}}") else {
            break;
        };
        let tag = parse_tag(&rest[start + 2..start + len]);
        if tag.name != "Unsubscribe" {
            tags.push(tag);
        }
        rest = &rest[start + len + 2..];
    }
    tags
}

/// Fills `{{First.Name}}` and `{{Email}}` (spaces inside the braces allowed); a value that is empty takes the
/// tag's default (`{{First.Name|friend}}`, written by the author and kept as written); other `{{…}}` tags render
/// their default or nothing. `{{Unsubscribe}}` is left for the link.
pub fn merge(html: &str, values: &MergeValues) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        match rest[start..].find("}}") {
            Some(len) => {
                let tag = parse_tag(&rest[start + 2..start + len]);
                let value = match tag.name {
                    "First.Name" => values.first_name.trim(),
                    "Email" => values.email.trim(),
                    "Unsubscribe" => {
                        out.push_str("{{Unsubscribe}}");
                        rest = &rest[start + len + 2..];
                        continue;
                    }
                    _ => "",
                };
                if value.is_empty() {
                    out.push_str(tag.default.unwrap_or(""));
                } else {
                    out.push_str(&escape(value));
                }
                rest = &rest[start + len + 2..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_tags_fill_in_escaped_and_unknown_or_missing_render_empty() {
        let values = MergeValues {
            first_name: "Ann <b>".into(),
            email: "ann@example.org".into(),
        };
        assert_eq!(
            merge("Hi {{First.Name}}, {{ Email }}{{Unknown}}!", &values),
            "Hi Ann &lt;b&gt;, ann@example.org!"
        );
        assert_eq!(merge("Hi {{First.Name}}", &MergeValues::default()), "Hi ");
        assert_eq!(
            merge("no close {{First.Name", &values),
            "no close {{First.Name"
        );
    }

    #[test]
    fn an_empty_value_takes_the_tags_default() {
        let nameless = MergeValues {
            first_name: " ".into(),
            email: "ann@example.org".into(),
        };
        assert_eq!(
            merge(
                "Hello {{First.Name|friend}}, {{ Email | you }}{{Other|x}}{{First.Name}}.",
                &nameless
            ),
            "Hello friend, ann@example.orgx."
        );
        let named = MergeValues {
            first_name: "Ann".into(),
            ..nameless
        };
        assert_eq!(
            merge("Hello {{ First.Name | friend }}", &named),
            "Hello Ann"
        );
        assert_eq!(merge("{{Unsubscribe}}", &named), "{{Unsubscribe}}");
        assert_eq!(
            merge_tags("{{First.Name}} {{Email|}} {{Unsubscribe}} {{ X | y }}"),
            vec![
                MergeTag {
                    name: "First.Name",
                    default: None
                },
                MergeTag {
                    name: "Email",
                    default: Some("")
                },
                MergeTag {
                    name: "X",
                    default: Some("y")
                },
            ]
        );
    }
}
