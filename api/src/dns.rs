//! The DNS resolver of the domain check: the nameserver of `DNS_RESOLVER` (ip:port), or the system's when unset.
//! Answers are not cached, so a record just fixed shows at the next check.

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

#[derive(Clone)]
pub struct Dns {
    resolver: TokioResolver,
}

impl Dns {
    pub fn new(nameserver: Option<&str>) -> Result<Self, DnsConfigError> {
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
        options.timeout = Duration::from_secs(3);
        options.attempts = 2;
        Ok(Self {
            resolver: TokioResolver::builder_with_config(
                config,
                TokioConnectionProvider::default(),
            )
            .with_options(options)
            .build(),
        })
    }

    /// The TXT records at `name`, each record's strings joined (as SPF, DKIM and DMARC read them).
    pub async fn txt(&self, name: &str) -> Txt {
        let fqdn = format!("{}.", name.trim_end_matches('.'));
        match self.resolver.txt_lookup(fqdn).await {
            Ok(lookup) => Txt::Found(
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
            Err(e) if e.is_no_records_found() || e.is_nx_domain() => Txt::None,
            Err(e) => Txt::Failed(e.to_string()),
        }
    }
}
