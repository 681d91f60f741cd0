/* porter_stem: NLTK's PorterStemmer().stem(word) (its default mode, NLTK_EXTENSIONS: the
 * stemmer that rouge-score's and torchmetrics' ROUGE apply with use_stemmer=True), rule for
 * rule, on every word of a list.
 *
 * A word is lowercased as str.lower() does (ASCII words here, others by str.lower), then:
 * the irregular forms of NLTK's pool ("skies" -> "sky", "dying" -> "die", ...); words of at
 * most two characters as they are; else steps 1a, 1b, 1c, 2, 3, 4, 5a and 5b, each the
 * first rule of its list whose suffix the word has (that rule's condition decides; the
 * later rules are not tried). The conditions read the word's consonants and vowels: a, e,
 * i, o, u are vowels, y is a vowel after a consonant and a consonant elsewhere, every
 * other character a consonant; the measure m is the number of vowel-consonant changes.
 *
 * A stem is never longer than its word, so each word is stemmed in place in a buffer of
 * its code points. The stemming runs with the GIL released (the lowercasing of non-ASCII
 * words, and the str objects of the results, need it before and after).
 */
#include "native.h"

#include <string.h>

/* a word being stemmed: its code points and their number; `consonant` is scratch */
typedef struct {
    Py_UCS4 *c;
    Py_ssize_t n;
    unsigned char *consonant;
} Word;

/* a suffix rule: the suffix and its replacement (with their lengths), and its condition */
typedef struct {
    const char *suffix;
    Py_ssize_t length;
    const char *replacement;
    int condition;
} Rule;

#define RULE(SUFFIX, REPLACEMENT, CONDITION) \
    {SUFFIX, (Py_ssize_t)sizeof(SUFFIX) - 1, REPLACEMENT, CONDITION}

enum { ANY, MEASURE_1, MEASURE_2, ION, LOGI }; /* the conditions of the rule lists */

static int
is_vowel(Py_UCS4 c)
{
    return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u';
}

/* the consonants of w->c[0:length] (NLTK's _consonant_flags: a prefix's flags are the
 * word's) */
static void
classify(Word *w, Py_ssize_t length)
{
    for (Py_ssize_t i = 0; i < length; i++) {
        Py_UCS4 c = w->c[i];
        if (is_vowel(c)) w->consonant[i] = 0;
        else if (c == 'y') w->consonant[i] = i == 0 ? 1 : !w->consonant[i - 1];
        else w->consonant[i] = 1;
    }
}

/* m of the first `length` characters: the vowel-consonant changes */
static Py_ssize_t
measure(Word *w, Py_ssize_t length)
{
    classify(w, length);
    Py_ssize_t m = 0;
    for (Py_ssize_t i = 0; i + 1 < length; i++) m += !w->consonant[i] && w->consonant[i + 1];
    return m;
}

static int
contains_vowel(Word *w, Py_ssize_t length)
{
    classify(w, length);
    for (Py_ssize_t i = 0; i < length; i++)
        if (!w->consonant[i]) return 1;
    return 0;
}

static int
consonant_at(Word *w, Py_ssize_t i)
{
    classify(w, i + 1);
    return w->consonant[i];
}

/* *d: the first `length` characters end with a double consonant */
static int
ends_double_consonant(Word *w, Py_ssize_t length)
{
    return length >= 2 && w->c[length - 1] == w->c[length - 2] && consonant_at(w, length - 1);
}

/* *o: they end consonant-vowel-consonant, the last not w, x or y (NLTK: or the word is a
 * vowel and a consonant) */
static int
ends_cvc(Word *w, Py_ssize_t n)
{
    if (n >= 3) {
        classify(w, n);
        Py_UCS4 last = w->c[n - 1];
        return w->consonant[n - 3] && !w->consonant[n - 2] && w->consonant[n - 1]
               && last != 'w' && last != 'x' && last != 'y';
    }
    if (n == 2) {
        classify(w, 2);
        return !w->consonant[0] && w->consonant[1];
    }
    return 0;
}

