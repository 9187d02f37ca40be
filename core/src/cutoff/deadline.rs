//! The deadline miner: reads pasted call-for-papers text and lists every
//! date that sits near a deadline word, labelled by what it is for. It only
//! suggests; the user confirms. Labels come from keywords on the date's line
//! (or the line above, for headings), tried in a fixed order so that
//! "abstract submission deadline" is an abstract and "camera-ready due" is
//! never taken for the paper deadline.

use super::*;

/// What a date found in conference guidelines is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeadlineKind {
    /// The full-paper submission deadline: the cutoff the seed aligns to.
    FullPaper,
    /// Abstract registration.
    Abstract,
    /// The camera-ready (final version) deadline; never suggested.
    CameraReady,
    /// Author notification or decisions; never suggested.
    Notification,
    /// The dates of the conference itself.
    Conference,
    /// Any other dated item near a deadline word (rebuttal, supplementary, …).
    Other,
}

impl DeadlineKind {
    /// A short lowercase label for people.
    pub fn label(self) -> &'static str {
        match self {
            DeadlineKind::FullPaper => "full-paper submission",
            DeadlineKind::Abstract => "abstract registration",
            DeadlineKind::CameraReady => "camera-ready",
            DeadlineKind::Notification => "notification",
            DeadlineKind::Conference => "conference",
            DeadlineKind::Other => "other",
        }
    }
}

/// One date found near a deadline word in pasted guidelines.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DeadlineCandidate {
    /// The date; a month without a day stands for its first day.
    pub date: Date,
    /// The 1-based line of the guidelines it was found on.
    pub line: usize,
    /// The date as written.
    pub text: String,
    /// What the date is for, read from its line (or the line above).
    pub kind: DeadlineKind,
    /// Whether this is the suggested research cutoff (at most one is).
    pub suggested: bool,
}

/// Keyword phrases (lowercase, words separated by single spaces) in the
/// order they are tried: the first phrase found decides the kind.
const KINDS: &[(&str, DeadlineKind)] = &[
    ("camera ready", DeadlineKind::CameraReady),
    ("final version", DeadlineKind::CameraReady),
    ("notification", DeadlineKind::Notification),
    ("notifications", DeadlineKind::Notification),
    ("decisions", DeadlineKind::Notification),
    ("decision", DeadlineKind::Notification),
    ("full paper", DeadlineKind::FullPaper),
    ("full papers", DeadlineKind::FullPaper),
    ("abstract", DeadlineKind::Abstract),
    ("abstracts", DeadlineKind::Abstract),
    ("rebuttal", DeadlineKind::Other),
    ("author response", DeadlineKind::Other),
    ("supplementary", DeadlineKind::Other),
    ("paper submission", DeadlineKind::FullPaper),
    ("submission deadline", DeadlineKind::FullPaper),
    ("paper deadline", DeadlineKind::FullPaper),
    ("papers due", DeadlineKind::FullPaper),
    ("paper due", DeadlineKind::FullPaper),
    ("submission", DeadlineKind::FullPaper),
    ("submissions", DeadlineKind::FullPaper),
    ("conference", DeadlineKind::Conference),
    ("workshops", DeadlineKind::Conference),
    ("deadline", DeadlineKind::Other),
    ("deadlines", DeadlineKind::Other),
    ("due", DeadlineKind::Other),
    ("registration", DeadlineKind::Other),
];

/// The kind a line announces, if it holds any deadline word. Matching is on
/// whole words, so `due` does not fire inside `residue`.
fn line_kind(line: &str) -> Option<DeadlineKind> {
    let mut norm = String::from(" ");
    for c in line.chars() {
        if c.is_alphanumeric() {
            norm.extend(c.to_lowercase());
        } else if !norm.ends_with(' ') {
            norm.push(' ');
        }
    }
    if !norm.ends_with(' ') {
        norm.push(' ');
    }
    KINDS
        .iter()
        .find(|(k, _)| norm.contains(&format!(" {k} ")))
        .map(|&(_, kind)| kind)
}

