//! Signed per-recipient links: the open pixel, click redirects and unsubscribe. A token names the client, the
//! mailing and the contact, and carries an HMAC so nobody can forge one for another recipient, mailing or
//! client; a click token also signs its target URL, so the redirect cannot be turned into an open redirect.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use lol_html::{element, rewrite_str, RewriteStrSettings};
use percent_encoding::{percent_encode, AsciiSet, NON_ALPHANUMERIC};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// The signature's length in bytes: the left half of the HMAC.
const SIG_LEN: usize = 16;

/// Everything but RFC 3986's unreserved characters is escaped in a click link's target.
const TARGET: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

/// Who a tracking link is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recipient {
    pub client_id: i64,
    pub mailing_id: i64,
    pub contact_id: i64,
}

#[derive(Clone)]
pub struct LinkSigner {
    secret: Vec<u8>,
    /// Public address of the api, e.g. `https://compass.example.org` (no trailing slash).
    base_url: String,
}

impl LinkSigner {
    pub fn new(secret: &str, base_url: &str) -> Self {
        Self {
            secret: secret.as_bytes().to_vec(),
            base_url: base_url.trim_end_matches('/').to_owned(),
        }
    }

    /// The HMAC of `payload` and `extra`, fed and ready to finish or verify. HMAC takes keys of any length, so
    /// it is only `None` in theory.
    fn mac(&self, payload: &str, extra: &str) -> Option<HmacSha256> {
        let mut mac = HmacSha256::new_from_slice(&self.secret).ok()?;
        mac.update(payload.as_bytes());
        mac.update(b"\n");
        mac.update(extra.as_bytes());
        Some(mac)
    }

    /// `payload.signature`, signing `extra` (the click target) too.
    pub fn token(&self, r: Recipient, extra: &str) -> String {
        let payload =
            URL_SAFE_NO_PAD.encode(format!("{}:{}:{}", r.client_id, r.mailing_id, r.contact_id));
        let sig = self
            .mac(&payload, extra)
            .map(|mac| URL_SAFE_NO_PAD.encode(&mac.finalize().into_bytes()[..SIG_LEN]))
            .unwrap_or_default();
        format!("{payload}.{sig}")
    }

    /// The recipient of a genuine token; `None` for anything forged or malformed.
    pub fn verify(&self, token: &str, extra: &str) -> Option<Recipient> {
        let (payload, sig) = token.split_once('.')?;
        let sig = URL_SAFE_NO_PAD.decode(sig).ok()?;
        if sig.len() != SIG_LEN {
            return None;
        }
        // The hmac crate compares in constant time.
        self.mac(payload, extra)?.verify_truncated_left(&sig).ok()?;
        let decoded = String::from_utf8(URL_SAFE_NO_PAD.decode(payload).ok()?).ok()?;
        let mut parts = decoded.split(':').map(|p| p.parse::<i64>().ok());
        let (client_id, mailing_id, contact_id) = (parts.next()??, parts.next()??, parts.next()??);
        Some(Recipient {
            client_id,
            mailing_id,
            contact_id,
        })
    }

    pub fn open_url(&self, r: Recipient) -> String {
        format!("{}/api/track/open/{}", self.base_url, self.token(r, "open"))
    }

    pub fn click_url(&self, r: Recipient, target: &str) -> String {
        let encoded = percent_encode(target.as_bytes(), TARGET);
        format!(
            "{}/api/track/click/{}?u={encoded}",
            self.base_url,
            self.token(r, target)
        )
    }

    pub fn unsubscribe_url(&self, r: Recipient) -> String {
        format!(
            "{}/api/unsubscribe/{}",
            self.base_url,
            self.token(r, "unsubscribe")
        )
    }