/* whether the word ends with the `k` characters of `suffix` (compared from the end: most
 * suffixes differ in their last character) */
static inline int
ends_with_n(const Word *w, const char *suffix, Py_ssize_t k)
{
    if (k > w->n) return 0;
    for (Py_ssize_t i = 1; i <= k; i++)
        if (w->c[w->n - i] != (Py_UCS4)(unsigned char)suffix[k - i]) return 0;
    return 1;
}

#define ends_with(W, SUFFIX) ends_with_n(W, SUFFIX, (Py_ssize_t)sizeof(SUFFIX) - 1)

/* the first `stem` characters, then `replacement` (never longer than what it replaces) */
static void
set_stem(Word *w, Py_ssize_t stem, const char *replacement)
{
    Py_ssize_t k = (Py_ssize_t)strlen(replacement);
    for (Py_ssize_t i = 0; i < k; i++) w->c[stem + i] = (Py_UCS4)(unsigned char)replacement[i];
    w->n = stem + k;
}

static int
holds(Word *w, int condition, Py_ssize_t stem)
{
    switch (condition) {
    case MEASURE_1: return measure(w, stem) > 0;
    case MEASURE_2: return measure(w, stem) > 1;
    case ION: return measure(w, stem) > 1 && (w->c[stem - 1] == 's' || w->c[stem - 1] == 't');
    case LOGI: return measure(w, w->n - 3) > 0; /* NLTK measures the word less "ogi" */
    default: return 1;
    }
}

/* _apply_rule_list: the first rule whose suffix the word has, if its condition holds */
static void
apply_rules(Word *w, const Rule *rules, size_t count)
{
    for (size_t k = 0; k < count; k++) {
        if (!ends_with_n(w, rules[k].suffix, rules[k].length)) continue;
        Py_ssize_t stem = w->n - rules[k].length;
        if (holds(w, rules[k].condition, stem)) set_stem(w, stem, rules[k].replacement);
        return;
    }
}

#define APPLY(W, RULES) apply_rules(W, RULES, sizeof(RULES) / sizeof(RULES[0]))

static void
step1a(Word *w)
{
    static const Rule rules[] = {RULE("sses", "ss", ANY), RULE("ies", "i", ANY),
                                 RULE("ss", "ss", ANY), RULE("s", "", ANY)};
    if (w->n == 4 && ends_with(w, "ies")) {
        set_stem(w, 1, "ie");
        return;
    }
    APPLY(w, rules);
}

static void
step1b(Word *w)
{
    if (ends_with(w, "ied")) {
        set_stem(w, w->n - 3, w->n == 4 ? "ie" : "i");
        return;
    }
    if (ends_with(w, "eed")) {
        if (measure(w, w->n - 3) > 0) set_stem(w, w->n - 3, "ee");
        return;
    }
    Py_ssize_t stem = -1;
    if (ends_with(w, "ed") && contains_vowel(w, w->n - 2)) stem = w->n - 2;
    else if (ends_with(w, "ing") && contains_vowel(w, w->n - 3)) stem = w->n - 3;
    if (stem < 0) return;
    w->n = stem; /* the intermediate stem, then its own rule list */
    if (ends_with(w, "at")) set_stem(w, w->n, "e");
    else if (ends_with(w, "bl")) set_stem(w, w->n, "e");
    else if (ends_with(w, "iz")) set_stem(w, w->n, "e");
    else if (ends_double_consonant(w, w->n)) {
        Py_UCS4 last = w->c[w->n - 1];
        if (last != 'l' && last != 's' && last != 'z') w->n -= 1;
    }
    else if (ends_with(w, "*d")) { /* NLTK's "*d" rule read as a suffix: "...*d" -> "...d" */
        w->c[w->n - 2] = 'd';
        w->n -= 1;
    }
    else if (measure(w, w->n) == 1 && ends_cvc(w, w->n)) set_stem(w, w->n, "e");
}

static void
step1c(Word *w)
{
    if (ends_with(w, "y") && w->n - 1 > 1 && consonant_at(w, w->n - 2)) w->c[w->n - 1] = 'i';
}

