/* The built-in rules of a Numbering (rules=...), each on a unit (a word, or a line that
 * holds a "\n"), its tokens numbered in the token table: sacrebleu's 13a (tokenize_13a),
 * its char (each character a token), chrF++'s words (a punctuation character split off a
 * word's end or start), rouge-score's tokenizer (tokenize_rouge), with NLTK's Porter stemmer
 * or without; and bs_tokenize_unit, which applies them or a Python tokenize. The built-in
 * rules need no GIL. */
#include "numbering.h"

/* split `text` on whitespace; each token's id appended to unit_tokens */
static int
add_tokens(Numbering *self, Text text)
{
    Py_ssize_t at = 0;
    for (Py_ssize_t start; (start = next_word(text, &at)) >= 0;) {
        int64_t id = strtable_id(token_table(self), text_slice(text, start, at));
        if (id < 0 || push(&self->unit_tokens, id) < 0) return NO_MEMORY;
    }
    return 0;
}

/* ---------------------------------------------------------------------------- 13a rules
 * sacrebleu 2's Tokenizer13a, on a unit: "<skipped>" and "-\n" removed, "\n" made a space,
 * the four entities (&quot; &amp; &lt; &gt;, in that order) replaced where the unit holds
 * "&", then " unit " passed through TokenizerRegexp's four rules in order:
 *   ([\{-\~\[-\` -\&\(-\+\:-\@\/])  ->  " \1 "
 *   ([^0-9])([\.,])                 ->  "\1 \2 "
 *   ([\.,])([^0-9])                 ->  " \1 \2"
 *   ([0-9])(-)                      ->  "\1 \2 "
 * Each pattern is one or two characters long, so re.sub's leftmost, non-overlapping
 * matches are a scan that, after a match, goes on after its last character. A unit with
 * none of the ASCII punctuation and symbols [!-/:-@[-`{-~] comes out as its words. */

static inline int
symbol_13a(Py_UCS4 c) /* the first rule's class */
{
    return (c >= '{' && c <= '~') || (c >= '[' && c <= '`') || (c >= ' ' && c <= '&')
           || (c >= '(' && c <= '+') || (c >= ':' && c <= '@') || c == '/';
}

static inline int
period_or_comma(Py_UCS4 c)
{
    return c == '.' || c == ',';
}

/* from->items with every `what` (of `length` characters) replaced by `by` (0 or 1
 * character: `by` < 0 for none), into `to` */
static int
replace_all(const Chars *from, Chars *to, const char *what, Py_ssize_t length, int by)
{
    to->size = 0;
    if (chars_reserve(to, from->size) < 0) return NO_MEMORY;
    Py_ssize_t i = 0;
    while (i < from->size) {
        Py_ssize_t k = 0;
        if (i + length <= from->size)
            while (k < length && from->items[i + k] == (Py_UCS4)(unsigned char)what[k]) k++;
        if (k == length) {
            if (by >= 0) to->items[to->size++] = (Py_UCS4)by;
            i += length;
        }
        else to->items[to->size++] = from->items[i++];
    }
    return 0;
}

static int
contains(const Chars *chars, Py_UCS4 c)
{
    for (Py_ssize_t i = 0; i < chars->size; i++)
        if (chars->items[i] == c) return 1;
    return 0;
}