/// The whitespace-separated words of a line with surrounding punctuation
/// trimmed, each with its byte range in the line.
fn words(line: &str) -> Vec<(usize, usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    let bounds = line
        .char_indices()
        .map(|(i, c)| (i, Some(c)))
        .chain(std::iter::once((line.len(), None)));
    for (i, c) in bounds {
        let space = c.is_none_or(char::is_whitespace);
        match (start, space) {
            (None, false) => start = Some(i),
            (Some(s), true) => {
                start = None;
                let raw = line.get(s..i).unwrap_or("");
                let lead = raw.trim_start_matches(|c: char| !c.is_alphanumeric());
                let word = lead.trim_end_matches(|c: char| !c.is_alphanumeric());
                if !word.is_empty() {
                    let b = s + (raw.len() - lead.len());
                    out.push((b, b + word.len(), word));
                }
            }
            _ => {}
        }
    }
    out
}

/// A day of the month as written: `15`, `15th`, `1st`, or the first day of
/// a range `11-15`.
fn day_word(w: &str) -> Option<u32> {
    let first = w.split(['-', '–']).next().unwrap_or("");
    let digits = first.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = first.get(digits.len()..).unwrap_or("");
    if digits.is_empty()
        || digits.len() > 2
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || !matches!(suffix, "" | "st" | "nd" | "rd" | "th")
    {
        return None;
    }
    digits.parse().ok()
}

fn year_word(w: &str) -> Option<i32> {
    if w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit()) {
        w.parse().ok()
    } else {
        None
    }
}

/// The date starting at word `i`, with the number of words it spans.
fn date_at(ws: &[(usize, usize, &str)], i: usize) -> Option<(Date, usize)> {
    let w = |k: usize| ws.get(i + k).map(|t| t.2);
    let first = w(0)?;
    // ISO and slash forms in one word: 2024-11-15, 2024/11/15, 2024-11.
    if first.len() >= 7 && first.get(..4).and_then(year_word).is_some() {
        if let Ok(d) = PaperDate::parse(first) {
            if !matches!(d, PaperDate::Year { .. }) {
                return Some((d.effective(), 1));
            }
        }
        return None;
    }
    let full = |y: Option<i32>, m: Option<u32>, d: Option<u32>| Date::new(y?, m?, d?).ok();
    // 15 November 2024
    if let Some(d) = full(
        w(2).and_then(year_word),
        w(1).and_then(month_from_name),
        w(0).and_then(day_word),
    ) {
        return Some((d, 3));
    }
    let month = month_from_name(first)?;
    // November 15, 2024 / Nov 15 2024
    if let Some(d) = full(
        w(2).and_then(year_word),
        Some(month),
        w(1).and_then(day_word),
    ) {
        return Some((d, 3));
    }
    // November 2024: the first of the month, unless a bad day precedes it
    // ("32 May 2024" is not May).
    if i > 0 && ws.get(i - 1).and_then(|t| day_word(t.2)).is_some() {
        return None;
    }
    let d = full(w(1).and_then(year_word), Some(month), Some(1))?;
    Some((d, 2))
}

