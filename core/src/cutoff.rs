//! The research cutoff: a paper counts only if it appeared strictly before it.
//!
//! Papers carry dates of three precisions. A year alone is read as the last
//! day of that year (the worst case for the paper), a year and month as the
//! first day of that month, a full date as itself. The comparison is strict:
//! a paper dated on the cutoff day fails. Time never comes from a clock here;
//! the cutoff is always an argument. Dates are checked by `chrono`'s
//! proleptic Gregorian calendar (no clock, no time zone).
//!
//! The cutoff itself is aligned with the venue's submission deadline: the
//! [`deadline`] miner ([`detect`]) lists the dates of pasted call-for-papers
//! text and suggests one.

pub mod deadline;

pub use deadline::{detect, DeadlineCandidate, DeadlineKind};

use crate::error::{Error, ErrorKind, Result};
use chrono::{Datelike, NaiveDate};
use std::fmt;

/// A calendar date (proleptic Gregorian, years 1 to 9999), always valid once
/// constructed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "IsoDate"))]
pub struct Date(
    /// Serialized as `YYYY-MM-DD` (the `Serialize` below).
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    NaiveDate,
);

impl Date {
    /// A date, or an `InvalidDate` error when it does not exist.
    pub fn new(year: i32, month: u32, day: u32) -> Result<Date> {
        if !(1..=9999).contains(&year) {
            return Err(Error::new(
                ErrorKind::InvalidDate,
                format!("year {year} is out of range"),
            ));
        }
        if !(1..=12).contains(&month) {
            return Err(Error::new(
                ErrorKind::InvalidDate,
                format!("month {month} does not exist"),
            ));
        }
        NaiveDate::from_ymd_opt(year, month, day)
            .map(Date)
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidDate,
                    format!("{year:04}-{month:02}-{day:02} does not exist"),
                )
            })
    }

    /// The date of a `chrono` calendar day, or an `InvalidDate` error for a
    /// year outside 1 to 9999 (e.g. today's date from a caller's clock).
    pub fn from_naive(date: NaiveDate) -> Result<Date> {
        Date::new(date.year(), date.month(), date.day())
    }

    /// The UTC calendar day of a clock reading in milliseconds since the
    /// Unix epoch (`Date.now()` in a browser, `SystemTime` natively). The one
    /// "today" of both surfaces: the caller reads its clock, the core says
    /// which day it is, in UTC everywhere (the app had used local time, so
    /// the future-year rule changed its answer with the time zone).
    /// `InvalidDate` for a reading outside years 1 to 9999 or not a number.
    pub fn from_unix_ms(ms: f64) -> Result<Date> {
        let invalid = || {
            Error::new(
                ErrorKind::InvalidDate,
                format!("clock reading {ms} ms is not a date"),
            )
        };
        if !ms.is_finite() {
            return Err(invalid());
        }
        // Saturating cast; the range test below refuses what it clipped.
        let whole = ms.floor() as i64;
        let day = chrono::DateTime::from_timestamp_millis(whole).ok_or_else(invalid)?;
        Date::from_naive(day.date_naive())
    }

    /// Parses a full ISO date `YYYY-MM-DD` (the cutoff's format).
    pub fn parse_iso(text: &str) -> Result<Date> {
        match PaperDate::parse(text)? {
            PaperDate::Day(d) => Ok(d),
            _ => Err(Error::new(
                ErrorKind::InvalidDate,
                format!("expected a full date YYYY-MM-DD, got `{}`", text.trim()),
            )),
        }
    }

    /// The year.
    pub fn year(&self) -> i32 {
        self.0.year()
    }

    /// The month, 1..=12.
    pub fn month(&self) -> u32 {
        self.0.month()
    }

    /// The day of the month.
    pub fn day(&self) -> u32 {
        self.0.day()
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:04}-{:02}-{:02}",
            self.year(),
            self.month(),
            self.day()
        )
    }
}

impl serde::Serialize for Date {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Date {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Date, D::Error> {
        let s = String::deserialize(d)?;
        Date::parse_iso(&s).map_err(serde::de::Error::custom)
    }
}

/// A paper's publication date at the precision it is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "precision", rename_all = "snake_case")]
pub enum PaperDate {
    /// Only the year is known.
    Year {
        /// The year.
        year: i32,
    },
    /// Year and month are known.
    Month {
        /// The year.
        year: i32,
        /// The month, 1..=12.
        month: u32,
    },
    /// The full date is known.
    Day(Date),
}

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

fn month_from_name(word: &str) -> Option<u32> {
    let w = word.trim_end_matches('.').to_ascii_lowercase();
    if w.len() < 3 {
        return None;
    }
    if w == "sept" {
        return Some(9);
    }
    MONTHS
        .iter()
        .position(|m| m.starts_with(&w))
        .map(|i| i as u32 + 1)
}

fn parse_num<T: std::str::FromStr>(part: &str, what: &str, text: &str) -> Result<T> {
    if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::new(
            ErrorKind::InvalidDate,
            format!("`{text}` has no valid {what}"),
        ));
    }
    part.parse().map_err(|_| {
        Error::new(
            ErrorKind::InvalidDate,
            format!("`{text}` has no valid {what}"),
        )
    })
}

