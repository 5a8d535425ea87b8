//! The DNS resolver of the domain check (api) and of the mailbox-provider lookup (worker): the nameserver of
//! `DNS_RESOLVER` (ip:port), or the system's when unset. The resolver caches nothing, so a record just fixed shows
//! at the next check; the worker keeps its own bounded cache of what it concluded.

use hickory_resolver::config::{NameServerConfigGroup, ResolverConfig, ResolverOpts};
use hickory_resolver::name_server::TokioConnectionProvider;
use hickory_resolver::TokioResolver;
use std::net::SocketAddr;
use std::time::Duration;

#[derive(Debug, thiserror::Error)]
pub enum DnsConfigError {
    #[error("DNS_RESOLVER must be ip:port, e.g. 127.0.0.1:53 (got {0:?})")]
    Address(String),
    #[error("the system's DNS configuration: {0}")]
    System(String),
}

/// A TXT lookup's outcome: the records, none (no such name or no TXT there), or a failure to ask.
pub enum Txt {
    Found(Vec<String>),
    None,
    Failed(String),
}

/// An MX lookup's outcome: (preference, host without the final dot, lower case), none, or a failure to ask.
#[derive(Debug, PartialEq, Eq)]
pub enum Mx {
    Found(Vec<(u16, String)>),
    None,
    Failed(String),
}

#[derive(Clone)]
pub struct Dns {
    resolver: TokioResolver,
    /// The longest one lookup may take, retries included.
    limit: Duration,
}

impl Dns {
    /// The domain check's resolver: 3 s a query, asked twice.
    pub fn new(nameserver: Option<&str>) -> Result<Self, DnsConfigError> {
        Self::with_timeout(nameserver, Duration::from_secs(3), 2)
    }

    /// A resolver whose queries wait `timeout` each, `attempts` times at most.
    pub fn with_timeout(
        nameserver: Option<&str>,
        timeout: Duration,
        attempts: usize,
    ) -> Result<Self, DnsConfigError> {
        let (config, mut options) = match nameserver.map(str::trim).filter(|s| !s.is_empty()) {
            Some(addr) => {
                let addr: SocketAddr = addr
                    .parse()
                    .map_err(|_| DnsConfigError::Address(addr.to_owned()))?;
                (
                    ResolverConfig::from_parts(
                        None,
                        vec![],
                        NameServerConfigGroup::from_ips_clear(&[addr.ip()], addr.port(), true),
                    ),
                    ResolverOpts::default(),
                )
            }
            None => hickory_resolver::system_conf::read_system_conf()
                .map_err(|e| DnsConfigError::System(e.to_string()))?,
        };
        options.cache_size = 0;
        options.timeout = timeout;
        options.attempts = attempts.max(1);
        Ok(Self {
            resolver: TokioResolver::builder_with_config(
                config,
                TokioConnectionProvider::default(),
            )
            .with_options(options)
            .build(),
            // Each nameserver's attempts, and a little for the answer's way back.
            limit: timeout * u32::try_from(attempts.max(1)).unwrap_or(1)
                + Duration::from_millis(250),
        })
    }

    fn fqdn(name: &str) -> String {
        format!("{}.", name.trim_end_matches('.'))
    }

    /// The TXT records at `name`, each record's strings joined (as SPF, DKIM and DMARC read them).
    pub async fn txt(&self, name: &str) -> Txt {
        let lookup = self.resolver.txt_lookup(Self::fqdn(name));
        match tokio::time::timeout(self.limit, lookup).await {
            Err(_) => Txt::Failed("no answer in time".to_owned()),
            Ok(Ok(lookup)) => Txt::Found(
                lookup
                    .iter()
                    .map(|txt| {
                        txt.txt_data()
                            .iter()
                            .map(|part| String::from_utf8_lossy(part).into_owned())
                            .collect::<String>()
                    })
                    .collect(),
            ),
            Ok(Err(e)) if e.is_no_records_found() || e.is_nx_domain() => Txt::None,
            Ok(Err(e)) => Txt::Failed(e.to_string()),
        }
    }

    /// The MX records of `domain`, most preferred first.
    pub async fn mx(&self, domain: &str) -> Mx {
        let lookup = self.resolver.mx_lookup(Self::fqdn(domain));
        match tokio::time::timeout(self.limit, lookup).await {
            Err(_) => Mx::Failed("no answer in time".to_owned()),
            Ok(Ok(lookup)) => {
                let mut hosts: Vec<(u16, String)> = lookup
                    .iter()
                    .map(|mx| {
                        let host = mx.exchange().to_ascii().to_ascii_lowercase();
                        (mx.preference(), host.trim_end_matches('.').to_owned())
                    })
                    .collect();
                hosts.sort();
                Mx::Found(hosts)
            }
            Ok(Err(e)) if e.is_no_records_found() || e.is_nx_domain() => Mx::None,
            Ok(Err(e)) => Mx::Failed(e.to_string()),
        }
    }
}