/* the tokens of a unit by the 13a rules, appended to unit_tokens */
static int
tokenize_13a(Numbering *self, Text unit)
{
    Chars *a = &self->work[0], *b = &self->work[1], *swap;
    a->size = 0;
    if (chars_reserve(a, unit.length + 2) < 0) return NO_MEMORY;
    for (Py_ssize_t i = 0; i < unit.length; i++) a->items[a->size++] = bs_text_at(unit, i);
#define REPLACE(WHAT, BY)                                                                  \
    do {                                                                                   \
        if (replace_all(a, b, WHAT, (Py_ssize_t)sizeof(WHAT) - 1, BY) < 0) return NO_MEMORY; \
        swap = a, a = b, b = swap;                                                         \
    } while (0)
    REPLACE("<skipped>", -1);
    REPLACE("-\n", -1);
    REPLACE("\n", ' ');
    if (contains(a, '&')) {
        REPLACE("&quot;", '"');
        REPLACE("&amp;", '&');
        REPLACE("&lt;", '<');
        REPLACE("&gt;", '>');
    }
#undef REPLACE
    /* " unit ", then rule 1: at most 3 characters out per character in */
    Py_ssize_t n = a->size;
    if (n > (PY_SSIZE_T_MAX - 6) / 4) return NO_MEMORY;
    b->size = 0;
    if (chars_reserve(b, 3 * (n + 2)) < 0) return NO_MEMORY;
    for (Py_ssize_t i = -1; i <= n; i++) {
        Py_UCS4 c = (i < 0 || i == n) ? ' ' : a->items[i];
        if (symbol_13a(c)) {
            b->items[b->size++] = ' ';
            b->items[b->size++] = c;
            b->items[b->size++] = ' ';
        }
        else b->items[b->size++] = c;
    }
    /* rules 2-4: each two-character match gains at most 2 characters */
    for (int rule = 2; rule <= 4; rule++) {
        swap = a, a = b, b = swap; /* the text is in a */
        b->size = 0;
        if (a->size > PY_SSIZE_T_MAX / 2 || chars_reserve(b, 2 * a->size) < 0)
            return NO_MEMORY;
        const Py_UCS4 *s = a->items;
        Py_UCS4 *out = b->items;
        Py_ssize_t i = 0, m = a->size, o = 0;
        while (i < m) {
            int match = 0;
            if (i + 1 < m) {
                if (rule == 2) match = !is_digit(s[i]) && period_or_comma(s[i + 1]);
                else if (rule == 3) match = period_or_comma(s[i]) && !is_digit(s[i + 1]);
                else match = is_digit(s[i]) && s[i + 1] == '-';
            }
            if (!match) {
                out[o++] = s[i++];
                continue;
            }
            if (rule == 3) out[o++] = ' ';
            out[o++] = s[i];
            out[o++] = ' ';
            out[o++] = s[i + 1];
            if (rule != 3) out[o++] = ' ';
            i += 2;
        }
        b->size = o;
    }
    return add_tokens(self, text_of(b, 0, b->size));
}

/* ---------------------------------------------------------------------------- rouge rules
 * rouge-score's tokenize.tokenize without a stemmer, on a unit: lowercased as str.lower()
 * does, every run of characters outside [a-z0-9] a separator. Of the characters outside
 * [A-Za-z0-9], str.lower() gives [a-z0-9] for two only: U+0130 (to "i" and a combining
 * dot, a separator) and U+212A KELVIN SIGN (to "k"). */

static inline Py_UCS4
rouge_char(Py_UCS4 c)
{
    if (c >= 'A' && c <= 'Z') return c + ('a' - 'A');
    if ((c >= 'a' && c <= 'z') || is_digit(c)) return c;
    if (c == 0x130) return 'i';
    if (c == 0x212A) return 'k';
    return ' ';
}

/* the tokens of a unit by the rouge rules, appended to unit_tokens (stemmed: those of
 * more than 3 characters replaced by their Porter stems) */
static int
tokenize_rouge(Numbering *self, Text unit, int stem)
{
    Chars *a = &self->work[0], *scratch = &self->work[1];
    a->size = 0;
    if (unit.length > PY_SSIZE_T_MAX / 2 - 1 || chars_reserve(a, 2 * unit.length + 1) < 0)
        return NO_MEMORY;
    for (Py_ssize_t i = 0; i < unit.length; i++) {
        Py_UCS4 c = bs_text_at(unit, i);
        a->items[a->size++] = rouge_char(c);
        if (c == 0x130) a->items[a->size++] = ' ';
    }
    if (!stem) return add_tokens(self, text_of(a, 0, a->size));
    scratch->size = 0;
    if (chars_reserve(scratch, a->size + 1) < 0) return NO_MEMORY;
    Py_ssize_t i = 0;
    for (;;) {
        while (i < a->size && a->items[i] == ' ') i++;
        if (i == a->size) return 0;
        Py_ssize_t start = i;
        while (i < a->size && a->items[i] != ' ') i++;
        Py_ssize_t length = i - start;
        if (length > 3)
            length = bs_porter_stem_word(a->items + start, length,
                                         (unsigned char *)scratch->items);
        int64_t id = strtable_id(token_table(self), text_of(a, start, start + length));
        if (id < 0 || push(&self->unit_tokens, id) < 0) return NO_MEMORY;
    }
}

