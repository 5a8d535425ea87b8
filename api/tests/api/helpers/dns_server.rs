//! A local DNS server (hickory-server) on 127.0.0.1 with zones built in the test: the domain check and the DKIM
//! verifier ask it, so no lookup leaves the machine.

use hickory_proto::rr::rdata::{MX, SOA, TXT};
use hickory_proto::rr::{LowerName, Name, RData, Record};
use hickory_server::authority::{AuthorityObject, Catalog, ZoneType};
use hickory_server::store::in_memory::InMemoryAuthority;
use hickory_server::ServerFuture;
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::Arc;

pub struct DnsServer {
    /// ip:port, as `DNS_RESOLVER` takes it.
    pub address: String,
    zones: HashMap<String, Arc<InMemoryAuthority>>,
    _server: tokio::task::JoinHandle<()>,
}

fn fqdn(name: &str) -> Name {
    Name::from_str(&format!("{}.", name.trim_end_matches('.'))).unwrap()
}

impl DnsServer {
    /// Serves an empty zone for each of `zones` (e.g. `good.test`).
    pub async fn start(zones: &[&str]) -> Self {
        let mut catalog = Catalog::new();
        let mut authorities = HashMap::new();
        for zone in zones {
            let origin = fqdn(zone);
            let mut authority = InMemoryAuthority::empty(origin.clone(), ZoneType::Primary, false);
            let soa = SOA::new(
                fqdn(&format!("ns.{zone}")),
                fqdn(&format!("admin.{zone}")),
                1,
                3600,
                600,
                86400,
                60,
            );
            authority.upsert_mut(Record::from_rdata(origin.clone(), 60, RData::SOA(soa)), 1);
            let authority = Arc::new(authority);
            catalog.upsert(
                LowerName::new(&origin),
                vec![authority.clone() as Arc<dyn AuthorityObject>],
            );
            authorities.insert(zone.to_string(), authority);
        }
        let socket = tokio::net::UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let address = socket.local_addr().unwrap().to_string();
        let mut server = ServerFuture::new(catalog);
        server.register_socket(socket);
        let task = tokio::spawn(async move {
            let _ = server.block_until_done().await;
        });
        Self {
            address,
            zones: authorities,
            _server: task,
        }
    }

    /// The zone `name` is in (the longest that holds it).
    fn zone_of(&self, name: &str) -> Arc<InMemoryAuthority> {
        self.zones
            .iter()
            .filter(|(z, _)| name == z.as_str() || name.ends_with(&format!(".{z}")))
            .max_by_key(|(z, _)| z.len())
            .map(|(_, a)| a.clone())
            .unwrap_or_else(|| panic!("{name} is in none of the zones"))
    }

    /// Adds an MX record at `name` (inside one of the zones) naming `host`, which may be anywhere.
    pub async fn mx(&self, name: &str, preference: u16, host: &str) {
        let record = Record::from_rdata(fqdn(name), 60, RData::MX(MX::new(preference, fqdn(host))));
        assert!(self.zone_of(name).upsert(record, 2).await, "MX at {name}");
    }

    /// Adds a TXT record at `name` (inside one of the zones), one string per 255 bytes as DNS needs.
    pub async fn txt(&self, name: &str, value: &str) {
        let zone = self.zone_of(name);
        let parts: Vec<String> = value
            .as_bytes()
            .chunks(255)
            .map(|c| String::from_utf8(c.to_vec()).unwrap())
            .collect();
        let record = Record::from_rdata(fqdn(name), 60, RData::TXT(TXT::new(parts)));
        assert!(zone.upsert(record, 2).await, "TXT at {name}");
    }

    /// The DKIM verifier of mail-auth, asking this server.
    pub fn authenticator(&self) -> mail_auth::MessageAuthenticator {
        use mail_auth::hickory_resolver::config::{
            NameServerConfigGroup, ResolverConfig, ResolverOpts,
        };
        let addr: std::net::SocketAddr = self.address.parse().unwrap();
        mail_auth::MessageAuthenticator::new(
            ResolverConfig::from_parts(
                None,
                vec![],
                NameServerConfigGroup::from_ips_clear(&[addr.ip()], addr.port(), true),
            ),
            ResolverOpts::default(),
        )
        .unwrap()
    }
}