impl PaperDate {
    /// Parses `2024`, `2024-10`, `2024-10-01`, `2024/10`, `2024/10/01`,
    /// `October 2024`, `Oct. 2024`, `Oct 2024` and `1 October 2024`.
    ///
    /// ```
    /// use citegate_core::cutoff::PaperDate;
    /// assert_eq!(PaperDate::parse("Oct. 2024").unwrap(), PaperDate::Month { year: 2024, month: 10 });
    /// assert!(PaperDate::parse("2023-02-29").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<PaperDate> {
        let t = text.trim();
        if t.is_empty() {
            return Err(Error::new(ErrorKind::InvalidDate, "the date is empty"));
        }
        let words: Vec<&str> = t
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .collect();
        if words.len() >= 2 {
            // "October 2024", "Oct. 2024", "1 October 2024", "October 1, 2024".
            let year_word = words[words.len() - 1];
            let year: i32 = parse_num(year_word, "year", t)?;
            let (month_word, day_word) = match words.len() {
                2 => (words[0], None),
                3 if month_from_name(words[0]).is_some() => (words[0], Some(words[1])),
                3 => (words[1], Some(words[0])),
                _ => {
                    return Err(Error::new(
                        ErrorKind::InvalidDate,
                        format!("`{t}` is not a date"),
                    ))
                }
            };
            let month = month_from_name(month_word).ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidDate,
                    format!("`{month_word}` is not a month"),
                )
            })?;
            return match day_word {
                None => {
                    Date::new(year, month, 1)?;
                    Ok(PaperDate::Month { year, month })
                }
                Some(d) => Ok(PaperDate::Day(Date::new(
                    year,
                    month,
                    parse_num(d, "day", t)?,
                )?)),
            };
        }
        let parts: Vec<&str> = t.split(['-', '/']).collect();
        match parts.as_slice() {
            [y] if y.len() == 4 => {
                let year = parse_num(y, "year", t)?;
                Date::new(year, 1, 1)?;
                Ok(PaperDate::Year { year })
            }
            [y, m] if y.len() == 4 => {
                let year = parse_num(y, "year", t)?;
                let month = parse_num(m, "month", t)?;
                Date::new(year, month, 1)?;
                Ok(PaperDate::Month { year, month })
            }
            [y, m, d] if y.len() == 4 => Ok(PaperDate::Day(Date::new(
                parse_num(y, "year", t)?,
                parse_num(m, "month", t)?,
                parse_num(d, "day", t)?,
            )?)),
            _ => Err(Error::new(
                ErrorKind::InvalidDate,
                format!("`{t}` is not a date (expected YYYY, YYYY-MM or YYYY-MM-DD)"),
            )),
        }
    }

    /// A date from a year and an optional month, as `check_cutoff.py` takes them.
    pub fn from_parts(year: i32, month: Option<u32>) -> Result<PaperDate> {
        match month {
            None => {
                Date::new(year, 1, 1)?;
                Ok(PaperDate::Year { year })
            }
            Some(month) => {
                Date::new(year, month, 1)?;
                Ok(PaperDate::Month { year, month })
            }
        }
    }

    /// The day this date stands for in the comparison: 31 December for a
    /// year, day 1 for a month.
    pub fn effective(&self) -> Date {
        // Both were validated on construction. One built by hand with a
        // month or year that does not exist stands for the last day the
        // calendar has, the worst case for the paper: it never passes.
        let day = |year, month, day| {
            Date(NaiveDate::from_ymd_opt(year, month, day).unwrap_or(NaiveDate::MAX))
        };
        match *self {
            PaperDate::Year { year } => day(year, 12, 31),
            PaperDate::Month { year, month } => day(year, month, 1),
            PaperDate::Day(d) => d,
        }
    }
}

/// The outcome of a cutoff check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CutoffCheck {
    /// The day the paper's date stands for.
    pub paper: Date,
    /// The cutoff.
    pub cutoff: Date,
    /// Whether `paper < cutoff`.
    pub pass: bool,
}