static void
step2(Word *w)
{
    static const Rule rules[] = {
        RULE("ational", "ate", MEASURE_1), RULE("tional", "tion", MEASURE_1),
        RULE("enci", "ence", MEASURE_1), RULE("anci", "ance", MEASURE_1),
        RULE("izer", "ize", MEASURE_1), RULE("bli", "ble", MEASURE_1),
        RULE("alli", "al", MEASURE_1), RULE("entli", "ent", MEASURE_1),
        RULE("eli", "e", MEASURE_1), RULE("ousli", "ous", MEASURE_1),
        RULE("ization", "ize", MEASURE_1), RULE("ation", "ate", MEASURE_1),
        RULE("ator", "ate", MEASURE_1), RULE("alism", "al", MEASURE_1),
        RULE("iveness", "ive", MEASURE_1), RULE("fulness", "ful", MEASURE_1),
        RULE("ousness", "ous", MEASURE_1), RULE("aliti", "al", MEASURE_1),
        RULE("iviti", "ive", MEASURE_1), RULE("biliti", "ble", MEASURE_1),
        RULE("fulli", "ful", MEASURE_1), RULE("logi", "log", LOGI)};
    /* NLTK: "alli" with m > 0 before it becomes "al", and step 2 starts again */
    while (ends_with(w, "alli") && measure(w, w->n - 4) > 0) set_stem(w, w->n - 4, "al");
    APPLY(w, rules);
}

static void
step3(Word *w)
{
    static const Rule rules[] = {
        RULE("icate", "ic", MEASURE_1), RULE("ative", "", MEASURE_1),
        RULE("alize", "al", MEASURE_1), RULE("iciti", "ic", MEASURE_1),
        RULE("ical", "ic", MEASURE_1), RULE("ful", "", MEASURE_1), RULE("ness", "", MEASURE_1)};
    APPLY(w, rules);
}

static void
step4(Word *w)
{
    static const Rule rules[] = {
        RULE("al", "", MEASURE_2), RULE("ance", "", MEASURE_2), RULE("ence", "", MEASURE_2),
        RULE("er", "", MEASURE_2), RULE("ic", "", MEASURE_2), RULE("able", "", MEASURE_2),
        RULE("ible", "", MEASURE_2), RULE("ant", "", MEASURE_2), RULE("ement", "", MEASURE_2),
        RULE("ment", "", MEASURE_2), RULE("ent", "", MEASURE_2), RULE("ion", "", ION),
        RULE("ou", "", MEASURE_2), RULE("ism", "", MEASURE_2), RULE("ate", "", MEASURE_2),
        RULE("iti", "", MEASURE_2), RULE("ous", "", MEASURE_2), RULE("ive", "", MEASURE_2),
        RULE("ize", "", MEASURE_2)};
    APPLY(w, rules);
}

static void
step5(Word *w)
{
    if (ends_with(w, "e")) {
        Py_ssize_t m = measure(w, w->n - 1);
        if (m > 1 || (m == 1 && !ends_cvc(w, w->n - 1))) w->n -= 1;
    }
    if (ends_with(w, "ll") && measure(w, w->n - 1) > 1) w->n -= 1;
}

/* NLTK's pool of irregular forms: word -> stem (a Rule's condition unused) */
static const Rule IRREGULAR[] = {
    RULE("sky", "sky", ANY), RULE("skies", "sky", ANY), RULE("dying", "die", ANY),
    RULE("lying", "lie", ANY), RULE("tying", "tie", ANY), RULE("news", "news", ANY),
    RULE("innings", "inning", ANY), RULE("inning", "inning", ANY),
    RULE("outings", "outing", ANY), RULE("outing", "outing", ANY),
    RULE("cannings", "canning", ANY), RULE("canning", "canning", ANY),
    RULE("howe", "howe", ANY), RULE("proceed", "proceed", ANY), RULE("exceed", "exceed", ANY),
    RULE("succeed", "succeed", ANY)};

