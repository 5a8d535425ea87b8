//! The mailbox provider of recipients at custom domains, by their domain's MX hosts: a Google Workspace or
//! Microsoft 365 domain is paced with Gmail or Microsoft, not as "other". Each domain is looked up once (a short
//! timeout, a few at a time) and the answer kept in a bounded cache shared by every send: an hour for an answer,
//! five minutes when DNS did not answer, so a resolver that is down costs each domain one timeout, not one a batch.

use domain::MailboxProvider;
use futures::stream::{self, StreamExt};
use mail::dns::{Dns, DnsConfigError, Mx};
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// How long a domain's answer (MX hosts, or none) is kept.
const ANSWER_KEPT: Duration = Duration::from_secs(60 * 60);
/// How long a domain whose lookup failed is taken as other before it is asked again.
const FAILURE_KEPT: Duration = Duration::from_secs(5 * 60);
/// Domains kept at most (about 100 bytes each).
const CAPACITY: u64 = 100_000;
/// One query's wait; asked twice at most.
const QUERY_TIMEOUT: Duration = Duration::from_secs(1);
const ATTEMPTS: usize = 2;
/// Lookups in flight at once for one batch.
const AT_ONCE: usize = 32;

#[derive(Debug, Clone, Copy)]
struct Answer {
    provider: MailboxProvider,
    /// DNS answered (with MX hosts or without); false when it could not be asked.
    heard: bool,
}

struct Lifetime;

impl moka::Expiry<String, Answer> for Lifetime {
    fn expire_after_create(&self, _: &String, answer: &Answer, _: Instant) -> Option<Duration> {
        Some(if answer.heard {
            ANSWER_KEPT
        } else {
            FAILURE_KEPT
        })
    }
}

/// The MX lookups and their cache; clones share both.
#[derive(Clone)]
pub struct MxProviders {
    dns: Dns,
    cache: moka::sync::Cache<String, Answer>,
}

impl MxProviders {
    /// Asks `nameserver` (ip:port, `DNS_RESOLVER`), or the system's resolver when `None`.
    pub fn new(nameserver: Option<&str>) -> Result<Self, DnsConfigError> {
        Ok(Self {
            dns: Dns::with_timeout(nameserver, QUERY_TIMEOUT, ATTEMPTS)?,
            cache: moka::sync::Cache::builder()
                .max_capacity(CAPACITY)
                .expire_after(Lifetime)
                .build(),
        })
    }

    /// The provider of each custom domain among `emails` (the domains [`MailboxProvider::of`] calls other), from
    /// the cache or looked up now.
    pub async fn of_domains<'a>(
        &self,
        emails: impl IntoIterator<Item = &'a str>,
    ) -> HashMap<String, MailboxProvider> {
        let mut known = HashMap::new();
        let mut unknown = HashSet::new();
        for email in emails {
            if MailboxProvider::of(email) != MailboxProvider::Other {
                continue;
            }
            let Some(domain) = domain_of(email) else {
                continue;
            };
            if known.contains_key(&domain) || unknown.contains(&domain) {
                continue;
            }
            match self.cache.get(&domain) {
                Some(answer) => {
                    known.insert(domain, answer.provider);
                }
                None => {
                    unknown.insert(domain);
                }
            }
        }
        let looked_up: Vec<(String, Answer)> = stream::iter(unknown)
            .map(|domain| async move {
                let answer = self.look_up(&domain).await;
                (domain, answer)
            })
            .buffer_unordered(AT_ONCE)
            .collect()
            .await;
        for (domain, answer) in looked_up {
            self.cache.insert(domain.clone(), answer);
            known.insert(domain, answer.provider);
        }
        known
    }

    async fn look_up(&self, domain: &str) -> Answer {
        match self.dns.mx(domain).await {
            Mx::Found(records) => Answer {
                provider: MailboxProvider::of_mx(&records),
                heard: true,
            },
            Mx::None => Answer {
                provider: MailboxProvider::Other,
                heard: true,
            },
            Mx::Failed(e) => {
                tracing::debug!(domain, error = %e, "MX lookup failed; paced as other");
                Answer {
                    provider: MailboxProvider::Other,
                    heard: false,
                }
            }
        }
    }
}

/// The provider of `email`: by its domain, else by its domain's MX hosts as `by_domain` has them.
pub fn provider_of(email: &str, by_domain: &HashMap<String, MailboxProvider>) -> MailboxProvider {
    match MailboxProvider::of(email) {
        MailboxProvider::Other => domain_of(email)
            .and_then(|d| by_domain.get(&d).copied())
            .unwrap_or(MailboxProvider::Other),
        known => known,
    }
}

/// The domain of an address as DNS asks for it; `None` for what cannot be a domain name.
fn domain_of(email: &str) -> Option<String> {
    let domain = email
        .rsplit_once('@')?
        .1
        .trim()
        .trim_end_matches('.')
        .to_ascii_lowercase();
    let fits = domain.len() <= 253
        && domain.contains('.')
        && domain
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
    fits.then_some(domain)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_names_dns_can_ask_for_are_looked_up() {
        assert_eq!(domain_of("a@Example.ORG").as_deref(), Some("example.org"));
        assert_eq!(domain_of("a@example.org.").as_deref(), Some("example.org"));
        assert_eq!(domain_of("no-at-sign"), None);
        assert_eq!(domain_of("a@localhost"), None);
        assert_eq!(domain_of("a@exa mple.org"), None);
    }

    #[test]
    fn a_known_domain_keeps_its_provider_and_a_custom_one_takes_its_mx_answer() {
        let by_domain = HashMap::from([
            ("workspace.example".to_owned(), MailboxProvider::Gmail),
            ("gmail.com".to_owned(), MailboxProvider::Microsoft),
        ]);
        assert_eq!(
            provider_of("a@Workspace.example", &by_domain),
            MailboxProvider::Gmail
        );
        assert_eq!(
            provider_of("b@gmail.com", &by_domain),
            MailboxProvider::Gmail
        );
        assert_eq!(
            provider_of("c@elsewhere.example", &by_domain),
            MailboxProvider::Other
        );
    }
}
