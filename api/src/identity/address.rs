//! The client address a request came from. Behind a reverse proxy every peer is the proxy, so the address it
//! forwards in `X-Forwarded-For` is used — but only when the peer is one of the configured trusted proxies:
//! anyone else could write any address in that header and slip past the per-address limits.

use std::net::IpAddr;
use std::str::FromStr;

/// One trusted proxy: an address, or a network in CIDR notation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Network {
    base: IpAddr,
    prefix: u8,
}

impl Network {
    fn contains(&self, ip: IpAddr) -> bool {
        match (self.base, ip.to_canonical()) {
            (IpAddr::V4(base), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(base) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(base), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(base) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

/// `TRUSTED_PROXIES`: comma-separated addresses or CIDR networks; empty trusts no one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<Network>);

#[derive(Debug, thiserror::Error)]
#[error("not an IP address or network: {0}")]
pub struct BadProxy(String);

impl FromStr for TrustedProxies {
    type Err = BadProxy;

    fn from_str(list: &str) -> Result<Self, BadProxy> {
        let mut networks = Vec::new();
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let bad = || BadProxy(item.to_owned());
            let (ip, prefix) = match item.split_once('/') {
                Some((ip, prefix)) => (ip, Some(prefix.parse::<u8>().map_err(|_| bad())?)),
                None => (item, None),
            };
            let base = ip.parse::<IpAddr>().map_err(|_| bad())?.to_canonical();
            let max = if base.is_ipv4() { 32 } else { 128 };
            let prefix = prefix.unwrap_or(max);
            if prefix > max {
                return Err(bad());
            }
            networks.push(Network { base, prefix });
        }
        Ok(Self(networks))
    }
}

impl TrustedProxies {
    fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|n| n.contains(ip))
    }

    /// The client's address: the peer's, unless the peer is a trusted proxy; then the right-most address in
    /// `X-Forwarded-For` that is not itself a trusted proxy (each proxy appends the address it saw, so entries to
    /// the left of that one were written by the client and prove nothing).
    pub fn client_address(&self, peer: Option<IpAddr>, forwarded_for: Option<&str>) -> String {
        let Some(peer) = peer.map(|p| p.to_canonical()) else {
            return String::new();
        };
        if !self.trusts(peer) {
            return peer.to_string();
        }
        let Some(header) = forwarded_for else {
            return peer.to_string();
        };
        let mut chain = Vec::new();
        for entry in header.split(',').map(str::trim) {
            match entry.parse::<IpAddr>() {
                Ok(ip) => chain.push(ip.to_canonical()),
                // A malformed entry ends what can be believed: use the last good hop before it.
                Err(_) => chain.clear(),
            }
        }
        chain
            .iter()
            .rev()
            .find(|ip| !self.trusts(**ip))
            .or(chain.first())
            .unwrap_or(&peer)
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> Option<IpAddr> {
        Some(s.parse().unwrap())
    }

    #[test]
    fn forwarded_for_counts_only_from_a_trusted_peer() {
        let none = TrustedProxies::default();
        assert_eq!(
            none.client_address(ip("10.0.0.5"), Some("203.0.113.9")),
            "10.0.0.5"
        );
        let proxies: TrustedProxies = "10.0.0.0/8, ::1".parse().unwrap();
        assert_eq!(
            proxies.client_address(ip("10.0.0.5"), Some("203.0.113.9")),
            "203.0.113.9"
        );
        assert_eq!(
            proxies.client_address(ip("192.0.2.1"), Some("203.0.113.9")),
            "192.0.2.1"
        );
        assert_eq!(proxies.client_address(ip("::1"), None), "::1");
    }

    #[test]
    fn the_right_most_untrusted_hop_is_the_client() {
        let proxies: TrustedProxies = "10.0.0.1,10.0.0.2".parse().unwrap();
        // The client wrote "1.1.1.1" itself; the first proxy saw 203.0.113.9.
        assert_eq!(
            proxies.client_address(ip("10.0.0.2"), Some("1.1.1.1, 203.0.113.9, 10.0.0.1")),
            "203.0.113.9"
        );
        assert_eq!(
            proxies.client_address(ip("10.0.0.2"), Some("10.0.0.1")),
            "10.0.0.1"
        );
        assert_eq!(
            proxies.client_address(ip("10.0.0.2"), Some("junk")),
            "10.0.0.2"
        );
        assert_eq!(
            proxies.client_address(ip("::ffff:10.0.0.2"), Some("203.0.113.9")),
            "203.0.113.9",
            "an IPv4 peer on an IPv6 socket is the same peer"
        );
    }

    #[test]
    fn bad_entries_are_refused() {
        assert!("10.0.0.0/33".parse::<TrustedProxies>().is_err());
        assert!("proxy.example".parse::<TrustedProxies>().is_err());
        assert_eq!(
            "".parse::<TrustedProxies>().unwrap(),
            TrustedProxies::default()
        );
    }
}