static int
irregular(Word *w)
{
    for (size_t k = 0; k < sizeof(IRREGULAR) / sizeof(IRREGULAR[0]); k++) {
        if (IRREGULAR[k].length == w->n && ends_with_n(w, IRREGULAR[k].suffix, w->n)) {
            set_stem(w, 0, IRREGULAR[k].replacement);
            return 1;
        }
    }
    return 0;
}

/* the stem of a lowercased word (`given`: the length of the word before lowercasing,
 * NLTK's test of short words) */
static void
stem_word(Word *w, Py_ssize_t given)
{
    if (irregular(w) || given <= 2) return;
    step1a(w);
    step1b(w);
    step1c(w);
    step2(w);
    step3(w);
    step4(w);
    step5(w);
}

Py_ssize_t
bs_porter_stem_word(Py_UCS4 *chars, Py_ssize_t length, unsigned char *scratch)
{
    Word w = {chars, length, scratch};
    stem_word(&w, length);
    return w.n;
}

const char bs_porter_stem_doc[] =
    "porter_stem(words, /)\n--\n\n"
    "[nltk.stem.PorterStemmer().stem(word) for word in words]: NLTK's Porter stemmer in its\n"
    "default mode (NLTK_EXTENSIONS), the words lowercased by str.lower first, stemmed with\n"
    "the GIL released. words is a list of str; returns a new list of str.";

PyObject *
bs_porter_stem(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (bs_arg_count("porter_stem", nargs, 1, 1) < 0) return NULL;
    PyObject *words = args[0];
    if (!PyList_Check(words)) {
        PyErr_Format(PyExc_TypeError, "words must be a list of str, not %.100s",
                     Py_TYPE(words)->tp_name);
        return NULL;
    }
    Py_ssize_t count = PyList_GET_SIZE(words), total = 0, longest = 0;
    PyObject *result = NULL, *held = PyList_New(count); /* the lowercased words */
    Py_ssize_t *start = PyMem_Calloc((size_t)count + 1, sizeof(Py_ssize_t));
    Py_ssize_t *given = PyMem_Calloc((size_t)count + 1, sizeof(Py_ssize_t));
    Py_ssize_t *length = PyMem_Calloc((size_t)count + 1, sizeof(Py_ssize_t));
    Py_UCS4 *chars = NULL;
    unsigned char *scratch = NULL;
    if (held == NULL || start == NULL || given == NULL || length == NULL) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *word = PyList_GET_ITEM(words, k);
        if (!PyUnicode_Check(word)) {
            PyErr_Format(PyExc_TypeError, "words[%zd] must be a str, not %.100s", k,
                         Py_TYPE(word)->tp_name);
            goto done;
        }
        PyObject *lowered = PyObject_CallMethod(word, "lower", NULL);
        if (lowered == NULL) goto done;
        PyList_SET_ITEM(held, k, lowered);
        given[k] = PyUnicode_GET_LENGTH(word);
        length[k] = PyUnicode_GET_LENGTH(lowered);
        start[k] = total;
        if (length[k] > PY_SSIZE_T_MAX / 8 - total) {
            PyErr_NoMemory();
            goto done;
        }
        total += length[k];
        if (length[k] > longest) longest = length[k];
    }
    chars = PyMem_Malloc((size_t)(total ? total : 1) * sizeof(Py_UCS4));
    scratch = PyMem_Malloc((size_t)longest + 1);
    if (chars == NULL || scratch == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < count; k++)
        if (PyUnicode_AsUCS4(PyList_GET_ITEM(held, k), chars + start[k], length[k], 0) == NULL)
            goto done;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t k = 0; k < count; k++) {
        Word w = {chars + start[k], length[k], scratch};
        stem_word(&w, given[k]);
        length[k] = w.n;
    }
    Py_END_ALLOW_THREADS
    result = PyList_New(count);
    if (result == NULL) goto done;
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *stem = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, chars + start[k],
                                                   length[k]);
        if (stem == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, k, stem);
    }
done:
    Py_XDECREF(held);
    PyMem_Free(start);
    PyMem_Free(given);
    PyMem_Free(length);
    PyMem_Free(chars);
    PyMem_Free(scratch);
    return result;
}