/* sacrebleu's char rules on a unit: each character that is not whitespace a token */
int
bs_tokenize_char(Numbering *self, Text unit)
{
    for (Py_ssize_t i = 0; i < unit.length; i++) {
        if (is_space(bs_text_at(unit, i))) continue;
        Text one = text_slice(unit, i, i + 1);
        int64_t id = strtable_id(token_table(self), one);
        if (id < 0 || push(&self->unit_tokens, id) < 0) return NO_MEMORY;
    }
    return 0;
}

static inline int
ascii_punctuation(Py_UCS4 c) /* Python's string.punctuation */
{
    return acts_on(c);
}

/* chrF++'s words (sacrebleu's CHRF._remove_punctuation) of one word: one punctuation
 * character split off its end, or else its start, where it has two or more characters */
static int
punctuation_word(Numbering *self, Text word)
{
    Py_ssize_t cut = 0; /* the length of the first token */
    if (word.length >= 2) {
        if (ascii_punctuation(bs_text_at(word, word.length - 1))) cut = word.length - 1;
        else if (ascii_punctuation(bs_text_at(word, 0))) cut = 1;
    }
    Py_ssize_t starts[2] = {0, cut}, ends[2] = {cut, word.length};
    for (int k = cut == 0 ? 1 : 0; k < 2; k++) {
        Text part = {word.kind, (const char *)word.data + starts[k] * word.kind,
                     ends[k] - starts[k]};
        int64_t id = strtable_id(token_table(self), part);
        if (id < 0 || push(&self->unit_tokens, id) < 0) return NO_MEMORY;
    }
    return 0;
}

/* chrF++'s words of a unit (a word, or a line that holds a newline: each of its words) */
static int
tokenize_punctuation(Numbering *self, Text unit)
{
    Py_ssize_t at = 0;
    for (Py_ssize_t start; (start = next_word(unit, &at)) >= 0;)
        if (punctuation_word(self, text_slice(unit, start, at)) < 0) return NO_MEMORY;
    return 0;
}

/* the tokens of a new unit: its token ids (the only one, or an index into unit_tokens) in
 * *first and *count. The built-in rules need no GIL; a Python tokenize does. */
int
bs_tokenize_unit(Numbering *self, Text unit, PyObject *line, Py_ssize_t start, int64_t *first,
              int64_t *count)
{
    Py_ssize_t begin = self->unit_tokens.size;
    int failed = 0;
    if (self->tokenize == NULL
        && (self->rules == RULES_CHAR || self->rules == RULES_PUNCTUATION)) {
        failed = self->rules == RULES_CHAR ? bs_tokenize_char(self, unit)
                                           : tokenize_punctuation(self, unit);
    }
    else if (self->tokenize == NULL) {
        if (plain_unit(self, unit)) { /* one word, no symbol: the word itself */
            int64_t id = strtable_id(token_table(self), unit);
            if (id < 0) return NO_MEMORY;
            *first = id;
            *count = 1;
            return 0;
        }
        failed = self->rules == RULES_13A
                     ? tokenize_13a(self, unit)
                     : tokenize_rouge(self, unit, self->rules == RULES_ROUGE_PORTER);
    }
    else {
        PyObject *string = PyUnicode_Substring(line, start, start + unit.length);
        if (string == NULL) return RAISED;
        PyObject *text = bs_call_for_str(self->tokenize, string, "tokenize");
        Py_DECREF(string);
        if (text == NULL) return RAISED;
        Text tokens = {PyUnicode_KIND(text), PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text)};
        failed = add_tokens(self, tokens);
        Py_DECREF(text);
    }
    *count = self->unit_tokens.size - begin;
    if (failed) {
        self->unit_tokens.size = begin;
        return failed;
    }
    if (*count == 1) { /* the token's id itself, in the unit's slot */
        *first = self->unit_tokens.items[begin];
        self->unit_tokens.size = begin;
    }
    else *first = begin;
    return 0;
}