/// Finds every date near a deadline word in pasted conference guidelines
/// and marks the suggested research cutoff.
///
/// A date counts when its line, or the nearest non-blank line above it,
/// holds a deadline word; the kind comes from that line. The suggestion is
/// the earliest full-paper deadline, else the earliest abstract deadline,
/// else the earliest date that is neither camera-ready nor a notification.
/// Forms read: `2024-11-15`, `2024/11/15`, `2024-11`, `15 November 2024`,
/// `November 15, 2024`, `Nov 15 2024`, `Nov. 2024` (a month alone stands for
/// its first day). Times and zones such as `23:59 AoE` are ignored.
///
/// ```
/// use citegate_core::cutoff::{detect, DeadlineKind};
/// let c = detect("Abstract deadline: Sep 27, 2024\nFull paper deadline: Oct 1, 2024 (AoE)");
/// assert_eq!(c[1].kind, DeadlineKind::FullPaper);
/// assert!(c[1].suggested && !c[0].suggested);
/// assert_eq!(c[1].date.to_string(), "2024-10-01");
/// ```
pub fn detect(guidelines: &str) -> Vec<DeadlineCandidate> {
    let mut out = Vec::new();
    let mut above: Option<DeadlineKind> = None;
    for (n, line) in guidelines.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let own = line_kind(line);
        let kind = own.or(above);
        above = own;
        let Some(kind) = kind else { continue };
        let ws = words(line);
        let mut i = 0;
        while i < ws.len() {
            match date_at(&ws, i) {
                Some((date, span)) => {
                    let start = ws.get(i).map_or(0, |t| t.0);
                    let end = ws.get(i + span - 1).map_or(start, |t| t.1);
                    out.push(DeadlineCandidate {
                        date,
                        line: n + 1,
                        text: line.get(start..end).unwrap_or("").to_string(),
                        kind,
                        suggested: false,
                    });
                    i += span;
                }
                None => i += 1,
            }
        }
    }
    let pick = |want: &dyn Fn(DeadlineKind) -> bool| {
        out.iter()
            .enumerate()
            .filter(|(_, c)| want(c.kind))
            .min_by_key(|(_, c)| c.date)
            .map(|(i, _)| i)
    };
    let best = pick(&|k| k == DeadlineKind::FullPaper)
        .or_else(|| pick(&|k| k == DeadlineKind::Abstract))
        .or_else(|| {
            pick(&|k| !matches!(k, DeadlineKind::CameraReady | DeadlineKind::Notification))
        });
    if let Some(c) = best.and_then(|i| out.get_mut(i)) {
        c.suggested = true;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{detect, DeadlineKind};

    /// Renders `detect` as `date kind@line[*]` items joined by `; `, the
    /// star marking the suggestion.
    fn check(text: &str, expected: &str) {
        let got: Vec<String> = detect(text)
            .iter()
            .map(|c| {
                let kind = serde_json::to_value(c.kind).unwrap();
                let star = if c.suggested { "*" } else { "" };
                format!("{} {}@{}{star}", c.date, kind.as_str().unwrap(), c.line)
            })
            .collect();
        assert_eq!(got.join("; "), expected, "detect({text:?})");
    }

    #[test]
    fn detects_date_forms() {
        check(
            "Submission deadline: 2024-11-15",
            "2024-11-15 full_paper@1*",
        );
        check(
            "Submission deadline: 2024/11/15",
            "2024-11-15 full_paper@1*",
        );
        check(
            "Submission deadline: 15 November 2024",
            "2024-11-15 full_paper@1*",
        );
        check(
            "Submission deadline: November 15, 2024",
            "2024-11-15 full_paper@1*",
        );
        check(
            "Submission deadline: Nov 15 2024",
            "2024-11-15 full_paper@1*",
        );
        check(
            "Submission deadline: Nov. 15th, 2024",
            "2024-11-15 full_paper@1*",
        );
        check(
            "Submission deadline: Friday, November 15, 2024 23:59 AoE",
            "2024-11-15 full_paper@1*",
        );
        check(
            "Submission deadline: Nov 15, 2024 (Anywhere on Earth)",
            "2024-11-15 full_paper@1*",
        );
        check(
            "Submission deadline: 1st October 2024",
            "2024-10-01 full_paper@1*",
        );
        check(
            "Submission deadline: Sept. 30, 2024",
            "2024-09-30 full_paper@1*",
        );
        check(
            "Submission deadline: **2024-11-15**",
            "2024-11-15 full_paper@1*",
        );
        check(
            "| Paper submission | Nov 15, 2024 |",
            "2024-11-15 full_paper@1*",
        );
    }

    /// A month alone maps to day 1, as for paper dates.
    #[test]
    fn month_only_maps_to_day_one() {
        check(
            "Submission deadline: November 2024",
            "2024-11-01 full_paper@1*",
        );
        check("Submission deadline: Oct. 2024", "2024-10-01 full_paper@1*");
        check("Submission deadline: 2024-10", "2024-10-01 full_paper@1*");
    }

    #[test]
    fn rejects_non_dates() {
        check("Submission deadline: 2024", "");
        check("Submission deadline: November 31, 2024", "");
        check("Submission deadline: 2023-02-29", "");
        check("Submission deadline: 32 May 2024", "");
        check("Submission deadline: TBA", "");
        check("Papers may 2024 be long", "");
        check("", "");
        check("Deadline — 期限: 2024年11月15日", "");
        check("Deadline: ２０２４-11-15 é", "");
        check("Deadline:\u{0}\t- – 1st", "");
        check("deadline 9999999999-01-01", "");
    }

    #[test]
    fn labels_dates_by_their_line() {
        check(
            "Full paper submission: 2024-11-15",
            "2024-11-15 full_paper@1*",
        );
        check(
            "Abstract submission deadline: 2024-11-08",
            "2024-11-08 abstract@1*",
        );
        check(
            "Abstract registration: 2024-11-08",
            "2024-11-08 abstract@1*",
        );
        check("Camera-ready due: 2025-03-01", "2025-03-01 camera_ready@1");
        check(
            "Camera ready deadline: 2025-03-01",
            "2025-03-01 camera_ready@1",
        );
        check("Final version due 2025-03-01", "2025-03-01 camera_ready@1");
        check(
            "Author notification: 2025-02-26",
            "2025-02-26 notification@1",
        );
        check(
            "Decisions released: 2025-02-26",
            "2025-02-26 notification@1",
        );
        check(
            "Conference dates: June 11-15, 2025",
            "2025-06-11 conference@1*",
        );
        check(
            "Main conference: 11-15 June 2025",
            "2025-06-11 conference@1*",
        );
        check("Rebuttal period: 2025-01-20", "2025-01-20 other@1*");
        check(
            "Supplementary material due: 2024-11-22",
            "2024-11-22 other@1*",
        );
        check("Papers due 2024-11-15", "2024-11-15 full_paper@1*");
        check("Paper deadline 2024-11-15", "2024-11-15 full_paper@1*");
    }

    /// Camera-ready and notification dates are listed but never suggested.
    #[test]
    fn never_suggests_camera_ready_or_notification() {
        let got = detect("Camera-ready due: 2025-03-01\nAuthor notification: 2025-02-26");
        assert_eq!(got.len(), 2);
        assert!(got.iter().all(|c| !c.suggested));
        assert_eq!(got[0].kind, DeadlineKind::CameraReady);
        assert_eq!(got[1].kind, DeadlineKind::Notification);
    }

    #[test]
    fn suggestion_order() {
        check(
            "Abstract deadline: 2024-11-08\nFull paper deadline: 2024-11-15",
            "2024-11-08 abstract@1; 2024-11-15 full_paper@2*",
        );
        check(
            "Abstract deadline: 2024-11-08\nNotification: 2025-02-01",
            "2024-11-08 abstract@1*; 2025-02-01 notification@2",
        );
        check(
            "Rebuttal: 2025-01-20\nConference: 2025-06-11",
            "2025-01-20 other@1*; 2025-06-11 conference@2",
        );
        check(
            "Submission deadline: 2024-11-15 (extended from 2024-11-08)",
            "2024-11-15 full_paper@1; 2024-11-08 full_paper@1*",
        );
    }

    /// Words must match whole: `due` inside `residue` is not a deadline word.
    #[test]
    fn keywords_match_whole_words() {
        check("residue analysis on 2024-11-15", "");
        check("The venue opens 2024-11-15", "");
        check(
            "Submission deadline:\n  November 15, 2024",
            "2024-11-15 full_paper@2*",
        );
        check(
            "Submission deadline:\n\n  November 15, 2024",
            "2024-11-15 full_paper@3*",
        );
        check("Submission deadline:\nVenue info\n2024-11-15", "");
    }

    #[test]
    fn matched_text_and_lines() {
        let c = detect("Intro\nDue: Friday, Nov. 15th, 2024 AoE");
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].line, 2);
        assert_eq!(c[0].text, "Nov. 15th, 2024");
    }

    #[test]
    fn realistic_guidelines() {
        check(
            include_str!("../../tests/fixtures/cutoff/iclr_like.md"),
            "2024-09-27 abstract@9; 2024-10-01 full_paper@10*; 2024-11-12 other@11; \
         2025-01-22 notification@12; 2025-02-28 camera_ready@13; 2025-04-24 conference@14",
        );
        check(
            include_str!("../../tests/fixtures/cutoff/cvpr_like.md"),
            "2024-11-08 abstract@8; 2024-11-14 full_paper@9*; 2024-11-21 other@10; \
         2025-01-23 other@11; 2025-01-30 other@11; 2025-02-26 notification@12; \
         2025-03-14 camera_ready@13; 2025-06-11 conference@14; 2024-11-14 full_paper@17",
        );
    }
}
