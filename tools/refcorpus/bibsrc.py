"""Reading the source records: a small BibTeX reader, a LaTeX-to-text decoder and a
BibTeX name splitter, enough for the records the generator keeps.

A record whose title or names hold LaTeX this decoder does not know is dropped at pick
time (see `decodable`), so every truth string comes from a rule written here, never a guess.
"""

import re
import unicodedata

# ---------------------------------------------------------------------------------------
# BibTeX reading


def _balanced(text, i, open_ch, close_ch):
    """Index just past the delimiter closing the one at text[i]."""
    depth = 0
    j = i
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == open_ch:
            depth += 1
        elif c == close_ch:
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return -1


def parse_bib(text):
    """Yield (type, key, fields) for every regular entry. Fields are raw LaTeX values;
    a value built from @string macros is expanded when the macro is known, else the
    entry is skipped (its truth could not be told)."""
    strings = {
        m: m.capitalize()
        for m in "jan feb mar apr may jun jul aug sep oct nov dec".split()
    }
    i = 0
    while True:
        at = text.find("@", i)
        if at < 0:
            return
        m = re.match(r"@\s*([A-Za-z]+)\s*([{(])", text[at:])
        if not m:
            i = at + 1
            continue
        etype = m.group(1).lower()
        open_at = at + m.end() - 1
        open_ch = text[open_at]
        close_ch = "}" if open_ch == "{" else ")"
        end = _balanced(text, open_at, open_ch, close_ch)
        if end < 0:
            return
        body = text[open_at + 1 : end - 1]
        i = end
        if etype in ("comment", "preamble"):
            continue
        if etype == "string":
            fields = _fields(body, strings)
            if fields:
                strings.update({k.lower(): v for k, v in fields.items()})
            continue
        comma = body.find(",")
        if comma < 0:
            continue
        key = body[:comma].strip()
        fields = _fields(body[comma + 1 :], strings)
        if fields is None or not key:
            continue
        yield etype, key, fields


def _fields(body, strings):
    out = {}
    i = 0
    n = len(body)
    while i < n:
        m = re.compile(r"\s*,?\s*([A-Za-z][\w\-:.+]*)\s*=\s*").match(body, i)
        if not m:
            rest = body[i:].strip().strip(",").strip()
            if rest:
                return None
            break
        name = m.group(1).lower()
        i = m.end()
        parts = []
        while True:
            while i < n and body[i].isspace():
                i += 1
            if i >= n:
                return None
            c = body[i]
            if c == "{":
                e = _balanced(body, i, "{", "}")
                if e < 0:
                    return None
                parts.append(body[i + 1 : e - 1])
                i = e
            elif c == '"':
                j = i + 1
                depth = 0
                while j < n:
                    if body[j] == "\\":
                        j += 2
                        continue
                    if body[j] == "{":
                        depth += 1
                    elif body[j] == "}":
                        depth -= 1
                    elif body[j] == '"' and depth == 0:
                        break
                    j += 1
                if j >= n:
                    return None
                parts.append(body[i + 1 : j])
                i = j + 1
            else:
                mm = re.compile(r"[\w\-:.+]+").match(body, i)
                if not mm:
                    return None
                word = mm.group(0)
                if word.isdigit():
                    parts.append(word)
                elif word.lower() in strings:
                    parts.append(strings[word.lower()])
                else:
                    return None
                i = mm.end()
            while i < n and body[i].isspace():
                i += 1
            if i < n and body[i] == "#":
                i += 1
                continue
            break
        out[name] = "".join(parts)
    return out


# ---------------------------------------------------------------------------------------
# LaTeX to text

ACCENTS = {
    "'": "\u0301",
    "`": "\u0300",
    "^": "\u0302",
    '"': "\u0308",
    "~": "\u0303",
    "=": "\u0304",
    ".": "\u0307",
    "u": "\u0306",
    "v": "\u030c",
    "H": "\u030b",
    "c": "\u0327",
    "k": "\u0328",
    "r": "\u030a",
    "d": "\u0323",
    "b": "\u0331",
}

SYMBOLS = {
    "ss": "ß",
    "o": "ø",
    "O": "Ø",
    "ae": "æ",
    "AE": "Æ",
    "oe": "œ",
    "OE": "Œ",
    "aa": "å",
    "AA": "Å",
    "l": "ł",
    "L": "Ł",
    "i": "ı",
    "j": "ȷ",
    "&": "&",
    "{": "{",
    "}": "}",
    "%": "%",
    "_": "_",
    "$": "$",
    "#": "#",
    "textendash": "–",
    "textemdash": "—",
    "textquoteright": "’",
    "textquoteleft": "‘",
    "ldots": "…",
    "dots": "…",
    "textbackslash": "\\",
    "S": "§",
    "copyright": "©",
    "textregistered": "®",
    "texttrademark": "™",
    "LaTeX": "LaTeX",
    "TeX": "TeX",
    "BibTeX": "BibTeX",
    " ": " ",
    ",": " ",
    "-": "",
    "/": "",
}

MATH = {
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "epsilon": "ϵ",
    "varepsilon": "ε",
    "lambda": "λ",
    "mu": "μ",
    "pi": "π",
    "sigma": "σ",
    "tau": "τ",
    "theta": "θ",
    "phi": "ϕ",
    "omega": "ω",
    "Omega": "Ω",
    "Gamma": "Γ",
    "Delta": "Δ",
    "Lambda": "Λ",
    "infty": "∞",
    "times": "×",
    "cdot": "·",
    "leq": "≤",
    "le": "≤",
    "geq": "≥",
    "ge": "≥",
    "to": "→",
    "rightarrow": "→",
    "log": "log",
    "sqrt": "√",
    "ell": "ℓ",
    "pm": "±",
    "in": "∈",
    "mathbb": "",
    "mathcal": "",
    "mathrm": "",
    "mathit": "",
    "mathbf": "",
    "text": "",
    "operatorname": "",
    ",": " ",
    ";": " ",
    " ": " ",
}