    /// Adds tracking to a rendered body: http(s) links go through the click redirect, an unsubscribe link is
    /// added at the end (or fills `{{Unsubscribe}}`), and a 1×1 open pixel follows it.
    pub fn instrument(&self, html: &str, r: Recipient) -> String {
        let mut out = rewrite_links(html, |url| {
            (url.starts_with("http://") || url.starts_with("https://"))
                .then(|| self.click_url(r, url))
        });
        let unsubscribe = format!(
            "<p style=\"font-size:12px;color:#666666\"><a href=\"{}\">Unsubscribe</a></p>",
            self.unsubscribe_url(r)
        );
        let pixel = format!(
            "<img src=\"{}\" width=\"1\" height=\"1\" alt=\"\" style=\"display:block\">",
            self.open_url(r)
        );
        if out.contains("{{Unsubscribe}}") {
            out = out.replace("{{Unsubscribe}}", &unsubscribe);
            out.push_str(&pixel);
        } else {
            out.push_str(&unsubscribe);
            out.push_str(&pixel);
        }
        out
    }
}

/// Donation platforms' hosts whose links get a refcode; a host matches itself and its subdomains.
pub const DONATION_HOSTS: [&str; 4] = [
    "secure.actblue.com",
    "actblue.com",
    "secure.winred.com",
    "winred.com",
];

fn is_donation_host(host: &str, extra: &[String]) -> bool {
    let host = host.to_ascii_lowercase();
    DONATION_HOSTS
        .iter()
        .copied()
        .chain(extra.iter().map(String::as_str))
        .map(|d| d.trim().trim_start_matches('.').to_ascii_lowercase())
        .filter(|d| !d.is_empty())
        .any(|d| host == d || host.ends_with(&format!(".{d}")))
}

/// The refcode a mailing gives its donation links, from the client's pattern (`em_{yyyymmdd}_{mailing}_{variant}`).
/// `{mailing}` is the mailing's id: names change and collide, ids do neither.
pub fn mailing_refcode(
    pattern: &str,
    date: chrono::NaiveDate,
    mailing_id: i64,
    variant: &str,
) -> String {
    pattern
        .replace("{yyyymmdd}", &date.format("%Y%m%d").to_string())
        .replace("{date:yyyymmdd}", &date.format("%Y%m%d").to_string())
        .replace("{yymmdd}", &date.format("%y%m%d").to_string())
        .replace("{mailing}", &mailing_id.to_string())
        .replace("{variant}", variant)
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .collect()
}

/// Gives every donation link (`href="…"` to a donation host) that has no `refcode` this one, so a gift made from
/// the mailing names it exactly. Returns the body and whether any link was tagged.
pub fn add_refcodes(html: &str, extra_hosts: &[String], refcode: &str) -> (String, bool) {
    let mut tagged = false;
    let out = rewrite_links(html, |url| {
        let mut link = url::Url::parse(url).ok()?;
        let donation = matches!(link.scheme(), "http" | "https")
            && link
                .host_str()
                .is_some_and(|h| is_donation_host(h, extra_hosts))
            && !link.query_pairs().any(|(k, _)| k == "refcode");
        if !donation {
            return None;
        }
        link.query_pairs_mut().append_pair("refcode", refcode);
        tagged = true;
        Some(link.into())
    });
    (out, tagged)
}

/// Gives every link (`<a href>`, `<area href>`) the target `rewrite` returns for it, leaving those it answers
/// `None` for. The HTML is read as a browser reads it (any quoting or case, no matter what else is in the text),
/// by lol_html; targets go to `rewrite` and come back unescaped (`&amp;` is `&`).
fn rewrite_links(html: &str, mut rewrite: impl FnMut(&str) -> Option<String>) -> String {
    let links = element!("a[href], area[href]", |el| {
        if let Some(raw) = el.get_attribute("href") {
            if let Some(target) = rewrite(raw.trim().replace("&amp;", "&").as_str()) {
                el.set_attribute("href", &target.replace('&', "&amp;"))?;
            }
        }
        Ok(())
    });
    let settings = RewriteStrSettings::new().append_element_content_handler(links);
    // lol_html reads any text as HTML; it fails only if a handler does, and ours fails only on an attribute
    // name, which is fixed. Should it fail all the same, the body goes out as written rather than not at all.
    rewrite_str(html, settings).unwrap_or_else(|e| {
        tracing::error!(error = %e, "links could not be rewritten");
        html.to_owned()
    })
}

