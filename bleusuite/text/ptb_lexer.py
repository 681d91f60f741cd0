"""The Stanford PTB tokenizer's lexer (CoreNLP 3.4.1's ``PTBLexer.flex``, the jar that
pycocoevalcap 1.2 runs), rule for rule, for the lines that :mod:`bleusuite.text.ptb`'s fast
path does not take.

JFlex's scanner, which this emulates:

1. At each position every rule is tried; the one matching the most characters wins, its
   trailing context (``r1/r2``: ``r2`` is looked at, not consumed) counted in that length.
2. Equal lengths: the rule written first wins.
3. The winner's action makes the token (or none: spaces), and may push characters back
   (``cannot`` -> ``can``, then ``not`` is scanned again).

The rules are the file's, in its order, with its options at their defaults plus
``tokenizeNLs`` (``-preserveLines``): PTB3 escaping (``(`` -> ``-LRB-``, ``"`` -> `````/
``''``, currency and fractions normalised, ``--`` and ``...``), untokenizable characters
deleted. The scanner is ``%caseless`` for literal text but not inside character classes
(``[A]z`` matches ``Az`` and ``AZ``, not ``az``), hence the ``(?-i:...)`` groups.
Characters are UTF-16 units in Java: a character beyond U+FFFF is untokenizable there, and
deleted here (the letter and digit classes below stop at U+FFFF). The macros keep the
flex file's names and are written one a line, however long, to be read against it.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable

__all__ = ["lex"]


def _category_class(prefix: str) -> str:
    """A regex character class body of every BMP character whose Unicode category starts
    with ``prefix`` (Java's ``Character.isLetter`` / ``isDigit`` / ``isUpperCase``)."""
    ranges: list[str] = []
    start = previous = -2
    for code in range(0x10000):
        if 0xD800 <= code <= 0xDFFF or not unicodedata.category(chr(code)).startswith(prefix):
            continue
        if code != previous + 1:
            if start >= 0:
                ranges.append(_range(start, previous))
            start = code
        previous = code
    ranges.append(_range(start, previous))
    return "".join(ranges)


def _range(start: int, end: int) -> str:
    return f"\\u{start:04x}" if start == end else f"\\u{start:04x}-\\u{end:04x}"


def _macros() -> dict[str, str]:
    letter_chars = _category_class("L")
    m: dict[str, str] = {}
    m["SPLET"] = r"&[aeiouAEIOU](?:acute|grave|uml);"
    m["LETTERCLASS"] = (letter_chars + r"\u00AD\u0237-\u024F\u02C2-\u02C5\u02D2-\u02DF\u02E5-\u02FF"
                        r"\u0300-\u036F\u0370-\u037D\u0384\u0385\u03CF\u03F6\u03FC-\u03FF"
                        r"\u0483-\u0487\u04CF\u04F6-\u04FF\u0510-\u0525\u055A-\u055F\u0591-\u05BD"
                        r"\u05BF\u05C1\u05C2\u05C4\u05C5\u05C7\u0615-\u061A\u063B-\u063F"
                        r"\u064B-\u065E\u0670\u06D6-\u06EF\u06FA-\u06FF\u070F\u0711\u0730-\u074F"
                        r"\u0750-\u077F\u07A6-\u07B1\u07CA-\u07F5\u07FA\u0900-\u0903\u093C"
                        r"\u093E-\u094E\u0951-\u0955\u0962-\u0963\u0981-\u0983\u09BC-\u09C4"
                        r"\u09C7\u09C8\u09CB-\u09CD\u09D7\u09E2\u09E3\u0A01-\u0A03\u0A3C"
                        r"\u0A3E-\u0A4F\u0A81-\u0A83\u0ABC-\u0ACF\u0B82\u0BBE-\u0BC2\u0BC6-\u0BC8"
                        r"\u0BCA-\u0BCD\u0C01-\u0C03\u0C3E-\u0C56\u0D3E-\u0D44\u0D46-\u0D48"
                        r"\u0E30-\u0E3A\u0E47-\u0E4E\u0EB1-\u0EBC\u0EC8-\u0ECD")
    m["PLETTER"] = f"[{letter_chars}]"              # [:letter:]
    m["PDIGIT"] = f"[{_category_class('Nd')}]"      # [:digit:]
    m["UPPER"] = f"(?-i:[{_category_class('Lu')}])"  # [:uppercase:]
    m["LETTER"] = f"(?:[{m['LETTERCLASS']}]|{m['SPLET']})"
    m["DIGIT"] = f"(?:{m['PDIGIT']}|[\\u07C0-\\u07C9])"
    m["SGML"] = (r"<(?:[!?][A-Za-z\-][^>\r\n]*|[A-Za-z][A-Za-z0-9_:.\-]*(?:[ ]+(?:[A-Za-z][A-Za-z0-9_:.\-]*"  # noqa: E501
                 r"|[A-Za-z][A-Za-z0-9_:.\-]*[ ]*=[ ]*(?:'[^']*'|\"[^\"]*\")))*[ ]*/?"
                 r"|/[A-Za-z][A-Za-z0-9_:.\-]*)[ ]*>")
    m["SPACE"] = r"[ \t\u00A0\u2000-\u200A\u3000]"
    m["NEWLINE"] = r"(?:\r?\n|\r|[\u2028\u2029\u000B\u000C\u0085])"
    m["SPACENL"] = f"(?:{m['SPACE']}|{m['NEWLINE']})"
    m["SPACENLS"] = f"{m['SPACENL']}+"
    m["SENTEND"] = f"{m['SPACENL']}(?:{m['SPACENL']}|{m['UPPER']}|{m['SGML']})"
    d = m["DIGIT"]
    m["DATE"] = f"{d}{{1,2}}[\\-/]{d}{{1,2}}[\\-/]{d}{{2,4}}"
    m["NUM"] = f"(?:{d}*(?:[.:,\\u00AD\\u066B\\u066C]{d}+)+|{d}+)"
    m["NUMBER"] = f"[\\-+]?{m['NUM']}"
    m["SUBSUPNUM"] = r"[\u207A\u207B\u208A\u208B]?(?:[\u2070\u00B9\u00B2\u00B3\u2074-\u2079]+|[\u2080-\u2089]+)"  # noqa: E501
    m["FRAC"] = f"(?:{d}{{1,4}}[- \\u00A0])?{d}{{1,4}}(?:\\\\?/|\\u2044){d}{{1,4}}"
    m["FRAC2"] = r"[\u00BC\u00BD\u00BE\u2153-\u215E]"
    m["DOLSIGN"] = r"(?:(?-i:[A-Z])*\$|#)"
    m["DOLSIGN2"] = r"[\u00A2\u00A3\u00A4\u00A5\u0080\u20A0\u20AC\u060B\u0E3F\u20A4\uFFE0\uFFE1\uFFE5\uFFE6]"  # noqa: E501
    le = m["LETTER"]
    m["WORD"] = f"{le}(?:{le}|{d})*(?:[.!?]{le}(?:{le}|{d})*)*"
    ext = ("bat|bmp|class|cgi|cpp|c|dll|docx|doc|exe|gif|gz|html|htm|h|jar|java|jpeg|jpg|mov|mp3|pdf"  # noqa: E501
           "|php|pl|png|ppt|ps|py|sql|tar|txt|wav|xml|x|zip")
    m["FILENAME"] = f"(?:{le}|{d})+(?:[.](?:{le}|{d})+)*(?:[.](?:{ext}))"
    m["APOS"] = r"(?:['\u0092\u2019]|&apos;)"
    m["APOSETCETERA"] = f"(?:{m['APOS']}|[`\\u0091\\u2018\\u201B])"
    pl, pd, ae = m["PLETTER"], m["PDIGIT"], m["APOSETCETERA"]
    m["HYPHEN"] = r"[-_\u058A\u2010\u2011]"
    part = f"(?:(?-i:[dDoOlL]){ae}(?:{pl}|{pd}))?(?:{pl}|{pd})+"
    m["THING"] = f"{part}(?:{m['HYPHEN']}{part})*"
    m["THINGA"] = r"(?-i:[A-Z])+(?:(?:[+&]|&amp;)(?-i:[A-Z])+)+"
    m["THING3"] = r"[A-Za-z0-9]+(?:-[A-Za-z]+){0,2}(?:\\?/[A-Za-z0-9]+(?:-[A-Za-z]+){0,2}){1,2}"
    acro2 = r"(?:[A-Za-z](?:\.[A-Za-z])+|(?:Canada|Sino|Korean|EU|Japan|non)-U\.S|U\.S\.-(?:U\.K|U\.S\.S\.R))"  # noqa: E501
    m["ACRO"] = r"(?:(?:Canada|Sino|Korean|EU|Japan|non)-U\.S|U\.S\.-(?:U\.K|U\.S\.S\.R)|[A-Za-z](?:\.[A-Za-z])*)"  # noqa: E501
    m["HTHING"] = f"[A-Za-z0-9][A-Za-z0-9.,\\u00AD]*(?:-(?:[A-Za-z0-9\\u00AD]+|{acro2}\\.))+"
    m["REDAUX"] = f"{m['APOS']}(?:[msdMSD]|re|ve|ll)"
    m["SWORD"] = r"[A-Za-z\u00AD]*(?-i:[A-MO-Za-mo-z])\u00AD*"
    m["SREDAUX"] = f"n{ae}t"
    ap = m["APOS"]
    m["APOWORD"] = (f"(?:{ap}n{ap}?|(?-i:[lLdDjJ]){ap}|Dunkin{ap}|somethin{ap}|ol{ap}|{ap}em"
                    f"|(?-i:[A-HJ-XZn]){ae}{pl}{{2}}{pl}*|{ap}[2-9]0s|{ap}till?"
                    f"|{pl}{pl}*(?-i:[aeiouyAEIOUY]){ae}(?-i:[aeiouA-Z]){pl}*|{ap}cause|cont'd\\.?"
                    f"|'twas|nor'easter|c'mon|e'er|s'mores|ev'ry|li'l|nat'l|O{ae}o)")
    m["FULLURL"] = r"https?://[^ \t\n\f\r\"<>|(){}]*[^ \t\n\f\r\"<>|.!?(){},-]"
    m["LIKELYURL"] = (r"(?:(?:www\.(?:[^ \t\n\f\r\"<>|.!?(){},]+\.)+[a-zA-Z]{2,4})"
                      r"|(?:(?:(?-i:[^ \t\n\f\r\"`'<>|.!?(){},-_$])+\.)+(?:com|net|org|edu)))"
                      r"(?:/[^ \t\n\f\r\"<>|()]*[^ \t\n\f\r\"<>|.!?(){},-])?")
    m["EMAIL"] = (r"(?:&lt;|<)?[a-zA-Z0-9][^ \t\n\f\r\"<>|()\u00A0{}]*@(?:[^ \t\n\f\r\"<>|(){}.\u00A0]+\.)*"  # noqa: E501
                  r"(?:[^ \t\n\f\r\"<>|(){}.\u00A0]+)(?:&gt;|>)?")
    m["TWITTER"] = f"(?:@[a-zA-Z_][a-zA-Z_0-9]*|#{le}+)"
    abstate = ("Ala|Ariz|(?-i:A)z|(?-i:A)rk|Calif|Colo|Conn|Ct|Dak|(?-i:D)el|Fla|Ga|(?-i:I)ll|Ind|Kans?|Ky"  # noqa: E501
               "|(?-i:L)a|(?-i:M)ass|Md|Mich|Minn|(?-i:M)iss|Mo|Mont|Neb|Nev|Okla|(?-i:O)re|(?-i:P)a|Penn"
               "|Tenn|(?-i:T)ex|Va|Vt|(?-i:W)ash|Wisc?|Wyo")
    m["ABBREV1"] = ("(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Mon|Tue|Tues|Wed|Thu|Thurs|Fri|"  # noqa: E501
                    + abstate + "|Inc|Cos?|Corp|Pp?t(?-i:[ye])s?|Ltd|Plc|Rt|Bancorp|Bhd|Assn|Univ|Intl|Sys"  # noqa: E501
                    "|tel|est|ext|sq|Jr|Sr|Bros|(?:Ed|Ph)\\.D|Blvd|Rd|Esq|etc|al|seq|Bldg)\\.")
    abtitle = ("Mr|Mrs|Ms|(?-i:M)iss|Drs?|Profs?|Sens?|Reps?|Attys?|Lt|Col|Gen|Messrs|Govs?|Adm|Rev|Maj|Sgt"  # noqa: E501
               "|Cpl|Pvt|Capt|Ste?|Ave|Pres|Lieut|Hon|Brig|Co?mdr|Pfc|Spc|Supts?|Det|Mt|Ft|Adj|Adv|Asst"
               "|Assoc|Ens|Insp|Mlle|Mme|Msgr|Sfc")
    m["ABBREV4"] = (f"(?:{abtitle}|vs|Alex|Wm|Jos|Cie|a\\.k\\.a|cf|TREAS|Ph|{m['ACRO']}"
                    "|Invt|Elec|Natl|M(?-i:[ft])g|Dept)")
    m["ABBREV2"] = f"{m['ABBREV4']}\\."
    m["ACRONYM"] = f"{m['ACRO']}\\."
    m["ABBREV3"] = r"(?:ca|figs?|prop|nos?|art|bldg|pp|op)\."
    m["PHONE"] = (r"(?:(?:\([0-9]{2,3}\)[ \u00A0]?|(?:\+\+?)?(?:[0-9]{2,4}[\- \u00A0])?[0-9]{2,4}[\- \u00A0])"  # noqa: E501
                  r"[0-9]{3,4}[\- \u00A0]?[0-9]{3,5}|(?:(?:\+\+?)?[0-9]{2,4}\.)?[0-9]{2,4}\.[0-9]{3,4}\.[0-9]{3,5})")  # noqa: E501
    m["LDOTS"] = r"(?:\.{3,5}|(?:\.[ \u00A0]){2,4}\.|[\u0085\u2026])"
    m["ASTS"] = r"(?:\*+|(?:\\\*){1,3})"
    m["INSENTP"] = r"[,;:\u3001]"
    m["QUOTES"] = (f"(?:''|[`\\u2018\\u2019\\u201A\\u201B\\u201C\\u201D\\u0091\\u0092\\u0093\\u0094"
                   f"\\u201E\\u201F\\u2039\\u203A\\u00AB\\u00BB]{{1,2}}|{ap})")
    m["DBLQUOT"] = r"(?:\"|&quot;)"
    m["TBSPEC"] = f"(?:-(?:RRB|LRB|RCB|LCB|RSB|LSB)-|C\\.D\\.s|pro-|anti-|S(?:&|&amp;)P-500|S(?:&|&amp;)Ls|Cap{ap}n|c{ap}est)"  # noqa: E501
    m["TBSPEC2"] = f"{ap}[0-9][0-9]"
    m["SMILEY"] = r"(?-i:[<>]?[:;=][\-o*']?[()DPdpO\\{@|\[\]])"
    m["ASIANSMILEY"] = (r"(?-i:[\^x=~<>]\.\[\^x=~<>\]|[\-\^x=~<>']_[\-\^x=~<>']|\([\-\^x=~<>'][_.]?[\-\^x=~<>']\)"  # noqa: E501
                        r"|\([\^x=~<>']-[\^x=~<>'`]\))")
    m["MISCSYMBOL"] = ("[+%&~\\^|\\\\\u00A6\\u00A7\u00A8\\u00A9\\u00AC\\u00AE\u00AF\\u00B0-\\u00B3\\u00B4-\\u00BA"  # noqa: E501
                       "\\u00D7\\u00F7\\u0387\\u05BE\\u05C0\\u05C3\\u05C6\\u05F3\\u05F4\\u0600-\\u0603"
                       "\\u0606-\\u060A\\u060C\\u0614\\u061B\\u061E\\u066A\\u066D\\u0703-\\u070D\\u07F6\\u07F7"
                       "\\u07F8\\u0964\\u0965\\u0E4F\\u1FBD\\u2016\\u2017\\u2020-\\u2023\\u2030-\\u2038\\u203B"
                       "\\u203E-\\u2042\\u2044\\u207A-\\u207F\\u208A-\\u208E\\u2100-\\u214F\\u2190-\\u21FF"
                       "\\u2200-\\u2BFF\\u3012\\u30FB\\uFF01-\\uFF0F\\uFF1A-\\uFF20\\uFF3B-\\uFF40\\uFF5B-\\uFF65]")
    return m


def _no_soft_hyphens(text: str) -> str:
    if "\u00ad" not in text:
        return text
    return text.replace("\u00ad", "") or "-"


_CURRENCY = str.maketrans({"\u00a2": "cents", "\u00a3": "#", "\u0080": "$", "\u00a4": "$",
                           "\u20a0": "$", "\u20ac": "$"})
_FRACTIONS = str.maketrans({"\u00bc": "1/4", "\u00bd": "1/2", "\u00be": "3/4", "\u2153": "1/3",
                            "\u2154": "2/3"})
_SINGLE = re.compile("&apos;|'")
_DOUBLE = re.compile("\"|&quot;")
_QUOTE_MARKS = str.maketrans({"\u0091": "`", "\u2018": "`", "\u201b": "`", "\u2039": "`",
                              "\u0092": "'", "\u2019": "'", "\u203a": "'",
                              "\u0093": "``", "\u201c": "``", "\u00ab": "``",
                              "\u0094": "''", "\u201d": "''", "\u00bb": "''"})


def _quotes(text: str, probably_left: bool) -> str:
    """PTBLexer's latexQuotes: ASCII quotes by the side they are probably on, the curly
    ones by their own side."""
    if probably_left:
        text = _DOUBLE.sub("``", _SINGLE.sub("`", text))
    else:
        text = _DOUBLE.sub("''", _SINGLE.sub("'", text))
    return text.translate(_QUOTE_MARKS)


def _parens(text: str) -> str:
    return text.replace("(", "-LRB-").replace(")", "-RRB-")


_BRACKETS = {"{": "-LCB-", "}": "-RCB-", "[": "-LSB-", "]": "-RSB-", "(": "-LRB-", ")": "-RRB-"}
_WHITESPACE = " \t\n\x0b\x0c\r\x85"

# An action maps the matched text to (token or None, characters pushed back).
Action = Callable[[str], "tuple[str | None, int]"]


def _keep(text: str) -> tuple[str | None, int]:
    return text, 0


def _skip(text: str) -> tuple[str | None, int]:
    return None, 0


def _back(n: int) -> Action:
    return lambda text: (text[:-n], n)


def _acronym(text: str) -> tuple[str | None, int]:
    # "I." before "He ...": the letter alone, the period scanned again; "U.S." before "The":
    # the acronym with its period, and the period again as a token of its own.
    text = text.rstrip(_WHITESPACE)
    return (text[:-1], 1) if len(text) == 2 else (text, 1)


def _rules(m: dict[str, str]) -> list[tuple[str, str | None, Action]]:
    """PTBLexer.flex's rules in its order (YyTraditionalTreebank3 state): the regex, its
    trailing context, its action."""
    space, spacenl = m["SPACE"], m["SPACENL"]
    words = ("About|According|Additionally|After|An|A|As|At|But|Earlier|He|Her|Here|However|If|In"
             "|It|Last|Many|More|Mr\\.|Ms\\.|Now|Once|One|Other|Our|She|Since|So|Some|Such|That|The"
             "|Their|Then|There|These|They|This|We|When|While|What|Yet|You")
    # [A]bout: the first letter is a character class (case-sensitive), the rest caseless.
    cased = "|".join(f"(?-i:{w[0]}){w[1:]}" for w in words.split("|"))
    return [
        ("c[+][+]", None, _keep),
        ("(?:c|f)#", None, _keep),
        ("cannot", None, _back(3)),
        ("'twas", None, _back(3)),
        ("'tis", None, _back(2)),
        ("gonna|gotta|lemme|gimme|wanna", None, _back(2)),
        (m["SGML"], None, lambda t: (t.replace(" ", "\u00a0"), 0)),
        (r"&(?:MD|mdash|ndash);|[\u0096\u0097\u2013\u2014\u2015]", None, lambda t: ("--", 0)),
        ("&amp;", None, lambda t: ("&", 0)),
        (r"&(?:HT|TL|UR|LR|QC|QL|QR|odq|cdq|#[0-9]+);", None, _keep),
        (m["WORD"], m["REDAUX"], lambda t: (_no_soft_hyphens(t), 0)),
        (m["SWORD"], m["SREDAUX"], lambda t: (_no_soft_hyphens(t), 0)),
        (m["WORD"], None, lambda t: (_no_soft_hyphens(t), 0)),
        (m["APOWORD"], None, _keep),
        ("[yY]" + m["APOS"], m["PLETTER"], _keep),
        (m["FULLURL"], None, _keep),
        (m["LIKELYURL"], None, _keep),
        (m["EMAIL"], None, _keep),
        (m["TWITTER"], None, _keep),
        (m["REDAUX"], "[^A-Za-z]", lambda t: (_quotes(t, False), 0)),
        (m["SREDAUX"], "[^A-Za-z]", lambda t: (_quotes(t, False), 0)),
        (m["DATE"], None, _keep),
        (m["NUMBER"], None, lambda t: (_no_soft_hyphens(t), 0)),
        (m["SUBSUPNUM"], None, _keep),
        (m["FRAC"], None, lambda t: (t.replace(" ", "\u00a0"), 0)),
        (m["FRAC2"], None, lambda t: (t.translate(_FRACTIONS), 0)),
        (m["TBSPEC"], None, lambda t: (re.sub("(?i)&amp;", "&", t), 0)),
        (m["THING3"], None, _keep),
        (m["DOLSIGN"], None, _keep),
        (m["DOLSIGN2"], None, lambda t: (t.translate(_CURRENCY), 0)),
        (m["ACRONYM"], f"{m['SPACENLS']}(?:{cased}|{m['SGML']}){spacenl}", _acronym),
        (m["ABBREV3"], f"{spacenl}?{m['PDIGIT']}", lambda t: (t.rstrip(_WHITESPACE), 0)),
        (r"(?:pt(?-i:[eyEY])|co)\.", f"{space}(?:ltd|lim)", _keep),
        (m["ABBREV1"], m["SENTEND"], lambda t: (t, 1)),
        (m["ABBREV1"], r"[\s\S]{2}", _keep),
        (m["ABBREV1"], None, lambda t: (t, 1)),
        (m["ABBREV2"], None, _keep),
        (m["ABBREV4"], space, _keep),
        (m["ACRO"], spacenl, _keep),
        (m["TBSPEC2"], spacenl, _keep),
        (m["FILENAME"], f"(?:{spacenl}|[.?!,])", _keep),
        (m["WORD"] + r"\.", m["INSENTP"], lambda t: (_no_soft_hyphens(t), 0)),
        (m["PHONE"], None, lambda t: (_parens(t.replace(" ", "\u00a0")), 0)),
        (m["DBLQUOT"], "[A-Za-z0-9$]", lambda t: (_quotes(t, True), 0)),
        (m["DBLQUOT"], None, lambda t: (_quotes(t, False), 0)),
        ("\x7f", None, _skip),
        ("<|&lt;", None, lambda t: ("<", 0)),
        (">|&gt;", None, lambda t: (">", 0)),
        (m["SMILEY"], "[^A-Za-z0-9]", lambda t: (_parens(t), 0)),
        (m["ASIANSMILEY"], None, lambda t: (_parens(t), 0)),
        (r"[{}\[\]()]", None, lambda t: (_BRACKETS[t], 0)),
        (r"-+", None, lambda t: ("--" if 3 <= len(t) <= 4 else t, 0)),
        (m["LDOTS"], None, lambda t: ("...", 0)),
        ("@+|#+|_+", None, _keep),
        (m["ASTS"], None, _keep),
        (m["INSENTP"], None, _keep),
        ("[?!]+", None, _keep),
        ("[.\u00a1\u00bf\u037e\u0589\u061f\u06d4\u0700-\u0702\u07fa\u3002]", None, _keep),
        ("=", None, _keep),
        ("/", None, _keep),
        (m["HTHING"] + r"\.", m["INSENTP"], lambda t: (_no_soft_hyphens(t), 0)),
        (m["HTHING"], None, lambda t: (_no_soft_hyphens(t), 0)),
        (m["THING"] + r"\.", m["INSENTP"], _keep),
        (m["THING"], None, _keep),
        (m["THINGA"] + r"\.", m["INSENTP"], lambda t: (t.replace("&amp;", "&"), 0)),
        (m["THINGA"], None, lambda t: (t.replace("&amp;", "&"), 0)),
        ("'", "[A-Za-z][^ \t\n\r\u00a0]", lambda t: (_quotes(t, True), 0)),
        (m["REDAUX"], None, lambda t: (_quotes(t, False), 0)),
        (m["SREDAUX"], None, lambda t: (_quotes(t, False), 0)),
        (m["QUOTES"], None, lambda t: (_quotes(t, False), 0)),
        ("<<|>>", None, _keep),
        (m["MISCSYMBOL"], None, _keep),
        (f"\0|{space}+|[\u200b\u200e\u200f\ufeff]", None, _skip),
        (m["NEWLINE"], None, lambda t: ("\n", 0)),
        ("&nbsp;", None, _skip),
    ]


@functools.lru_cache(maxsize=1)
def _compiled() -> list[tuple[re.Pattern[str], Action]]:
    """The rules as one pattern each, the token in group 1 (trailing context after it)."""
    flags = re.IGNORECASE | re.ASCII
    return [(re.compile(f"({regex})" + (f"(?:{context})" if context else ""), flags), action)
            for regex, context, action in _rules(_macros())]


_PLAIN_WORD = re.compile("[A-Za-z]+(?= )")
_ASSIMILATIONS = frozenset(["cannot", "gonna", "gotta", "lemme", "gimme", "wanna"])


def lex(text: str, start: int = 0, end: int | None = None) -> list[str]:
    """The tokens PTBLexer makes of ``text[start:end]`` (``end``: where a token may no
    longer start), lowercased as PTBTokenizer's ``-lowerCase`` does, with the rest of
    ``text`` as the trailing context it looks at."""
    rules = _compiled()
    end = len(text) if end is None else end
    tokens: list[str] = []
    position = start
    while position < end:
        # A run of letters before a space, or spaces: no rule makes anything else of them
        # (nothing that starts with a letter reaches past a space), except "cannot" & co.
        match = _PLAIN_WORD.match(text, position)
        if match is not None and match.group().lower() not in _ASSIMILATIONS:
            tokens.append(match.group().lower())
            position = match.end()
            continue
        if text[position] == " ":
            position += 1
            continue
        best_length, best = 0, None
        for pattern, action in rules:
            match = pattern.match(text, position)
            if match is not None and match.end() - position > best_length:
                best_length, best = match.end() - position, (match, action)
        if best is None:            # untokenizable (JFlex's last rule, "."): deleted
            position += 1
            continue
        match, action = best
        token, pushed_back = action(match.group(1))
        position = match.end(1) - pushed_back
        if token is not None and token != "\n":
            tokens.append(token.lower())
    return tokens