# commands that only change the look of their argument
STYLE = {
    "emph",
    "textit",
    "textbf",
    "textsc",
    "textrm",
    "textsf",
    "texttt",
    "textup",
    "mbox",
    "textnormal",
    "url",
    "NoCaseChange",
    "MakeUppercase",
    "uppercase",
    "ensuremath",
}
DECLS = {"em", "it", "bf", "sc", "rm", "sf", "tt", "itshape", "bfseries", "scshape"}


class Undecodable(Exception):
    pass


def latex_to_text(s):
    """Unicode text of a BibTeX field as the document prints it (case as written)."""
    out = []
    _decode(s, 0, len(s), out, False)
    text = "".join(out)
    text = text.replace("---", "—").replace("--", "–").replace("``", "“")
    text = text.replace("''", "”")
    text = unicodedata.normalize("NFC", text)
    return re.sub(r"\s+", " ", text).strip()


def _arg(s, i, end):
    """(argument text, index after it) of a command argument at s[i]."""
    while i < end and s[i] == " ":
        i += 1
    if i >= end:
        raise Undecodable("missing argument")
    if s[i] == "{":
        e = _balanced(s, i, "{", "}")
        if e < 0 or e > end:
            raise Undecodable("unbalanced")
        return s[i + 1 : e - 1], e
    if s[i] == "\\":
        m = re.compile(r"\\([A-Za-z]+|.)").match(s, i)
        return m.group(0), m.end()
    return s[i], i + 1


def _decode(s, i, end, out, math):
    while i < end:
        c = s[i]
        if c == "{":
            e = _balanced(s, i, "{", "}")
            if e < 0 or e > end:
                raise Undecodable("unbalanced")
            _decode(s, i + 1, e - 1, out, math)
            i = e
        elif c == "}":
            raise Undecodable("unbalanced")
        elif c == "$":
            e = s.find("$", i + 1)
            if e < 0 or e > end:
                raise Undecodable("open math")
            _decode(s, i + 1, e, out, True)
            i = e + 1
        elif c == "~":
            out.append(" ")
            i += 1
        elif math and c in "^_":
            i += 1
        elif c == "\\":
            m = re.compile(r"\\([A-Za-z]+|.)").match(s, i)
            if not m:
                raise Undecodable("lone backslash")
            name = m.group(1)
            i = m.end()
            if name in ACCENTS and (len(name) == 1 and not name.isalpha() or i < end and s[i] in "{ "):
                arg, i = _arg(s, i, end)
                inner = []
                _decode(arg, 0, len(arg), inner, math)
                t = "".join(inner)
                if not t:
                    raise Undecodable("empty accent")
                out.append(t[0] + ACCENTS[name] + t[1:])
            elif name.isalpha() and i < end and s[i] == " ":
                # a control word eats the space after it
                i += 1
                i = _word(name, s, i, end, out, math)
            else:
                i = _word(name, s, i, end, out, math)
        else:
            out.append(c)
            i += 1


def _word(name, s, i, end, out, math):
    if name in STYLE:
        arg, i = _arg(s, i, end)
        _decode(arg, 0, len(arg), out, math)
        return i
    if name in DECLS:
        return i
    if name in SYMBOLS and not (math and name in MATH):
        out.append(SYMBOLS[name])
        return i
    if math and name in MATH:
        out.append(MATH[name])
        if name in ("log",):
            out.append(" ")
        return i
    raise Undecodable("unknown command \\" + name)


# ---------------------------------------------------------------------------------------
# Names


def split_top(s, sep_re):
    """Split at matches of sep_re that lie at brace depth 0."""
    parts = []
    depth = 0
    last = 0
    i = 0
    while i < len(s):
        c = s[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif depth == 0:
            m = sep_re.match(s, i)
            if m and m.end() > i:
                parts.append(s[last:i])
                last = m.end()
                i = m.end()
                continue
        i += 1
    parts.append(s[last:])
    return [p.strip() for p in parts]


AND = re.compile(r"\s+and\s+", re.I)
COMMA = re.compile(r",")
SPACE = re.compile(r"[\s~]+")


def _is_von(word):
    for ch in word:
        if ch.isalpha():
            return ch.islower()
        if ch == "{":
            return False
    return False


def split_names(field):
    """[(given, von+family)] of a BibTeX name list, in LaTeX; None for "others"."""
    names = []
    for raw in split_top(field.strip(), AND):
        if not raw:
            continue
        if raw.lower() == "others":
            names.append(None)
            continue
        parts = split_top(raw, COMMA)
        if len(parts) == 1:
            words = [w for w in split_top(parts[0], SPACE) if w]
            if len(words) == 1:
                names.append(("", words[0]))
                continue
            # First von Last: von starts at the first lowercase word that is not the last
            k = next((j for j, w in enumerate(words[:-1]) if _is_von(w)), len(words) - 1)
            names.append((" ".join(words[:k]), " ".join(words[k:])))
        else:
            # "von Last, First" or "von Last, Jr, First": the Jr part is not the family
            names.append((parts[-1], parts[0]))
    return names