/// Tags a mailing's donation links with its refcode (once per send, before each recipient's links are signed) and
/// records the code as a source code tied to the mailing, so an imported gift carrying it is credited exactly.
pub async fn refcode_donation_links(
    conn: &mut sqlx::PgConnection,
    mailing_id: i64,
    variant: &str,
    body: &str,
) -> Result<String, sqlx::Error> {
    let (pattern, code_pattern, hosts, today): (String, String, Vec<String>, chrono::NaiveDate) =
        sqlx::query_as(
            // The date is the mailing's own (its send time, in the client's zone), so a resumed send on
            // another day writes the same code.
            "select a.mailing_refcode_pattern, a.refcode_pattern, a.donation_domains,
                    (coalesce(m.send_time, m.send_attempt, now())
                     at time zone coalesce((select z.name from pg_timezone_names z where z.name = a.time_zone),
                                           'UTC'))::date
             from app_settings a, mailings m where m.id = $1 limit 1",
        )
        .bind(mailing_id)
        .fetch_one(&mut *conn)
        .await?;
    let refcode = mailing_refcode(&pattern, today, mailing_id, variant);
    let (tagged_body, tagged) = add_refcodes(body, &hosts, &refcode);
    if tagged && !refcode.is_empty() {
        let parts = domain::CodePattern::new(&code_pattern).parse(&refcode);
        sqlx::query(
            "insert into source_codes (code, parsed, channel, code_date, campaign, variant, mailing_id)
             values ($1, $2, $3, $4, $5, $6, $7)
             on conflict (code) do update set mailing_id = coalesce(source_codes.mailing_id, excluded.mailing_id)",
        )
        .bind(&refcode)
        .bind(parts.parsed)
        .bind(parts.channel)
        .bind(parts.date)
        .bind(parts.campaign)
        .bind(parts.variant)
        .bind(mailing_id)
        .execute(&mut *conn)
        .await?;
    }
    Ok(tagged_body)
}

