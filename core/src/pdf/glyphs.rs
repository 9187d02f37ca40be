//! Glyph names (as a font's encoding gives them) to text, for fonts with no
//! ToUnicode map. Accented letters are read from their names' parts
//! (`eacute` = `e` + acute) and composed; ligatures become their letters.

use crate::unicode;

/// Accent suffixes of glyph names and the combining mark each stands for.
const ACCENTS: &[(&str, char)] = &[
    ("acute", '\u{301}'),
    ("grave", '\u{300}'),
    ("circumflex", '\u{302}'),
    ("dieresis", '\u{308}'),
    ("tilde", '\u{303}'),
    ("ring", '\u{30a}'),
    ("cedilla", '\u{327}'),
    ("caron", '\u{30c}'),
    ("breve", '\u{306}'),
    ("macron", '\u{304}'),
    ("ogonek", '\u{328}'),
    ("dotaccent", '\u{307}'),
    ("hungarumlaut", '\u{30b}'),
];

/// Names that are not a letter plus an accent.
const NAMED: &[(&str, &str)] = &[
    ("space", " "),
    ("exclam", "!"),
    ("quotedbl", "\""),
    ("numbersign", "#"),
    ("dollar", "$"),
    ("percent", "%"),
    ("ampersand", "&"),
    ("quotesingle", "'"),
    ("quoteright", "\u{2019}"),
    ("quoteleft", "\u{2018}"),
    ("parenleft", "("),
    ("parenright", ")"),
    ("asterisk", "*"),
    ("plus", "+"),
    ("comma", ","),
    ("hyphen", "-"),
    ("period", "."),
    ("slash", "/"),
    ("colon", ":"),
    ("semicolon", ";"),
    ("less", "<"),
    ("equal", "="),
    ("greater", ">"),
    ("question", "?"),
    ("at", "@"),
    ("bracketleft", "["),
    ("backslash", "\\"),
    ("bracketright", "]"),
    ("asciicircum", "^"),
    ("underscore", "_"),
    ("braceleft", "{"),
    ("bar", "|"),
    ("braceright", "}"),
    ("asciitilde", "~"),
    ("zero", "0"),
    ("one", "1"),
    ("two", "2"),
    ("three", "3"),
    ("four", "4"),
    ("five", "5"),
    ("six", "6"),
    ("seven", "7"),
    ("eight", "8"),
    ("nine", "9"),
    ("endash", "\u{2013}"),
    ("emdash", "\u{2014}"),
    ("quotedblleft", "\u{201c}"),
    ("quotedblright", "\u{201d}"),
    ("quotedblbase", "\u{201e}"),
    ("quotesinglbase", "\u{201a}"),
    ("guillemotleft", "\u{ab}"),
    ("guillemotright", "\u{bb}"),
    ("exclamdown", "\u{a1}"),
    ("questiondown", "\u{bf}"),
    ("fi", "fi"),
    ("fl", "fl"),
    ("ff", "ff"),
    ("ffi", "ffi"),
    ("ffl", "ffl"),
    ("dotlessi", "\u{131}"),
    ("dotlessj", "\u{237}"),
    ("germandbls", "\u{df}"),
    ("ae", "\u{e6}"),
    ("AE", "\u{c6}"),
    ("oe", "\u{153}"),
    ("OE", "\u{152}"),
    ("oslash", "\u{f8}"),
    ("Oslash", "\u{d8}"),
    ("lslash", "\u{142}"),
    ("Lslash", "\u{141}"),
    ("eth", "\u{f0}"),
    ("Eth", "\u{d0}"),
    ("thorn", "\u{fe}"),
    ("Thorn", "\u{de}"),
    ("dagger", "\u{2020}"),
    ("daggerdbl", "\u{2021}"),
    ("section", "\u{a7}"),
    ("paragraph", "\u{b6}"),
    ("bullet", "\u{2022}"),
    ("ellipsis", "\u{2026}"),
    ("minus", "\u{2212}"),
    ("multiply", "\u{d7}"),
    ("divide", "\u{f7}"),
    ("degree", "\u{b0}"),
    ("copyright", "\u{a9}"),
    ("registered", "\u{ae}"),
    ("trademark", "\u{2122}"),
    ("sterling", "\u{a3}"),
    ("Euro", "\u{20ac}"),
    ("visiblespace", "\u{2423}"),
    // Spacing accents, as a font draws them over a letter placed apart.
    ("acute", "\u{b4}"),
    ("grave", "`"),
    ("circumflex", "\u{2c6}"),
    ("dieresis", "\u{a8}"),
    ("tilde", "\u{2dc}"),
    ("ring", "\u{2da}"),
    ("cedilla", "\u{b8}"),
    ("caron", "\u{2c7}"),
    ("breve", "\u{2d8}"),
    ("macron", "\u{af}"),
    ("ogonek", "\u{2db}"),
    ("dotaccent", "\u{2d9}"),
    ("hungarumlaut", "\u{2dd}"),
    // Greek letters of math fonts.
    ("alpha", "\u{3b1}"),
    ("beta", "\u{3b2}"),
    ("gamma", "\u{3b3}"),
    ("delta", "\u{3b4}"),
    ("epsilon", "\u{3b5}"),
    ("lambda", "\u{3bb}"),
    ("mu", "\u{3bc}"),
    ("pi", "\u{3c0}"),
    ("sigma", "\u{3c3}"),
    ("tau", "\u{3c4}"),
    ("phi", "\u{3c6}"),
    ("omega", "\u{3c9}"),
];