/// Checks a paper date against the cutoff: passes iff strictly before.
///
/// ```
/// use citegate_core::cutoff::{check, Date, PaperDate};
/// let cutoff = Date::parse_iso("2024-10-01").unwrap();
/// assert!(check(PaperDate::parse("2024-09").unwrap(), cutoff).pass);
/// assert!(!check(PaperDate::parse("2024").unwrap(), cutoff).pass);
/// ```
pub fn check(paper: PaperDate, cutoff: Date) -> CutoffCheck {
    let paper = paper.effective();
    CutoffCheck {
        paper,
        cutoff,
        pass: paper < cutoff,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_parse(text: &str, expected: &str) {
        let got = match PaperDate::parse(text) {
            Ok(PaperDate::Year { year }) => format!("year {year}"),
            Ok(PaperDate::Month { year, month }) => format!("month {year}-{month:02}"),
            Ok(PaperDate::Day(d)) => format!("day {d}"),
            Err(e) => format!("error {:?}", e.kind),
        };
        assert_eq!(got, expected, "parse({text:?})");
    }

    fn check_cutoff(year: i32, month: Option<u32>, cutoff: &str, pass: bool) {
        let c = check(
            PaperDate::from_parts(year, month).unwrap(),
            Date::parse_iso(cutoff).unwrap(),
        );
        assert_eq!(c.pass, pass, "{year}/{month:?} vs {cutoff}");
    }

    fn check_today(ms: f64, expected: &str) {
        let got = match Date::from_unix_ms(ms) {
            Ok(d) => d.to_string(),
            Err(e) => format!("error {:?}", e.kind),
        };
        assert_eq!(got, expected, "from_unix_ms({ms})");
    }

    #[test]
    fn today_is_the_utc_day_of_a_clock_reading() {
        check_today(0.0, "1970-01-01");
        // 2026-12-05T23:59:59.999Z and one millisecond later: UTC decides,
        // whatever the machine's time zone.
        check_today(1_796_515_199_999.0, "2026-12-05");
        check_today(1_796_515_200_000.0, "2026-12-06");
        check_today(-1.0, "1969-12-31");
        check_today(f64::NAN, "error InvalidDate");
        check_today(f64::MAX, "error InvalidDate");
        check_today(1e16, "error InvalidDate");
    }

    #[test]
    fn parses_dates() {
        check_parse("2024", "year 2024");
        check_parse("2024-10", "month 2024-10");
        check_parse("2024/10", "month 2024-10");
        check_parse("2024-10-01", "day 2024-10-01");
        check_parse("2024/10/01", "day 2024-10-01");
        check_parse("October 2024", "month 2024-10");
        check_parse("Oct. 2024", "month 2024-10");
        check_parse("oct 2024", "month 2024-10");
        check_parse("Sept. 2024", "month 2024-09");
        check_parse("1 October 2024", "day 2024-10-01");
        check_parse("October 1, 2024", "day 2024-10-01");
        check_parse("2024-02-29", "day 2024-02-29");
        check_parse("2023-02-29", "error InvalidDate");
        check_parse("2024-13", "error InvalidDate");
        check_parse("2024-00-10", "error InvalidDate");
        check_parse("2024-04-31", "error InvalidDate");
        check_parse("Foo 2024", "error InvalidDate");
        check_parse("", "error InvalidDate");
        check_parse("24", "error InvalidDate");
        check_parse("2024-1x", "error InvalidDate");
        check_parse("99999999999999999999", "error InvalidDate");
    }

    /// The example table of the seed (Rule 3), cutoff 2024-10-01.
    #[test]
    fn seed_example_table() {
        check_cutoff(2017, None, "2024-10-01", true);
        check_cutoff(2024, Some(9), "2024-10-01", true);
        check_cutoff(2024, Some(10), "2024-10-01", false);
        check_cutoff(2024, None, "2024-10-01", false);
    }

    #[test]
    fn equality_fails_and_day_precision_counts() {
        let cutoff = Date::parse_iso("2024-10-01").unwrap();
        assert!(!check(PaperDate::parse("2024-10-01").unwrap(), cutoff).pass);
        assert!(check(PaperDate::parse("2024-09-30").unwrap(), cutoff).pass);
        assert!(
            check(
                PaperDate::parse("2023").unwrap(),
                Date::parse_iso("2024-01-01").unwrap()
            )
            .pass
        );
        assert!(
            !check(
                PaperDate::parse("2023").unwrap(),
                Date::parse_iso("2023-12-31").unwrap()
            )
            .pass
        );
    }

    /// A paper date built by hand with a month or year the calendar does not
    /// have never passes, and nothing panics.
    #[test]
    fn impossible_hand_built_dates_never_pass() {
        let cutoff = Date::parse_iso("9999-12-31").unwrap();
        for paper in [
            PaperDate::Month {
                year: 2024,
                month: 13,
            },
            PaperDate::Month {
                year: 2024,
                month: 0,
            },
            PaperDate::Year { year: i32::MAX },
        ] {
            assert!(!check(paper, cutoff).pass, "{paper:?}");
        }
    }

    /// Leap years as the Gregorian calendar has them (chrono's).
    #[test]
    fn leap_days() {
        for (text, exists) in [
            ("2024-02-29", true),
            ("2023-02-29", false),
            ("2000-02-29", true),
            ("1900-02-29", false),
            ("2024-04-31", false),
            ("9999-12-31", true),
        ] {
            assert_eq!(Date::parse_iso(text).is_ok(), exists, "{text}");
        }
    }

    #[test]
    fn cutoff_must_be_a_full_date() {
        assert_eq!(
            Date::parse_iso("2024-10").unwrap_err().kind,
            ErrorKind::InvalidDate
        );
        assert!(PaperDate::from_parts(2024, Some(13)).is_err());
        assert!(PaperDate::from_parts(0, None).is_err());
    }
}