/// Tags a test copy's donation links with the refcode the mailing's send will give them (its send time, or now,
/// in the client's zone), without recording the code: a test is not a send. An unsaved mailing counts as 0.
pub async fn refcode_test_links(
    conn: &mut sqlx::PgConnection,
    mailing_id: i64,
    send_time: Option<chrono::DateTime<chrono::Utc>>,
    variant: &str,
    body: &str,
) -> Result<String, sqlx::Error> {
    let (pattern, hosts, day): (String, Vec<String>, chrono::NaiveDate) = sqlx::query_as(
        "select a.mailing_refcode_pattern, a.donation_domains,
                (coalesce($1, (select coalesce(m.send_time, m.send_attempt) from mailings m where m.id = $2), now())
                 at time zone coalesce((select z.name from pg_timezone_names z where z.name = a.time_zone),
                                       'UTC'))::date
         from app_settings a limit 1",
    )
    .bind(send_time)
    .bind(mailing_id)
    .fetch_one(&mut *conn)
    .await?;
    let refcode = mailing_refcode(&pattern, day, mailing_id, variant);
    if refcode.is_empty() {
        return Ok(body.to_owned());
    }
    Ok(add_refcodes(body, &hosts, &refcode).0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const R: Recipient = Recipient {
        client_id: 3,
        mailing_id: 7,
        contact_id: 42,
    };

    #[test]
    fn tokens_verify_and_forgeries_do_not() {
        let signer = LinkSigner::new("secret-one", "https://c.example");
        let token = signer.token(R, "open");
        assert_eq!(signer.verify(&token, "open"), Some(R));
        assert_eq!(signer.verify(&token, "unsubscribe"), None);
        assert_eq!(
            LinkSigner::new("secret-two", "https://c.example").verify(&token, "open"),
            None
        );
        let other = URL_SAFE_NO_PAD.encode("3:7:43");
        let forged = format!("{other}.{}", token.split_once('.').unwrap().1);
        assert_eq!(signer.verify(&forged, "open"), None);
        assert_eq!(signer.verify("garbage", "open"), None);
    }

    #[test]
    fn links_are_rewritten_and_a_click_token_signs_its_target() {
        let signer = LinkSigner::new("s", "https://c.example/");
        let html = signer.instrument("<a href=\"https://act.example/give?a=1&amp;b=2\">Give</a> <a href=\"mailto:x@y.org\">m</a>", R);
        assert!(html.contains("https://c.example/api/track/click/"));
        assert!(
            html.contains("u=https%3A%2F%2Fact.example%2Fgive%3Fa%3D1%26b%3D2"),
            "{html}"
        );
        assert!(html.contains("href=\"mailto:x@y.org\""));
        assert!(html.contains("/api/unsubscribe/") && html.contains("/api/track/open/"));
        let click = signer.click_url(R, "https://act.example/give");
        let token = click
            .split("/click/")
            .nth(1)
            .unwrap()
            .split('?')
            .next()
            .unwrap();
        assert_eq!(signer.verify(token, "https://act.example/give"), Some(R));
        assert_eq!(signer.verify(token, "https://evil.example/"), None);
    }

    #[test]
    fn links_are_found_as_a_browser_reads_them_and_text_is_left_alone() {
        let signer = LinkSigner::new("s", "https://c.example");
        let html = signer.instrument(
            "<p>Write href=\"https://text.example\" to link.</p>\
             <A HREF='https://single.example/?a=1&amp;b=2'>one</A>\
             <a class=x href=https://bare.example>two</a>",
            R,
        );
        assert!(
            html.contains("Write href=\"https://text.example\" to link."),
            "{html}"
        );
        assert_eq!(html.matches("/api/track/click/").count(), 2, "{html}");
        assert!(
            html.contains("u=https%3A%2F%2Fsingle.example%2F%3Fa%3D1%26b%3D2"),
            "{html}"
        );
        assert!(html.contains("u=https%3A%2F%2Fbare.example"), "{html}");
        let (tagged, any) = add_refcodes(
            "<a href='https://secure.actblue.com/donate/x'>Give</a>",
            &[],
            "em_1",
        );
        assert!(any);
        assert!(
            tagged.contains("https://secure.actblue.com/donate/x?refcode=em_1"),
            "{tagged}"
        );
    }

    #[test]
    fn donation_links_without_a_refcode_get_the_mailings() {
        let html = "<a href=\"https://secure.actblue.com/donate/fund?amount=5&amp;x=1\">Give</a>\
                    <a href=\"https://secure.winred.com/page?refcode=own\">Keep</a>\
                    <a href=\"https://give.example.org/p\">Ours</a>\
                    <a href=\"https://example.com/actblue.com\">Not</a>\
                    <a href=\"https://notactblue.com/x\">Not either</a>";
        let (out, tagged) = add_refcodes(html, &["give.example.org".to_owned()], "em_20261123_7_a");
        assert!(tagged);
        assert!(out.contains(
            "href=\"https://secure.actblue.com/donate/fund?amount=5&amp;x=1&amp;refcode=em_20261123_7_a\""
        ), "{out}");
        assert!(out.contains("href=\"https://secure.winred.com/page?refcode=own\""));
        assert!(out.contains("href=\"https://give.example.org/p?refcode=em_20261123_7_a\""));
        assert!(out.contains("href=\"https://example.com/actblue.com\""));
        assert!(out.contains("href=\"https://notactblue.com/x\""));
        assert!(!add_refcodes("<a href=\"https://x.org\">x</a>", &[], "c").1);
    }

    #[test]
    fn the_mailing_refcode_follows_the_pattern() {
        let date = chrono::NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
        assert_eq!(
            mailing_refcode("em_{yyyymmdd}_{mailing}_{variant}", date, 42, "a"),
            "em_20261123_42_a"
        );
    }
}