/// The text a glyph name stands for, or `None` for a name not known.
pub(crate) fn text_of(name: &str) -> Option<String> {
    if name.len() == 1 && name.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Some(name.to_string());
    }
    if let Some((_, text)) = NAMED.iter().find(|(n, _)| *n == name) {
        return Some((*text).to_string());
    }
    // `uniXXXX` (one or more code points) and `uXXXX[XX]`.
    if let Some(hex) = name.strip_prefix("uni") {
        if hex.len() % 4 == 0 && !hex.is_empty() {
            let chars: Option<String> = hex
                .as_bytes()
                .chunks(4)
                .map(|c| {
                    std::str::from_utf8(c)
                        .ok()
                        .and_then(|s| u32::from_str_radix(s, 16).ok())
                        .and_then(char::from_u32)
                })
                .collect();
            if chars.is_some() {
                return chars;
            }
        }
    }
    if let Some(hex) = name.strip_prefix('u') {
        if (4..=6).contains(&hex.len()) {
            if let Some(c) = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32) {
                return Some(c.to_string());
            }
        }
    }
    // A letter and an accent's name: `eacute`, `Ccaron`, `idieresis`.
    for (suffix, mark) in ACCENTS {
        if let Some(base) = name.strip_suffix(suffix) {
            let base = match base {
                "dotless" => "i",
                b => b,
            };
            if base.len() == 1 && base.bytes().all(|b| b.is_ascii_alphabetic()) {
                return Some(unicode::nfc(&format!("{base}{mark}")));
            }
        }
    }
    // Variants such as `a.sc` or `one.oldstyle`: their base name.
    if let Some((base, _)) = name.split_once('.') {
        if !base.is_empty() {
            return text_of(base);
        }
    }
    None
}

