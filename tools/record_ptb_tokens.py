"""Record the Stanford PTB tokenizer's output (pycocoevalcap 1.2's ``PTBTokenizer``, Java)
on a broad corpus, for tests/captioning/test_ptb_tokenizer.py, so CI needs no Java.

Run where ``java`` is on the PATH (Debian: ``apt-get install default-jre-headless``):

    python tools/record_ptb_tokens.py tests/captioning/data/ptb_tokens.json

The corpus: the English side of /work/shared/data/wmt15-enru-100 (Moses-escaped, and
detokenised back to plain text), generated COCO-like captions and hand-written hard cases
(quotes, brackets, contractions, hyphens, abbreviations, numbers, currency, accents,
Unicode punctuation). Every other line is held out: the Python tokenizer is developed on
the ``develop`` lines and tested on every line.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
WMT = Path("/work/shared/data/wmt15-enru-100/src.en")

HARD_CASES = [
    "A man's dog doesn't like the cat's toy.",
    "They're sure we'll go, but I'd say you've won't can't shan't.",
    "\"Look at that,\" she said. 'Really?' he asked.",
    "A sign reads \"STOP\" (in red) [and white] {with} <a border>.",
    "Mr. Smith and Dr. Jones met at St. Paul's on Jan. 5 at 3 p.m.",
    "The U.S. economy grew 3.5% in 2014, vs. 2.1% in the U.K.",
    "He paid $1,234.56 for it - or was it \u20ac45 or \u00a330 or \u00a5100?",
    "A well-known state-of-the-art self-driving car -- really.",
    "Wait... what?! No way!!! Is it?? Yes...",
    "Caf\u00e9 na\u00efve r\u00e9sum\u00e9 \u00fcber Stra\u00dfe se\u00f1or fa\u00e7ade.",
    "\u201cCurly quotes\u201d and \u2018single ones\u2019 \u2014 dashes \u2013 and"
    " \u2026 ellipsis.",
    "I cannot believe we're gonna wanna gotta lemme gimme that.",
    "'Tis the season, 'twas the night; rock 'n' roll in the '90s.",
    "Visit http://www.example.com/path?q=1 or www.google.com or mail me@example.org.",
    "Call (555) 123-4567 or 555-123-4567 today.",
    "Mix 1/2 cup with 1 1/2 cups and \u00bd teaspoon at 3/4 speed.",
    "The dates 12/25/2014 and 1-1-2015 are holidays.",
    "C++ and C# and F# are languages; AT&T and S&P-500 are too.",
    "Smiley :) and :-( and ;) and ^_^ faces.",
    "Hash #tags and @user names are social.",
    "A man in a red shirt.  Two   spaces\tand a tab.",
    "o'clock y'all ma'am O'Neil d'Artagnan l'amour",
    "The file report.pdf and image.jpg are attached.",
    "Prices: 10% off, 2x faster, 3rd place, 21st century, 1990s.",
    "A 5'10\" man and a 6-foot-tall woman.",
    "Is this Inc. or Corp. or Ltd. or Co. Ltd or Pty. Ltd. company?",
    "etc. etc., etc.; e.g. i.e. a.k.a. cf. vs. Ph.D. Jr. Sr.",
    "In Calif. and Mass. and Wash. and Tex. there are Govs. too.",
    "Numbers like -5 and +3.2 and 1,000,000 and .5 and 3.",
    "Temperature was 30\u00b0C, or 86\u00b0F \u00b1 2\u00b0.",
    "A & B; A&amp;B; x < y > z; &lt;tag&gt;",
    "Don't! Won't? Can't. Isn't, aren't; wasn't: weren't",
    "I'M SHOUTING AND I DON'T CARE WHO'S LISTENING.",
    "a group of people standing around a kitchen.",
    "two dogs playing with a frisbee in the grass",
    "A baseball player swinging a bat at a ball .",
    "a man on a skateboard doing a trick at the skate park",
    "A plate of food with broccoli, carrots, and rice.",
    "the bathroom has a toilet, sink, and mirror",
    "A cat laying on top of a laptop computer!",
    "A close-up of a pizza with pepperoni and cheese.",
    "An old-fashioned clock tower in the middle of a town square",
    "A bus that says \"Downtown\" on its sign.",
    "There's a dog (a golden retriever) on the couch.",
    "Kids' toys and the children's playground.",
    "A woman holding an umbrella in the rain...",
    "A man riding a wave on top of a surfboard.",
    "A sign that reads 'No Parking'.",
    "A train on the tracks at a station; it's red.",
    "A giraffe standing next to a tree - tall and spotted.",
    "2 men playing Wii in a living room",
    "A 747 jet airplane flying in a blue sky.",
    "A street sign for 5th Ave. and W. 42nd St.",
    "A table with a laptop, an iPhone and an iPad.",
    "the man is wearing a t-shirt and a baseball cap.",
    "A living room with a TV/DVD player and a couch.",
    "Breakfast: eggs, bacon & toast.",
    "A person skiing down a snow-covered slope!",
    "A motorcycle parked next to a car in a lot.",
    "A young boy is flying a kite on the beach.",
    "Elephants walk through the tall grass (near water).",
    "The zebra's stripes are black-and-white.",
    "A cake that says 'Happy Birthday, Mom!'",
    "A stop sign at an intersection with a 'one way' sign",
    "Two people on skis, one with a snowboard",
    "A woman's hand holding a cell-phone.",
    "Several U.S. Air Force planes on display.",
    "A plate with a sandwich and a cup of coffee on it",
    "People are waiting for a bus at a bus stop",
    "A clock reading 10:30 on a building.",
    "Score was 3-2, and the time 10:45pm.",
    "The N.Y.C. subway at 5 a.m. on Mon. morning.",
    "Hello\u00a0world with a non-breaking space.",
    "Zero\u200bwidth space and soft\u00adhyphen.",
    "Greek \u03b1\u03b2\u03b3 and Cyrillic \u043f\u0440\u0438\u0432\u0435\u0442 and"
    " CJK \u4e2d\u6587 text.",
    "Math: 2 \u00d7 3 = 6, 10 \u00f7 2 = 5, a \u2264 b, \u221a4 = 2.",
    "Symbols \u00a9 2014 \u00ae \u2122 \u00a7 5 \u00b6 and \u2020 daggers.",
    "A \u00abFrench\u00bb quote and a \u201eGerman\u201c one and \u2039single\u203a.",
    "Em\u2014dash, en\u2013dash, and figure\u2012dash, minus \u2212 sign.",
    "Bullet \u2022 points \u00b7 middle dot.",
    "A  ''doubled'' and ``latex`` quote.",
    "A sentence ending with a question mark?",
    "Words with under_scores and dots.in.middle and a/b/c slashes.",
    "Email john.doe@example.com, and the URL https://example.org/a-b_c.",
    "Asterisks *like this* and ***more***.",
    "Version 2.0.1 and IP 192.168.1.1 and 3.14159.",
    "Ratio 16:9 and time 12:00:00.",
    "Mixed CaSe WoRdS and ALLCAPS and lowercase.",
    "He said: \"It's 'quoted' inside\" then left.",
    "(Parenthetical at start) and [bracketed at end]",
    "\"Quote at start of line",
    "Quote at end of line\"",
    "'Single quote start and end'",
    "It's 5 o'clock somewhere, isn't it?",
    "He's, she's, it's, we've, they'd, you'll, I'm.",
    "The dog 's bone and the cat 's toy.",
    "Rock'n'roll and fish'n'chips.",
    "The '60s and the 1960s and '06.",
    "A $5 bill, US$10, C$20, A$30 and #40.",
    "About 50 cents \u00a2 or 2\u00a2.",
    "Hyphen-ated, double--dash, triple---dash and ----.",
    "Ellipsis . . . spaced and ..... five.",
    "a.m. p.m. A.M. P.M.",
    "The No. 1 team and Nos. 2 and 3 and fig. 4.",
    "I.",
    "a.",
    "Mr.",
    "etc.",
    "U.S.",
    "The end.",
    "",
    "   ",
    "...",
    "!!!",
    "-",
    "( )",
    "A.",
    "A sentence with the word I. It continues.",
    "The U.S. The U.S. He said so.",
    "I like the U.S. But not always.",
    "Go to the Inc. The company.",
    "Sen. Kennedy and Rep. Pelosi and Gov. Brown and Gen. Patton.",
    "A pre-war and post-war anti-aircraft gun.",
    "Fractions \u2153 and \u2154 and \u00be.",
    "Superscripts x\u00b2 and y\u00b3 and H\u2082O.",
    "Tab\tseparated\twords",
    "Trailing spaces   ",
    "   Leading spaces",
    "Emoji \U0001F600 and \U0001F436 in text.",
    "Arabic \u0645\u0631\u062d\u0628\u0627 and Hebrew \u05e9\u05dc\u05d5\u05dd.",
    "Devanagari \u0928\u092e\u0938\u094d\u0924\u0947 text.",
    "Vietnamese Vi\u1ec7t Nam and Polish \u0141\u00f3d\u017a.",
    "Ligature \ufb01sh and full-width \uff21\uff22\uff23.",
    "A woman's umbrella's handle.",
    "Don'ts and do's.",
    "Y'know what I mean.",
    "Ol' man river, somethin' else, Dunkin' Donuts.",
    "She was like 'whatever' and left.",
    "A 'quoted' word.",
    "Dogs' bowls; cats' beds.",
    "The '80s music.",
    "A 10-year-old boy and a 3-D movie.",
    "Plus+sign and 50/50 and and/or.",
    "x=5 and y==6 and a!=b.",
    "Percent 50 % and per mille 5\u2030.",
    "Pipe | and backslash \\ and tilde ~ and caret ^.",
    "Grave `accent` quotes.",
    "A man with a sign that says \"Will work for food.\"",
    "A man with a sign that says \"Will work for food\".",
    "What's up? Nothing's up.",
    "Let's go. Let's not.",
    "I'd've done it.",
    "y'all'd've",
    "can't've",
    "NOT! cannot CANNOT Cannot",
    "Gonna GONNA wanna.",
    "a.k.a. the A.K.A. group",
    "at 3 P.M. on 5/6.",
]

NOUNS = ("man woman dog cat table plate pizza bus train giraffe elephant zebra clock kite "  # noqa: SIM905
         "surfboard skateboard laptop phone umbrella horse bench street sign kitchen room").split()
ADJ = ["red", "small", "large", "young", "old", "white", "black", "two", "three", "several",
       "brown", "wooden"]
VERBS = ["sitting", "standing", "riding", "holding", "eating", "flying", "walking", "laying",
         "looking", "parked"]
PREP = ["on", "in", "next", "to", "near", "with", "under", "behind", "of", "at"]


def caption(rng: random.Random) -> str:
    words = ["a" if rng.random() < 0.7 else "A", rng.choice(ADJ), rng.choice(NOUNS),
             rng.choice(VERBS), rng.choice(PREP), "a", rng.choice(NOUNS)]
    if rng.random() < 0.3:
        words += ["and", rng.choice(ADJ), rng.choice(NOUNS)]
    line = " ".join(words)
    ending = rng.random()
    if ending < 0.5:
        line += "."
    elif ending < 0.6:
        line += " ."
    elif ending < 0.65:
        line += "!"
    return line[0].upper() + line[1:] if rng.random() < 0.5 else line


FRAGMENTS = ("don't", "I'm", "(", ")", '"', "'", "U.S.", "Mr.", "e.g.", "3.5", "$", "1,000",
             "--", "...", "-", "co-op", "it's", "A.", "etc.", "No.", "5", "1/2", "&", "%", "#",
             "@home", "www.x.com", "\u2019s", "\u201c", "\u201d", "\u2014", "can't", "cannot",
             "gonna", "x", "Z.", "ok", "He", "The", "'90s", "c++", ":)", "[", "]", "{", "}", "<b>",
             "\u00e9t\u00e9", "na\u00efve", "\u00bd", "\u20ac", "\u00a3", "10:30", "555-1234",
             "'em", "y'all", "o'clock", "Inc.", "Calif.", "Jan.", "fig.", "pty.", "Ltd", "?", "!",
             ",", ";", ":", "*", "/", "\\", "=", "+", "~", "AT&T", "file.txt", "a@b.org", "\t")


def noise(rng: random.Random) -> str:
    words = [rng.choice(FRAGMENTS) for _ in range(rng.randint(1, 12))]
    glue = [rng.choice([" ", " ", " ", ""]) for _ in words]
    return "".join(w + g for w, g in zip(words, glue, strict=True)).strip(" ")


def detokenize(line: str) -> str:
    line = line.replace("&apos;", "'").replace("&quot;", '"').replace("&amp;", "&")
    line = line.replace("&#91;", "[").replace("&#93;", "]")
    line = line.replace("&lt;", "<").replace("&gt;", ">")
    line = re.sub(r" ([.,;:!?%)\]])", r"\1", line)
    line = re.sub(r"([(\[$]) ", r"\1", line)
    return re.sub(r" '(s|re|ve|ll|d|m)\b", r"'\1", line).replace(" n't", "n't")


def corpus() -> list[str]:
    rng = random.Random(45)
    lines = list(HARD_CASES)
    if WMT.exists():
        wmt = WMT.read_text(encoding="utf-8").splitlines()
        lines += wmt + [detokenize(line) for line in wmt]
    lines += [caption(rng) for _ in range(150)]
    lines += [noise(rng) for _ in range(300)]
    # Java's lexer ends a line at these too: pycocoevalcap itself then misaligns the output.
    newline_like = re.compile("[\r\n\u2028\u2029\x0b\x0c\x85]")
    return [line for line in lines if not newline_like.search(line)]


def main(path: str) -> None:
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

    lines = corpus()
    tokenized = PTBTokenizer().tokenize({i: [{"caption": line}] for i, line in enumerate(lines)})
    records = [{"line": line, "tokens": tokenized[i][0],
                "split": "develop" if i % 2 == 0 else "held_out"}
               for i, line in enumerate(lines)]
    Path(path).write_text(json.dumps({"tokenizer": "pycocoevalcap 1.2 PTBTokenizer "
                                      "(stanford-corenlp-3.4.1.jar, -preserveLines -lowerCase)",
                                      "records": records}, ensure_ascii=False, indent=0) + "\n",
                          encoding="utf-8")
    print(f"{len(records)} lines recorded in {path}")


if __name__ == "__main__":
    default = HERE.parent / "tests" / "captioning" / "data" / "ptb_tokens.json"
    main(sys.argv[1] if len(sys.argv) > 1 else str(default))
