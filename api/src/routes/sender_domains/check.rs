//! The domain check: the SPF, DKIM and DMARC records of a sender domain as DNS has them, whether mail from the
//! domain passes DMARC (an aligned SPF or DKIM pass), and what to change, in plain sentences.

use crate::dns::{Dns, Txt};
use poem_openapi::{Enum, Object};
use store::deliverability::sender_domains::SenderDomain;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum RecordStatus {
    /// Published and right.
    Ok,
    /// Not published.
    Missing,
    /// Published but wrong (another key, two SPF records, no policy …).
    Wrong,
    /// DNS did not answer.
    Unknown,
}

/// One record of the check.
#[derive(Debug, Object)]
pub struct RecordCheck {
    /// The name looked up.
    pub name: String,
    /// The records found there that matter (SPF, DKIM or DMARC ones).
    pub found: Vec<String>,
    pub status: RecordStatus,
    /// What is right or wrong with it, in a sentence.
    pub note: String,
}

#[derive(Debug, Object)]
pub struct DomainCheck {
    #[oai(rename = "senderDomainId")]
    pub sender_domain_id: i64,
    pub domain: String,
    pub spf: RecordCheck,
    pub dkim: RecordCheck,
    pub dmarc: RecordCheck,
    /// Whether the From domain aligns: DKIM passes for it, or SPF passes for an envelope domain DMARC accepts.
    pub aligned: bool,
    /// What to change, one sentence each; empty when nothing needs changing.
    pub advice: Vec<String>,
}

/// Looks the domain's records up and judges them.
pub async fn check(dns: &Dns, row: &SenderDomain) -> DomainCheck {
    let dkim_name = format!("{}._domainkey.{}", row.dkim_selector, row.domain);
    let dmarc_name = format!("_dmarc.{}", row.domain);
    let (spf, dkim, dmarc) = tokio::join!(
        dns.txt(&row.domain),
        dns.txt(&dkim_name),
        dns.txt(&dmarc_name)
    );
    assess(row, spf, dkim, dmarc)
}