/// The text of a code in TeX's OT1 or T1 (Cork) font encoding, for fonts
/// that carry no glyph names. Codes that are ASCII in both are themselves.
pub(crate) fn tex_code(code: u32, ot1: bool) -> Option<&'static str> {
    const T1_LOW: [&str; 32] = [
        "`", "\u{b4}", "\u{2c6}", "\u{2dc}", "\u{a8}", "\u{2dd}", "\u{2da}", "\u{2c7}", "\u{2d8}",
        "\u{af}", "\u{2d9}", "\u{b8}", "\u{2db}", "\u{201a}", "\u{2039}", "\u{203a}", "\u{201c}",
        "\u{201d}", "\u{201e}", "\u{ab}", "\u{bb}", "\u{2013}", "\u{2014}", "", "0", "\u{131}",
        "\u{237}", "ff", "fi", "fl", "ffi", "ffl",
    ];
    const T1_HIGH: [&str; 64] = [
        "Ă", "Ą", "Ć", "Č", "Ď", "Ě", "Ę", "Ğ", "Ĺ", "Ľ", "Ł", "Ń", "Ň", "Ŋ", "Ő", "Ŕ", "Ř", "Ś",
        "Š", "Ş", "Ť", "Ţ", "Ű", "Ů", "Ÿ", "Ź", "Ž", "Ż", "Ĳ", "İ", "đ", "§", "ă", "ą", "ć", "č",
        "ď", "ě", "ę", "ğ", "ĺ", "ľ", "ł", "ń", "ň", "ŋ", "ő", "ŕ", "ř", "ś", "š", "ş", "ť", "ţ",
        "ű", "ů", "ÿ", "ź", "ž", "ż", "ĳ", "¡", "¿", "£",
    ];
    const T1_TOP: [&str; 64] = [
        "À", "Á", "Â", "Ã", "Ä", "Å", "Æ", "Ç", "È", "É", "Ê", "Ë", "Ì", "Í", "Î", "Ï", "Ð", "Ñ",
        "Ò", "Ó", "Ô", "Õ", "Ö", "Œ", "Ø", "Ù", "Ú", "Û", "Ü", "Ý", "Þ", "SS", "à", "á", "â", "ã",
        "ä", "å", "æ", "ç", "è", "é", "ê", "ë", "ì", "í", "î", "ï", "ð", "ñ", "ò", "ó", "ô", "õ",
        "ö", "œ", "ø", "ù", "ú", "û", "ü", "ý", "þ", "ß",
    ];
    const OT1_LOW: [&str; 32] = [
        "\u{393}", "\u{394}", "\u{398}", "\u{39b}", "\u{39e}", "\u{3a0}", "\u{3a3}", "\u{3a5}",
        "\u{3a6}", "\u{3a8}", "\u{3a9}", "ff", "fi", "fl", "ffi", "ffl", "\u{131}", "\u{237}", "`",
        "\u{b4}", "\u{2c7}", "\u{2d8}", "\u{af}", "\u{2da}", "\u{b8}", "ß", "æ", "œ", "ø", "Æ",
        "Œ", "Ø",
    ];
    match code {
        0..=0x1f => {
            let table = if ot1 { &OT1_LOW } else { &T1_LOW };
            table.get(code as usize).copied().filter(|s| !s.is_empty())
        }
        0x22 if ot1 => Some("\u{201d}"),
        0x27 => Some("\u{2019}"),
        0x5c if ot1 => Some("\u{201c}"),
        0x60 => Some("\u{2018}"),
        0x7b if ot1 => Some("\u{2013}"),
        0x7c if ot1 => Some("\u{2014}"),
        0x7d if ot1 => Some("\u{2dd}"),
        0x7e if ot1 => Some("\u{2dc}"),
        0x7f if ot1 => Some("\u{a8}"),
        0x7f => Some("-"),
        0x20 if !ot1 => Some("\u{2423}"),
        0x21..=0x7e => {
            let i = code as usize;
            "!\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~".get(i - 0x21..i - 0x20)
        }
        0x80..=0xbf if !ot1 => T1_HIGH.get(code as usize - 0x80).copied(),
        0xc0..=0xff if !ot1 => T1_TOP.get(code as usize - 0xc0).copied(),
        _ => None,
    }
}

/// The combining mark a spacing accent stands for, when it is one.
pub(crate) fn combining(accent: char) -> Option<char> {
    Some(match accent {
        '\u{b4}' => '\u{301}',
        '`' => '\u{300}',
        '\u{2c6}' | '^' => '\u{302}',
        '\u{a8}' => '\u{308}',
        '\u{2dc}' | '~' => '\u{303}',
        '\u{2da}' => '\u{30a}',
        '\u{b8}' => '\u{327}',
        '\u{2c7}' => '\u{30c}',
        '\u{2d8}' => '\u{306}',
        '\u{af}' => '\u{304}',
        '\u{2db}' => '\u{328}',
        '\u{2d9}' => '\u{307}',
        '\u{2dd}' => '\u{30b}',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_give_their_letters() {
        let check = |name: &str, expected: Option<&str>| {
            assert_eq!(text_of(name).as_deref(), expected, "{name}")
        };
        check("a", Some("a"));
        check("eacute", Some("é"));
        check("Zcaron", Some("Ž"));
        check("ohungarumlaut", Some("ő"));
        check("ffi", Some("ffi"));
        check("uni00E9", Some("é"));
        check("u1D400", Some("\u{1d400}"));
        check("one.oldstyle", Some("1"));
        check("quoteright", Some("\u{2019}"));
        check("g123", None);
    }

    #[test]
    fn tex_codes_read_as_ot1_or_t1() {
        let check = |code: u32, ot1: bool, expected: Option<&str>| {
            assert_eq!(tex_code(code, ot1), expected, "{code:#x} ot1={ot1}")
        };
        check(0x0c, true, Some("fi"));
        check(0x1c, false, Some("fi"));
        check(0x15, false, Some("\u{2013}"));
        check(0x7b, true, Some("\u{2013}"));
        check(0xae, false, Some("ő"));
        check(0xe9, false, Some("é"));
        check(0xdf, false, Some("SS"));
        check(0xe0, false, Some("à"));
        check(0xff, false, Some("ß"));
        check(0x41, true, Some("A"));
        check(0xe9, true, None);
    }
}
