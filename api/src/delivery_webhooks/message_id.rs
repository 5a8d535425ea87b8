//! Our Message-ID (`m{mailing}.c{contact}.k{client}@domain`, see `mail::render`) read back from a relay's report.

/// The mailing and contact a Message-ID names, when it is one of ours for `client_id`; a copy sent for another
/// client names nothing here.
pub fn ours(raw: &str, client_id: i64) -> Option<(i64, i64)> {
    let id = raw.trim().trim_start_matches('<').trim_end_matches('>');
    let (local, _domain) = id.split_once('@')?;
    let mut parts = local.split('.');
    let mailing = parts.next()?.strip_prefix('m')?.parse().ok()?;
    let contact = parts.next()?.strip_prefix('c')?.parse().ok()?;
    let client: i64 = parts.next()?.strip_prefix('k')?.parse().ok()?;
    (parts.next().is_none() && client == client_id).then_some((mailing, contact))
}

/// The first of `candidates` that is one of ours.
pub fn first_ours<'a>(
    candidates: impl IntoIterator<Item = &'a str>,
    client_id: i64,
) -> Option<(i64, i64)> {
    candidates.into_iter().find_map(|c| ours(c, client_id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_ours_only_for_the_same_client() {
        assert_eq!(ours("<m12.c345.k7@mail.example.org>", 7), Some((12, 345)));
        assert_eq!(ours("m12.c345.k7@mail.example.org", 7), Some((12, 345)));
        assert_eq!(ours("<m12.c345.k7@mail.example.org>", 8), None);
        assert_eq!(ours("<0100018c.abc@email.amazonses.com>", 7), None);
        assert_eq!(ours("<m12.c345.k7.x@mail.example.org>", 7), None);
    }
}