/// A tag's value in a `k=v; k=v` record (DKIM, DMARC), tag names compared without case.
fn tag<'a>(record: &'a str, name: &str) -> Option<&'a str> {
    record.split(';').find_map(|part| {
        let (k, v) = part.split_once('=')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

/// The organisational domain DMARC's relaxed alignment compares (RFC 7489 §3.2): the public suffix (from the
/// Public Suffix List built into the `psl` crate, ICANN and private sections) and one label more, so
/// `mail.example.co.uk` belongs to `example.co.uk`, not `co.uk`. A name that is itself a public suffix, or that
/// the list cannot read, is its own organisational domain.
fn org_domain(domain: &str) -> String {
    let domain = domain.trim_end_matches('.').to_ascii_lowercase();
    psl::domain_str(&domain)
        .unwrap_or(domain.as_str())
        .to_owned()
}

fn aligns(from: &str, other: &str, strict: bool) -> bool {
    if strict {
        from.eq_ignore_ascii_case(other)
    } else {
        org_domain(from) == org_domain(other)
    }
}

pub fn assess(row: &SenderDomain, spf: Txt, dkim: Txt, dmarc: Txt) -> DomainCheck {
    let domain = row.domain.as_str();
    let envelope = row.bounce_domain.as_deref().unwrap_or(domain);
    let mut advice = Vec::new();

    // SPF: one `v=spf1` record at the domain.
    let spf = match spf {
        Txt::Failed(e) => unknown(domain, &e),
        Txt::None => missing(domain),
        Txt::Found(all) => {
            let found: Vec<String> = all
                .into_iter()
                .filter(|r| r.trim_start().to_ascii_lowercase().starts_with("v=spf1"))
                .collect();
            match found.len() {
                0 => RecordCheck {
                    found,
                    ..missing(domain)
                },
                1 => RecordCheck {
                    name: domain.to_owned(),
                    found,
                    status: RecordStatus::Ok,
                    note: "One SPF record is published.".to_owned(),
                },
                _ => RecordCheck {
                    name: domain.to_owned(),
                    found,
                    status: RecordStatus::Wrong,
                    note: "More than one SPF record: receivers treat that as an error.".to_owned(),
                },
            }
        }
    };
    match spf.status {
        RecordStatus::Missing => advice.push(format!(
            "Publish an SPF record at {domain} naming the servers that send its mail, e.g. \"v=spf1 include:<your relay> ~all\"."
        )),
        RecordStatus::Wrong => advice.push(format!(
            "Merge the SPF records at {domain} into one."
        )),
        _ => {}
    }

    // DKIM: the key Compass signs with, at selector._domainkey.
    let dkim_name = format!("{}._domainkey.{domain}", row.dkim_selector);
    let expected = row.dkim_public_key.as_deref().unwrap_or("");
    let expected_k = if row.dkim_algorithm == "ed25519" {
        "ed25519"
    } else {
        "rsa"
    };
    let record = mail::dkim::dns_record(
        mail::dkim::Algorithm::parse(&row.dkim_algorithm).unwrap_or(mail::dkim::Algorithm::Rsa),
        expected,
    );
    let dkim = match dkim {
        Txt::Failed(e) => unknown(&dkim_name, &e),
        Txt::None => missing(&dkim_name),
        Txt::Found(all) => {
            let found: Vec<String> = all
                .into_iter()
                .filter(|r| tag(r, "p").is_some() || tag(r, "v") == Some("DKIM1"))
                .collect();
            let matches = found.iter().any(|r| {
                let p: String = tag(r, "p")
                    .unwrap_or("")
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .collect();
                let k = tag(r, "k").unwrap_or("rsa");
                !expected.is_empty() && p == expected && k.eq_ignore_ascii_case(expected_k)
            });
            if found.is_empty() {
                RecordCheck {
                    found,
                    ..missing(&dkim_name)
                }
            } else if matches {
                RecordCheck {
                    name: dkim_name.clone(),
                    found,
                    status: RecordStatus::Ok,
                    note: "The published key is the one Compass signs with.".to_owned(),
                }
            } else {
                RecordCheck {
                    name: dkim_name.clone(),
                    found,
                    status: RecordStatus::Wrong,
                    note: "The published key is not the one Compass signs with.".to_owned(),
                }
            }
        }
    };
    match dkim.status {
        RecordStatus::Missing => advice.push(format!(
            "Publish the DKIM record shown above: {dkim_name} TXT \"{record}\"."
        )),
        RecordStatus::Wrong => advice.push(format!(
            "Replace the TXT record at {dkim_name} with \"{record}\"."
        )),
        _ => {}
    }

    // DMARC: a `v=DMARC1` record with a policy at _dmarc.
    let dmarc_name = format!("_dmarc.{domain}");
    let (mut strict_spf, mut strict_dkim) = (false, false);
    let dmarc = match dmarc {
        Txt::Failed(e) => unknown(&dmarc_name, &e),
        Txt::None => missing(&dmarc_name),
        Txt::Found(all) => {
            let found: Vec<String> = all
                .into_iter()
                .filter(|r| tag(r, "v").is_some_and(|v| v.eq_ignore_ascii_case("DMARC1")))
                .collect();
            if let Some(first) = found.first() {
                strict_spf = tag(first, "aspf").is_some_and(|v| v.eq_ignore_ascii_case("s"));
                strict_dkim = tag(first, "adkim").is_some_and(|v| v.eq_ignore_ascii_case("s"));
            }
            let policy = found.first().and_then(|r| tag(r, "p")).map(str::to_owned);
            match (found.len(), policy) {
                (0, _) => RecordCheck {
                    found,
                    ..missing(&dmarc_name)
                },
                (1, Some(p)) if ["none", "quarantine", "reject"].contains(&p.as_str()) => {
                    RecordCheck {
                        name: dmarc_name.clone(),
                        found,
                        status: RecordStatus::Ok,
                        note: format!("A DMARC policy is published (p={p})."),
                    }
                }
                (1, _) => RecordCheck {
                    name: dmarc_name.clone(),
                    found,
                    status: RecordStatus::Wrong,
                    note: "The DMARC record has no valid policy (p=none, quarantine or reject)."
                        .to_owned(),
                },
                _ => RecordCheck {
                    name: dmarc_name.clone(),
                    found,
                    status: RecordStatus::Wrong,
                    note: "More than one DMARC record: receivers ignore them all.".to_owned(),
                },
            }
        }
    };
    match dmarc.status {
        RecordStatus::Missing => advice.push(format!(
            "Publish a DMARC record at {dmarc_name}, at least \"v=DMARC1; p=none\"; Gmail, Yahoo and Microsoft require one of bulk senders."
        )),
        RecordStatus::Wrong => advice.push(format!(
            "Publish one DMARC record at {dmarc_name} with a policy, e.g. \"v=DMARC1; p=none\"."
        )),
        _ => {}
    }

    // Alignment: Compass signs with d= the From domain, so a good DKIM record aligns even under adkim=s; SPF
    // aligns when the envelope (bounce) domain is the From domain's, or its exact name under aspf=s.
    let dkim_aligned = dkim.status == RecordStatus::Ok && aligns(domain, domain, strict_dkim);
    let spf_aligned = spf.status == RecordStatus::Ok && aligns(domain, envelope, strict_spf);
    let aligned = dkim_aligned || spf_aligned;
    if !aligned {
        advice.push(if envelope != domain && !aligns(domain, envelope, strict_spf) {
            format!(
                "Mail from {domain} does not align: its bounce domain {envelope} is not {domain}'s, so SPF cannot align; publish the DKIM record so DKIM aligns, or use a bounce domain under {domain}."
            )
        } else {
            format!(
                "Mail from {domain} does not align yet: publish the DKIM record (or an SPF record for {envelope}) so DMARC passes."
            )
        });
    }
    DomainCheck {
        sender_domain_id: row.id,
        domain: domain.to_owned(),
        spf,
        dkim,
        dmarc,
        aligned,
        advice,
    }
}

fn missing(name: &str) -> RecordCheck {
    RecordCheck {
        name: name.to_owned(),
        found: Vec::new(),
        status: RecordStatus::Missing,
        note: "No record is published.".to_owned(),
    }
}

fn unknown(name: &str, error: &str) -> RecordCheck {
    RecordCheck {
        name: name.to_owned(),
        found: Vec::new(),
        status: RecordStatus::Unknown,
        note: format!("DNS did not answer: {error}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(bounce: Option<&str>) -> SenderDomain {
        SenderDomain {
            id: 1,
            domain: "example.org".into(),
            bounce_domain: bounce.map(Into::into),
            dkim_selector: "compass".into(),
            dkim_algorithm: "ed25519".into(),
            dkim_public_key: Some("KEY=".into()),
            warmup_start: None,
            warmup_daily_cap: None,
            warmup_growth_percent: 50,
            created: chrono::Utc::now(),
        }
    }

    fn spf() -> Txt {
        Txt::Found(vec!["v=spf1 -all".into()])
    }

    #[test]
    fn spf_aligns_for_a_bounce_subdomain_unless_dmarc_asks_for_strict_alignment() {
        let relaxed = assess(
            &row(Some("bounces.example.org")),
            spf(),
            Txt::None,
            Txt::Found(vec!["v=DMARC1; p=none".into()]),
        );
        assert!(relaxed.aligned);
        let strict = assess(
            &row(Some("bounces.example.org")),
            spf(),
            Txt::None,
            Txt::Found(vec!["v=DMARC1; p=none; aspf=s".into()]),
        );
        assert!(!strict.aligned);
        // The right DKIM key aligns whatever the SPF alignment.
        let signed = assess(
            &row(Some("bounces.elsewhere.net")),
            spf(),
            Txt::Found(vec!["v=DKIM1; k=ed25519; p=KEY=".into()]),
            Txt::Found(vec!["v=DMARC1; p=reject; aspf=s; adkim=s".into()]),
        );
        assert_eq!(signed.dkim.status, RecordStatus::Ok);
        assert!(signed.aligned);
        assert!(signed.advice.is_empty(), "{:?}", signed.advice);
    }

    #[test]
    fn the_organisational_domain_follows_the_public_suffix_list() {
        assert_eq!(org_domain("mail.example.co.uk"), "example.co.uk");
        assert_eq!(org_domain("Bounces.Mail.Example.CO.UK."), "example.co.uk");
        assert_eq!(org_domain("example.org"), "example.org");
        assert_eq!(org_domain("news.example.org"), "example.org");
        assert_eq!(org_domain("a.b.example.com.au"), "example.com.au");
        // Private registries count too: two sites under github.io belong to two owners.
        assert_eq!(org_domain("alice.github.io"), "alice.github.io");
        // A public suffix is its own organisational domain.
        assert_eq!(org_domain("co.uk"), "co.uk");

        // Relaxed alignment: the same organisational domain, not the same last two labels.
        assert!(aligns("example.co.uk", "bounces.example.co.uk", false));
        assert!(aligns("news.example.co.uk", "bounces.example.co.uk", false));
        assert!(!aligns("example.co.uk", "other.co.uk", false));
        assert!(!aligns("alice.github.io", "bob.github.io", false));
        assert!(aligns("example.org", "bounces.example.org", false));
        assert!(!aligns("example.org", "bounces.example.org", true));
        assert!(aligns("Example.org", "example.ORG", true));
    }

    #[test]
    fn an_envelope_under_a_sibling_in_a_two_label_suffix_does_not_align() {
        let under = |bounce: &str| SenderDomain {
            domain: "giving.example.co.uk".into(),
            ..row(Some(bounce))
        };
        let dmarc = || Txt::Found(vec!["v=DMARC1; p=none".into()]);
        let sibling = assess(&under("bounces.other.co.uk"), spf(), Txt::None, dmarc());
        assert!(!sibling.aligned, "other.co.uk is another organisation");
        let ours = assess(&under("bounces.example.co.uk"), spf(), Txt::None, dmarc());
        assert!(ours.aligned, "{:?}", ours.advice);
    }

    #[test]
    fn two_spf_records_and_a_dmarc_record_without_a_policy_are_wrong() {
        let check = assess(
            &row(None),
            Txt::Found(vec!["v=spf1 -all".into(), "v=spf1 ~all".into()]),
            Txt::Failed("timed out".into()),
            Txt::Found(vec!["v=DMARC1; rua=mailto:d@example.org".into()]),
        );
        assert_eq!(check.spf.status, RecordStatus::Wrong);
        assert_eq!(check.dkim.status, RecordStatus::Unknown);
        assert_eq!(check.dmarc.status, RecordStatus::Wrong);
        assert!(!check.aligned);
    }
}
