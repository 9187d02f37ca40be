//! What a setting may hold: the checks the app runs before it saves a base
//! URL or a contact address, so a typo is named at once instead of turning
//! into a failed request on every row of the next run.

use crate::{Error, ErrorKind, Location, Result};

fn invalid(field: &str, message: String) -> Error {
    Error::new(ErrorKind::InvalidValue, message).at(Location::default().field(field))
}

/// Checks a service's base URL typed into `field` and returns it trimmed,
/// without a trailing `/`. It must be an absolute `http://` or `https://`
/// URL with a host, and carry no query, fragment, space or credentials.
pub fn base_url(field: &str, text: &str) -> Result<String> {
    let t = text.trim();
    let bad = |why: &str| invalid(field, format!("`{t}` is not a base url: {why}"));
    if t.is_empty() {
        return Err(invalid(field, "a base url is needed".to_string()));
    }
    let rest = t
        .strip_prefix("https://")
        .or_else(|| t.strip_prefix("http://"))
        .ok_or_else(|| bad("it must start with https:// or http://"))?;
    if t.chars().any(char::is_whitespace) {
        return Err(bad("it contains a space"));
    }
    if t.contains(['?', '#']) {
        return Err(bad("it must not have a query or fragment"));
    }
    let host_port = rest.split('/').next().unwrap_or("");
    if host_port.contains('@') {
        return Err(bad("credentials do not belong in a url"));
    }
    let host = match host_port.rsplit_once(':') {
        Some((h, port)) if !h.ends_with(']') || host_port.starts_with('[') => {
            if port.is_empty() || !port.bytes().all(|b| b.is_ascii_digit()) || port.len() > 5 {
                return Err(bad("the port is not a number"));
            }
            h
        }
        _ => host_port,
    };
    let host_ok = !host.is_empty()
        && (host.starts_with('[')
            || host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_'))
                && !host.starts_with(['.', '-'])
                && !host.ends_with(['-']));
    if !host_ok {
        return Err(bad("it has no host name"));
    }
    Ok(t.trim_end_matches('/').to_string())
}

/// Checks a contact address typed into `field`: empty means none, otherwise
/// one `@` between a local part and a domain with a dot (or `localhost`).
pub fn contact_email(field: &str, text: &str) -> Result<Option<String>> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    let bad = || {
        invalid(
            field,
            format!("`{t}` is not an email address (name@example.org)"),
        )
    };
    let (local, domain) = t.split_once('@').ok_or_else(bad)?;
    let domain_ok = (domain.contains('.') || domain == "localhost")
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains("..")
        && domain
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.'));
    if local.is_empty() || !domain_ok || t.chars().any(|c| c.is_whitespace() || c == ',') {
        return Err(bad());
    }
    Ok(Some(t.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_url(text: &str, expected: std::result::Result<&str, &str>) {
        let got = base_url("s2_base", text);
        match (got, expected) {
            (Ok(v), Ok(want)) => assert_eq!(v, want, "{text:?}"),
            (Err(e), Err(part)) => {
                assert!(e.message.contains(part), "{text:?}: {}", e.message);
                assert_eq!(e.location.field.as_deref(), Some("s2_base"));
            }
            (got, want) => panic!("{text:?}: got {got:?}, want {want:?}"),
        }
    }

    #[test]
    fn base_urls() {
        check_url(
            "https://api.semanticscholar.org/graph/v1",
            Ok("https://api.semanticscholar.org/graph/v1"),
        );
        check_url(
            " https://relay.lab.example/s2/ ",
            Ok("https://relay.lab.example/s2"),
        );
        check_url(
            "http://127.0.0.1:8787/api/s2",
            Ok("http://127.0.0.1:8787/api/s2"),
        );
        check_url("http://[::1]:8080/s2", Ok("http://[::1]:8080/s2"));
        check_url("http://localhost", Ok("http://localhost"));
        check_url("htp:/broken", Err("must start with https://"));
        check_url("api.crossref.org", Err("must start with https://"));
        check_url("", Err("a base url is needed"));
        check_url("https://", Err("no host name"));
        check_url("https:///path", Err("no host name"));
        check_url(
            "https://api.openalex.org?mailto=x",
            Err("query or fragment"),
        );
        check_url("https://a b.org", Err("a space"));
        check_url("https://user:pw@relay.org", Err("credentials"));
        check_url("http://127.0.0.1:port/", Err("port"));
    }

    fn check_email(text: &str, ok: bool) {
        let got = contact_email("mailto", text);
        assert_eq!(got.is_ok(), ok, "{text:?}: {got:?}");
        if let Err(e) = got {
            assert_eq!(e.location.field.as_deref(), Some("mailto"));
            assert!(e.message.starts_with('`'), "{}", e.message);
        }
    }

    #[test]
    fn contact_emails() {
        check_email("", true);
        check_email("  ", true);
        check_email("ada@lab.example.org", true);
        check_email("a.b+tag@uni.edu", true);
        check_email("me@localhost", true);
        check_email("not-an-email", false);
        check_email("@lab.org", false);
        check_email("ada@", false);
        check_email("ada@org", false);
        check_email("ada@lab..org", false);
        check_email("ada @lab.org", false);
        check_email("a@b.org, c@d.org", false);
    }
}
