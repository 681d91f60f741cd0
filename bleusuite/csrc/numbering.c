/* Numbering: lines of text -> token ids, each distinct word tokenised once.
 *
 * `Numbering(tokenize=None, *, rules=None)` splits each line as `str.split()` does (on the
 * interpreter's own whitespace, Py_UNICODE_ISSPACE).
 * - Plain (neither): the words are the tokens.
 * - `rules="13a"`: sacrebleu's 13a tokenizer, written here rule for rule (see tokenize_13a);
 *   `rules="char"`: each character a token (sacrebleu's char); `rules="punctuation"`:
 *   chrF++'s words (a punctuation character split off a word's end or start);
 *   `rules="rouge"`: rouge-score's tokenizer (see tokenize_rouge); `rules="rouge-porter"`
 *   with its stemmer, NLTK's Porter stemmer on the tokens of more than 3 characters.
 * - `tokenize`, a callable str -> str: called on each new unit; its result is split on
 *   whitespace into tokens.
 * With a tokenizer each word is a unit (a line that holds a "\n" is one unit,
 * `line.rstrip()`: 13a joins the words around a line end, "-\n"), tokenised the first time
 * it is seen; the unit's token ids are kept in its table slot, so every later occurrence
 * costs one lookup. A token's id is the position of its first appearance among all the
 * tokens this Numbering has numbered (the ids of bleusuite.text's Python numbering).
 *
 * Units and tokens are kept as code points (UCS4) in one pool and looked up by their code
 * points in open-addressing tables, whatever the width of the str that holds them (1, 2 or
 * 4 bytes per character): a word read from lines of different widths is one word. No str
 * object is made while a call numbers; the str of each new token is made once the lines are
 * numbered. So a plain or 13a numbering runs without the GIL (other threads run meanwhile);
 * with a Python `tokenize` the GIL is held throughout.
 *
 * A row's table (gather's rows, where ids need only compare within a row) keeps a string
 * of 1 to 8 code points below 256, most tokens, in its slot as one 64-bit word of its
 * characters (bs_short_word) beside its length: found and added with one multiply for its
 * hash and one comparison of words, with no characters copied to the pool or compared
 * there. gather holds such str tokens as their words, so that the numbering reads no str
 * object for them.
 */
#include "native.h"

#include <string.h>

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL
#if defined(__GNUC__) || defined(__clang__)
#define BS_NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define BS_NOINLINE __declspec(noinline)
#else
#define BS_NOINLINE
#endif
#define WORD_PRIME 0x9e3779b97f4a7c15ULL

/* whether each of the first 256 code points is whitespace (Py_UNICODE_ISSPACE) */
static unsigned char latin1_space[256];
/* the classes of the first 256 code points, for a scan of one-byte text that splits words
 * and classifies them at once (row_line): whitespace, a character 13a's rules act on, a
 * character that is not rouge's (a-z, 0-9) */
#define CLASS_SPACE 1
#define CLASS_13A 2
#define CLASS_NOT_ROUGE 4
static unsigned char latin1_class[256];

static inline int
is_space(Py_UCS4 c)
{
    return c < 256 ? latin1_space[c] : bs_is_space(c);
}

/* failures inside a call: no memory (a MemoryError is raised once the GIL is back), or a
 * Python exception already set (only where the GIL is held) */
#define NO_MEMORY (-1)
#define RAISED (-2)

/* a growable array of code points, or of int64 */
typedef struct {
    Py_UCS4 *items;
    Py_ssize_t size, capacity;
} Chars;

typedef bs_Int64s Int64s;

static int
reserve_bytes(void **items, Py_ssize_t *capacity, Py_ssize_t needed, size_t item)
{
    if (needed <= *capacity) return 0;
    Py_ssize_t grown = *capacity ? *capacity : 256;
    while (grown < needed) {
        if (grown > PY_SSIZE_T_MAX / 2) return NO_MEMORY;
        grown *= 2;
    }
    if ((size_t)grown > PY_SSIZE_T_MAX / item) return NO_MEMORY;
    void *bigger = PyMem_RawRealloc(*items, (size_t)grown * item);
    if (bigger == NULL) return NO_MEMORY;
    *items = bigger;
    *capacity = grown;
    return 0;
}

static inline int
chars_reserve(Chars *array, Py_ssize_t more)
{
    if (more > PY_SSIZE_T_MAX - array->size) return NO_MEMORY;
    return reserve_bytes((void **)&array->items, &array->capacity, array->size + more,
                         sizeof(Py_UCS4));
}

int
bs_int64s_reserve(bs_Int64s *array, Py_ssize_t more)
{
    if (more > PY_SSIZE_T_MAX - array->size) return NO_MEMORY;
    if (array->size + more <= array->capacity) return 0;
    if (array->fixed) return NO_MEMORY;
    return reserve_bytes((void **)&array->items, &array->capacity, array->size + more,
                         sizeof(int64_t));
}

static inline int
push(Int64s *array, int64_t value)
{
    if (array->size == array->capacity
        && (array->fixed || reserve_bytes((void **)&array->items, &array->capacity, array->size + 1,
                         sizeof(int64_t)) < 0))
        return NO_MEMORY;
    array->items[array->size++] = value;
    return 0;
}

/* characters to look up: `length` code points at `data` of width `kind` (1, 2 or 4) */
typedef struct {
    int kind;
    const void *data;
    Py_ssize_t length;
} Text;

static inline Py_UCS4
text_at(Text text, Py_ssize_t i)
{
    return PyUnicode_READ(text.kind, text.data, i);
}

static inline Text
text_of(const Chars *chars, Py_ssize_t start, Py_ssize_t end)
{
    Text text = {PyUnicode_4BYTE_KIND, chars->items + start, end - start};
    return text;
}

/* the end of a hash of code points: the length mixed in and the bits spread (the table's
 * index takes the low bits) */
static inline uint64_t
finish_hash(uint64_t h, Py_ssize_t length)
{
    h ^= (uint64_t)length;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

/* bs_short_word's word of `n` (1 to 8) code points of a text, from `at`, where they are all
 * below 256 (each a byte), whatever the width of the text's characters */
static uint64_t
bytes_word(Text text, Py_ssize_t at, Py_ssize_t n)
{
    if (text.kind == PyUnicode_1BYTE_KIND) return bs_short_word((const char *)text.data + at, n);
    uint64_t w = 0;
    if (n == 8)
        for (int j = 0; j < 8; j++) w |= (uint64_t)text_at(text, at + j) << (8 * j);
    else if (n >= 4)
        for (int j = 0; j < 4; j++)
            w |= (uint64_t)text_at(text, at + j) << (8 * j)
                 | (uint64_t)text_at(text, at + n - 4 + j) << (8 * j + 32);
    else
        w = (uint64_t)text_at(text, at) | (uint64_t)text_at(text, at + (n >> 1)) << 8
            | (uint64_t)text_at(text, at + n - 1) << 16;
    return w;
}

/* the hash of code points. A text whose code points are all below 256 (whatever the width
 * of its str) is hashed 8 characters at a time, a multiply each; any other text (which no
 * such text equals) a code point at a time, FNV-1a. A finaliser mixes in the length and
 * spreads the bits (the table's index takes the low bits) */
static BS_NOINLINE uint64_t
hash_general(Text text)
{
    int narrow = text.kind == PyUnicode_1BYTE_KIND;
    if (!narrow) {
        Py_UCS4 high = 0;
        if (text.kind == PyUnicode_2BYTE_KIND)
            for (Py_ssize_t i = 0; i < text.length; i++) high |= ((const Py_UCS2 *)text.data)[i];
        else
            for (Py_ssize_t i = 0; i < text.length; i++) high |= ((const Py_UCS4 *)text.data)[i];
        narrow = high < 256;
    }
    uint64_t h = FNV_OFFSET;
    if (narrow) {
        Py_ssize_t at = 0, n = text.length;
        for (; n > 8; at += 8, n -= 8) {
            h = (h ^ bytes_word(text, at, 8)) * WORD_PRIME;
            h ^= h >> 29;
        }
        if (n > 0) h = (h ^ bytes_word(text, at, n)) * WORD_PRIME;
        return finish_hash(h, text.length);
    }
    if (text.kind == PyUnicode_2BYTE_KIND)
        for (Py_ssize_t i = 0; i < text.length; i++)
            h = (h ^ ((const Py_UCS2 *)text.data)[i]) * FNV_PRIME;
    else
        for (Py_ssize_t i = 0; i < text.length; i++)
            h = (h ^ ((const Py_UCS4 *)text.data)[i]) * FNV_PRIME;
    return finish_hash(h, text.length);
}

/* hash_general, with the common case inline: a str of one byte per character, of at most
 * 8 of them (one word) */
static inline uint64_t
hash_text(Text text)
{
    if (text.kind == PyUnicode_1BYTE_KIND && text.length <= 8 && text.length > 0)
        return finish_hash((FNV_OFFSET ^ bs_short_word(text.data, text.length)) * WORD_PRIME,
                           text.length);
    return hash_general(text);
}

typedef struct {
    uint64_t hash;
    Py_ssize_t number; /* the string's id + 1; 0: an empty slot */
    int64_t first;     /* units: the only token's id (count 1), else an index into unit_tokens */
    int64_t count;     /* units: their number of tokens */
} Slot;

/* strings numbered by first appearance: string `id` is pool[start[id] : start[id + 1]].
 * A row's table (generation > 0) numbers the strings of one row at a time: each row is a
 * generation, a slot of an older one counts as empty (its `count` holds its generation),
 * and the ids start again at 0, so that a row costs no clearing of the table. */
typedef struct {
    Slot *slots;
    size_t mask; /* capacity - 1, a power of two */
    Chars pool;
    Int64s start; /* size + 1 entries once initialised */
    uint32_t generation; /* 0: one numbering for every row */
} StrTable;

/* whether a slot holds a string of the table's current numbering */
static inline int
slot_live(const StrTable *table, const Slot *slot)
{
    return slot->number != 0
           && (table->generation == 0 || (uint32_t)slot->count == table->generation);
}

static inline Py_ssize_t
strtable_size(const StrTable *table)
{
    return table->start.size ? table->start.size - 1 : 0;
}

static int
strtable_init(StrTable *table)
{
    memset(table, 0, sizeof(StrTable));
    table->slots = PyMem_RawCalloc(64, sizeof(Slot));
    table->mask = 63;
    if (table->slots == NULL || push(&table->start, 0) < 0) return NO_MEMORY;
    return 0;
}

static void
strtable_free(StrTable *table)
{
    PyMem_RawFree(table->slots);
    PyMem_RawFree(table->pool.items);
    PyMem_RawFree(table->start.items);
    memset(table, 0, sizeof(StrTable));
}

static inline int
same_text(const StrTable *table, Py_ssize_t id, Text text)
{
    const Py_UCS4 *chars = table->pool.items + table->start.items[id];
    if (table->start.items[id + 1] - table->start.items[id] != text.length) return 0;
    switch (text.kind) {
    case PyUnicode_1BYTE_KIND:
        for (Py_ssize_t i = 0; i < text.length; i++)
            if (chars[i] != ((const Py_UCS1 *)text.data)[i]) return 0;
        return 1;
    case PyUnicode_2BYTE_KIND:
        for (Py_ssize_t i = 0; i < text.length; i++)
            if (chars[i] != ((const Py_UCS2 *)text.data)[i]) return 0;
        return 1;
    default:
        return memcmp(chars, text.data, (size_t)text.length * sizeof(Py_UCS4)) == 0;
    }
}

/* room for one more string at a load of at most 1/2 */
static BS_NOINLINE int
strtable_grow(StrTable *table)
{
    size_t capacity = (table->mask + 1) * 2;
    Slot *slots = PyMem_RawCalloc(capacity, sizeof(Slot));
    if (slots == NULL) return NO_MEMORY;
    for (size_t k = 0; k <= table->mask; k++) {
        Slot slot = table->slots[k];
        if (!slot_live(table, &slot)) continue;
        size_t at = (size_t)slot.hash & (capacity - 1);
        while (slots[at].number != 0) at = (at + 1) & (capacity - 1);
        slots[at] = slot;
    }
    PyMem_RawFree(table->slots);
    table->slots = slots;
    table->mask = capacity - 1;
    return 0;
}

static inline int
strtable_reserve(StrTable *table)
{
    if ((size_t)(strtable_size(table) + 1) * 2 <= table->mask + 1) return 0;
    return strtable_grow(table);
}

/* the slot of `text` (after strtable_reserve): where it is, or the empty slot where it would
 * go */
static inline Slot *
strtable_slot(const StrTable *table, Text text, uint64_t hash)
{
    size_t at = (size_t)hash & table->mask;
    for (;;) {
        Slot *slot = &table->slots[at];
        if (!slot_live(table, slot)
            || (slot->hash == hash && (table->generation == 0 || (slot->count >> 32) == 0)
                && same_text(table, slot->number - 1, text)))
            return slot;
        at = (at + 1) & table->mask;
    }
}

/* give `text` the next id in the empty `slot` found for it */
static int
strtable_insert(StrTable *table, Slot *slot, Text text, uint64_t hash)
{
    if (chars_reserve(&table->pool, text.length) < 0) return NO_MEMORY;
    Py_UCS4 *to = table->pool.items + table->pool.size;
    for (Py_ssize_t i = 0; i < text.length; i++) to[i] = text_at(text, i);
    table->pool.size += text.length;
    if (push(&table->start, table->pool.size) < 0) {
        table->pool.size -= text.length;
        return NO_MEMORY;
    }
    slot->hash = hash;
    slot->number = strtable_size(table);
    slot->first = 0;
    slot->count = table->generation;
    return 0;
}

/* the length of `text` where a row's table keeps it in its slot (1 to 8 code points, all
 * below 256: the word of bytes_word), else 0 */
static inline int64_t
short_length(Text text)
{
    if (text.length < 1 || text.length > 8) return 0;
    if (text.kind != PyUnicode_1BYTE_KIND)
        for (Py_ssize_t i = 0; i < text.length; i++)
            if (text_at(text, i) > 255) return 0;
    return (int64_t)text.length;
}

/* the id of a short text (short_length) in a row's table: the text is kept in its slot
 * (`first` its word, `count` its generation and its length above the 32 bits), not in the
 * pool, so that neither finding nor adding it reads or writes characters; a text of
 * another length or width is never in such a slot (its `count` has no length) */
static inline int64_t
short_word_id(StrTable *table, uint64_t word, int64_t length)
{
    if (strtable_reserve(table) < 0) return NO_MEMORY;
    /* one multiply, its high half folded onto the low bits the index takes */
    uint64_t hash = (word ^ (uint64_t)length << 58) * WORD_PRIME;
    hash ^= hash >> 32;
    int64_t tag = (int64_t)table->generation | length << 32;
    size_t at = (size_t)hash & table->mask;
    for (;;) {
        Slot *slot = &table->slots[at];
        if (!slot_live(table, slot)) {
            if (push(&table->start, table->pool.size) < 0) return NO_MEMORY;
            slot->hash = hash;
            slot->number = strtable_size(table);
            slot->first = (int64_t)word;
            slot->count = tag;
            return slot->number - 1;
        }
        if (slot->hash == hash && slot->count == tag && slot->first == (int64_t)word)
            return slot->number - 1;
        at = (at + 1) & table->mask;
    }
}

static inline int64_t
short_id(StrTable *table, Text text, int64_t length)
{
    return short_word_id(table, text.kind == PyUnicode_1BYTE_KIND
                                    ? bs_short_word(text.data, text.length)
                                    : bytes_word(text, 0, text.length), length);
}

/* the id of `text`, numbering it if new; < 0 on failure */
static int64_t
strtable_id(StrTable *table, Text text)
{
    if (table->generation != 0) {
        int64_t length = short_length(text);
        if (length) return short_id(table, text, length);
    }
    if (strtable_reserve(table) < 0) return NO_MEMORY;
    uint64_t hash = hash_text(text);
    Slot *slot = strtable_slot(table, text, hash);
    if (!slot_live(table, slot) && strtable_insert(table, slot, text, hash) < 0)
        return NO_MEMORY;
    return slot->number - 1;
}

/* a row's table: the next row (its ids start at 0 again) */
static void
strtable_next_row(StrTable *table)
{
    if (++table->generation == 0) { /* after 2^32 rows: the slots cleared once */
        memset(table->slots, 0, (table->mask + 1) * sizeof(Slot));
        table->generation = 1;
    }
    table->pool.size = 0;
    table->start.size = 1;
}

/* the built-in tokenizers (rules=...): none, sacrebleu's 13a, its char (each character a
 * token), chrF++'s words (one punctuation character split off the end, or else the start,
 * of a word of two or more characters), rouge-score's (with its stemmer or without) */
typedef enum {
    RULES_NONE, RULES_13A, RULES_CHAR, RULES_PUNCTUATION, RULES_ROUGE, RULES_ROUGE_PORTER
} Rules;

typedef struct {
    PyObject_HEAD
    PyObject *tokenize; /* NULL: plain, or the built-in rules */
    Rules rules;
    StrTable units;      /* the words (plain: the tokens) */
    StrTable tokens;     /* with a tokenizer: the tokens */
    Int64s unit_tokens;  /* the token ids of units of several tokens, unit after unit */
    Chars work[2];       /* 13a's scratch */
    StrTable *local;     /* gather's row tables: the tokens of one row at a time, or NULL */
    Int64s row_tokens;   /* the tokens of one unit, for the row's table */
    PyObject *made;      /* list: the str of each token numbered so far, made after calls */
    int ready, busy; /* busy: 1 while a call numbers, 2 while it does without the GIL */
} Numbering;

static inline StrTable *
vocabulary(Numbering *self)
{
    return self->tokenize != NULL || self->rules != RULES_NONE ? &self->tokens : &self->units;
}

/* the table tokens go to: the row's (gather's rows), else the numbering's own */
static inline StrTable *
token_table(Numbering *self)
{
    return self->local != NULL ? self->local : &self->tokens;
}

/* text[start:end] */
static inline Text
text_slice(Text text, Py_ssize_t start, Py_ssize_t end)
{
    Text slice = {text.kind, (const char *)text.data + start * text.kind, end - start};
    return slice;
}

/* the next word of `text` (split on whitespace, as str.split()) from *at: its start, *at
 * moved to its end; -1 where no word is left */
static inline Py_ssize_t
next_word(Text text, Py_ssize_t *at)
{
    Py_ssize_t i = *at;
    while (i < text.length && is_space(text_at(text, i))) i++;
    if (i == text.length) return -1;
    Py_ssize_t start = i;
    while (i < text.length && !is_space(text_at(text, i))) i++;
    *at = i;
    return start;
}

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
acts_on(Py_UCS4 c)
{
    return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`')
           || (c >= '{' && c <= '~');
}

static inline int
symbol_13a(Py_UCS4 c) /* the first rule's class */
{
    return (c >= '{' && c <= '~') || (c >= '[' && c <= '`') || (c >= ' ' && c <= '&')
           || (c >= '(' && c <= '+') || (c >= ':' && c <= '@') || c == '/';
}

static inline int
is_digit(Py_UCS4 c)
{
    return c >= '0' && c <= '9';
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
    for (Py_ssize_t i = 0; i < unit.length; i++) a->items[a->size++] = text_at(unit, i);
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
        Py_UCS4 c = text_at(unit, i);
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

/* whether a unit is its own only token under the rules (13a: no punctuation or symbol;
 * rouge: lowercase letters and digits, and with the stemmer at most 3 of them) */
static inline int
plain_unit(const Numbering *self, Text unit)
{
    if (unit.length == 0) return 0;
    int rouge = self->rules == RULES_ROUGE || self->rules == RULES_ROUGE_PORTER;
    if (self->rules == RULES_ROUGE_PORTER && unit.length > 3) return 0;
    for (Py_ssize_t i = 0; i < unit.length; i++) {
        Py_UCS4 c = text_at(unit, i);
        int plain = rouge ? (c >= 'a' && c <= 'z') || is_digit(c)
                          : !acts_on(c) && !is_space(c);
        if (!plain) return 0;
    }
    return 1;
}

/* sacrebleu's char rules on a unit: each character that is not whitespace a token */
static int
tokenize_char(Numbering *self, Text unit)
{
    for (Py_ssize_t i = 0; i < unit.length; i++) {
        if (is_space(text_at(unit, i))) continue;
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
        if (ascii_punctuation(text_at(word, word.length - 1))) cut = word.length - 1;
        else if (ascii_punctuation(text_at(word, 0))) cut = 1;
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
static int
tokenize_unit(Numbering *self, Text unit, PyObject *line, Py_ssize_t start, int64_t *first,
              int64_t *count)
{
    Py_ssize_t begin = self->unit_tokens.size;
    int failed = 0;
    if (self->tokenize == NULL
        && (self->rules == RULES_CHAR || self->rules == RULES_PUNCTUATION)) {
        failed = self->rules == RULES_CHAR ? tokenize_char(self, unit)
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
        PyObject *text = PyObject_CallOneArg(self->tokenize, string);
        Py_DECREF(string);
        if (text == NULL) return RAISED;
        if (!PyUnicode_Check(text)) {
            PyErr_Format(PyExc_TypeError, "tokenize must return a str, not %.100s",
                         Py_TYPE(text)->tp_name);
            Py_DECREF(text);
            return RAISED;
        }
#if PY_VERSION_HEX < 0x030C0000
        if (PyUnicode_READY(text) < 0) {
            Py_DECREF(text);
            return RAISED;
        }
#endif
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

/* whether a line holds a "\n" (then it is one unit) */
static inline int
has_newline(Text line)
{
    if (line.kind == PyUnicode_1BYTE_KIND)
        return memchr(line.data, '\n', (size_t)line.length) != NULL;
    for (Py_ssize_t i = 0; i < line.length; i++)
        if (text_at(line, i) == '\n') return 1;
    return 0;
}

/* append the token ids of one unit, line[start:start + unit.length], to ids: their number,
 * or < 0 */
static inline Py_ssize_t
number_unit(Numbering *self, Text unit, uint64_t hash, PyObject *line, Py_ssize_t start,
            Int64s *ids)
{
    if (strtable_reserve(&self->units) < 0) return NO_MEMORY;
    Slot *slot = strtable_slot(&self->units, unit, hash);
    if (slot->number == 0) {
        int64_t first = 0, count = 1;
        if (vocabulary(self) == &self->tokens) {
            /* tokenised first, then numbered: tokenize cannot reach this table (busy) */
            int failed = tokenize_unit(self, unit, line, start, &first, &count);
            if (failed) return failed;
        }
        if (strtable_insert(&self->units, slot, unit, hash) < 0) return NO_MEMORY;
        slot->first = vocabulary(self) == &self->tokens ? first : slot->number - 1;
        slot->count = count;
    }
    if (slot->count == 1) return push(ids, slot->first) < 0 ? NO_MEMORY : 1;
    for (int64_t k = 0; k < slot->count; k++)
        if (push(ids, self->unit_tokens.items[slot->first + k]) < 0) return NO_MEMORY;
    return (Py_ssize_t)slot->count;
}

/* the token ids of one line (code points at `data`), appended to ids: their number, or < 0 */
static Py_ssize_t
number_line(Numbering *self, Text line, PyObject *object, Int64s *ids)
{
    if (vocabulary(self) == &self->tokens) {
        if (has_newline(line)) { /* one unit: the line without its trailing whitespace */
            while (line.length > 0 && is_space(text_at(line, line.length - 1))) line.length--;
            return number_unit(self, line, hash_text(line), object, 0, ids);
        }
    }
    Py_ssize_t at = 0, total = 0;
    for (Py_ssize_t start; (start = next_word(line, &at)) >= 0;) {
        Text word = text_slice(line, start, at);
        Py_ssize_t count = number_unit(self, word, hash_text(word), object, start, ids);
        if (count < 0) return count;
        total += count;
    }
    return total;
}

/* ------------------------------------------------------ a row at a time (gather's rows)
 * Where only the sentences of a row are compared with each other (a hypothesis and its
 * references), their tokens need ids only within the row: a small table, cleared at each
 * row for free (strtable_next_row), stays in the cache whatever the vocabulary, where one
 * table for every row would miss it at each token. Each word is tokenised where it is met
 * (no table of units): a plain word (13a: no punctuation or symbol) is its own token. */

/* the token ids of one unit appended to ids: their number, or < 0. A unit that is not
 * its own token (13a: with punctuation or symbols; chrF++'s words; rouge's) is tokenised
 * once per distinct unit, as a whole-table numbering does (number_unit: its tokens kept in
 * the numbering's own tables), and its tokens are then numbered in the row's table by
 * their text; characters (char) are tokenised where they are met. */
static Py_ssize_t
row_unit(Numbering *self, Text unit, int plain, Int64s *ids)
{
    if (plain < 0) plain = plain_unit(self, unit);
    if (self->rules == RULES_NONE
        || (self->rules != RULES_CHAR && self->rules != RULES_PUNCTUATION && plain)) {
        int64_t id = strtable_id(self->local, unit);
        return id < 0 || push(ids, id) < 0 ? NO_MEMORY : 1;
    }
    if (self->rules != RULES_CHAR) {
        StrTable *row = self->local;
        Int64s *kept = &self->row_tokens;
        kept->size = 0;
        self->local = NULL; /* the unit's tokens in the numbering's own tables */
        Py_ssize_t count = number_unit(self, unit, hash_text(unit), NULL, 0, kept);
        self->local = row;
        if (count < 0) return count;
        for (Py_ssize_t k = 0; k < count; k++) {
            const StrTable *all = &self->tokens;
            int64_t token = kept->items[k];
            Text text = text_of(&all->pool, all->start.items[token], all->start.items[token + 1]);
            int64_t id = strtable_id(row, text);
            if (id < 0 || push(ids, id) < 0) return NO_MEMORY;
        }
        return count;
    }
    Py_ssize_t begin = self->unit_tokens.size;
    int failed = tokenize_char(self, unit);
    Py_ssize_t count = self->unit_tokens.size - begin;
    for (Py_ssize_t k = 0; k < count && !failed; k++)
        if (push(ids, self->unit_tokens.items[begin + k]) < 0) failed = NO_MEMORY;
    self->unit_tokens.size = begin;
    return failed ? NO_MEMORY : count;
}

/* number_line with the row's table */
static Py_ssize_t
row_line(Numbering *self, Text line, Int64s *ids)
{
    if (self->rules != RULES_NONE) {
        if (has_newline(line)) { /* one unit: the line without its trailing whitespace */
            while (line.length > 0 && is_space(text_at(line, line.length - 1))) line.length--;
            return row_unit(self, line, -1, ids);
        }
    }
    Py_ssize_t i = 0, total = 0;
    if (line.kind == PyUnicode_1BYTE_KIND) { /* words split and classified in one scan */
        const unsigned char *chars = line.data;
        for (;;) {
            while (i < line.length && (latin1_class[chars[i]] & CLASS_SPACE)) i++;
            if (i == line.length) return total;
            Py_ssize_t start = i;
            unsigned classes = 0;
            for (; i < line.length; i++) {
                unsigned c = latin1_class[chars[i]];
                if (c & CLASS_SPACE) break;
                classes |= c;
            }
            Text word = text_slice(line, start, i);
            int plain = self->rules == RULES_13A ? !(classes & CLASS_13A)
                        : self->rules == RULES_ROUGE ? !(classes & CLASS_NOT_ROUGE)
                                                      : -1;
            Py_ssize_t count = row_unit(self, word, plain, ids);
            if (count < 0) return count;
            total += count;
        }
    }
    for (Py_ssize_t start; (start = next_word(line, &i)) >= 0;) {
        Py_ssize_t count = row_unit(self, text_slice(line, start, i), -1, ids);
        if (count < 0) return count;
        total += count;
    }
    return total;
}

/* a str made for each token numbered since the last call: 0, or -1 with an exception */
static int
make_tokens(Numbering *self)
{
    if (self->made == NULL && (self->made = PyList_New(0)) == NULL) return -1;
    const StrTable *table = vocabulary(self);
    for (Py_ssize_t id = PyList_GET_SIZE(self->made); id < strtable_size(table); id++) {
        const Py_UCS4 *chars = table->pool.items + table->start.items[id];
        PyObject *token = PyUnicode_FromKindAndData(
            PyUnicode_4BYTE_KIND, chars, table->start.items[id + 1] - table->start.items[id]);
        if (token == NULL) return -1;
        int failed = PyList_Append(self->made, token);
        Py_DECREF(token);
        if (failed) return -1;
    }
    return 0;
}

PyDoc_STRVAR(number_doc,
"number(lines, /)\n--\n\n"
"The token ids of lines (a list of str), line after line, and the number of tokens of each\n"
"line: (ids, counts), bytes of native int64.");

static int
check_line(PyObject *lines, Py_ssize_t k)
{
    PyObject *line = PyList_GET_ITEM(lines, k);
    if (!PyUnicode_Check(line)) {
        PyErr_Format(PyExc_TypeError, "lines[%zd] must be a str, not %.100s", k,
                     Py_TYPE(line)->tp_name);
        return -1;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(line) < 0) return -1;
#endif
    return 0;
}

static inline Text
text_of_str(PyObject *line)
{
    Text text = {PyUnicode_KIND(line), PyUnicode_DATA(line), PyUnicode_GET_LENGTH(line)};
    return text;
}

static PyObject *
Numbering_number(Numbering *self, PyObject *lines)
{
    if (!self->ready) {
        PyErr_SetString(PyExc_ValueError, "Numbering was not initialised");
        return NULL;
    }
    if (!PyList_Check(lines)) {
        PyErr_Format(PyExc_TypeError, "lines must be a list of str, not %.100s",
                     Py_TYPE(lines)->tp_name);
        return NULL;
    }
    if (self->busy) { /* tokenize called number() on this Numbering, or another thread */
        PyErr_SetString(PyExc_RuntimeError, "Numbering.number() is already running");
        return NULL;
    }
    self->busy = 1;
    Int64s ids = {NULL, 0, 0, 0}, counts = {NULL, 0, 0, 0};
    PyObject *result = NULL, **held = NULL, *flat = NULL, *per_line = NULL, *bad = NULL;
    Py_ssize_t good = 0, failed = 0;
    if (self->tokenize != NULL) {
        /* tokenize may change the list: each line is held while it is read */
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(lines); k++) {
            if (check_line(lines, k) < 0) {
                failed = RAISED;
                break;
            }
            PyObject *line = Py_NewRef(PyList_GET_ITEM(lines, k));
            Py_ssize_t count = number_line(self, text_of_str(line), line, &ids);
            Py_DECREF(line);
            if (count < 0 || push(&counts, count) < 0) {
                failed = count < 0 ? count : NO_MEMORY;
                break;
            }
        }
    }
    else {
        /* the lines up to the first that is not a str, held; numbered without the GIL */
        Py_ssize_t total = PyList_GET_SIZE(lines);
        held = PyMem_Malloc((size_t)(total ? total : 1) * sizeof(PyObject *));
        if (held == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        for (; good < total; good++) {
            PyObject *line = PyList_GET_ITEM(lines, good);
            if (!PyUnicode_Check(line)) { /* refused once the lines before it are numbered */
                bad = Py_NewRef(line);
                break;
            }
#if PY_VERSION_HEX < 0x030C0000
            if (PyUnicode_READY(line) < 0) goto done;
#endif
            held[good] = Py_NewRef(line);
        }
        /* the ids go straight into the bytes object returned, with room for a token per
         * character (there are no more tokens than characters; room never written to costs
         * no memory), shrunk to its size at the end */
        Py_ssize_t chars = 0;
        for (Py_ssize_t k = 0; k < good; k++) {
            chars += PyUnicode_GET_LENGTH(held[k]);
            if (chars > PY_SSIZE_T_MAX / 16) {
                PyErr_NoMemory();
                goto done;
            }
        }
        flat = PyBytes_FromStringAndSize(NULL, chars * (Py_ssize_t)sizeof(int64_t));
        if (flat == NULL
            || reserve_bytes((void **)&counts.items, &counts.capacity, good, sizeof(int64_t))
                   < 0) {
            if (!PyErr_Occurred()) PyErr_NoMemory();
            goto done;
        }
        ids.items = (int64_t *)PyBytes_AS_STRING(flat);
        ids.capacity = chars;
        ids.fixed = 1;
        self->busy = 2; /* the tables change with the GIL released */
        bs_Watch watch;
        bs_watch_begin(&watch);
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t k = 0; k < good; k++) {
            if (bs_watch_poll(&watch)) {
                failed = RAISED;
                break;
            }
            Py_ssize_t count = number_line(self, text_of_str(held[k]), NULL, &ids);
            if (count < 0 || push(&counts, count) < 0) {
                failed = NO_MEMORY;
                break;
            }
        }
        Py_END_ALLOW_THREADS
        bs_watch_end(&watch); /* stopped (failed is RAISED): KeyboardInterrupt */
        if (!failed && bad != NULL) {
            PyErr_Format(PyExc_TypeError, "lines[%zd] must be a str, not %.100s", good,
                         Py_TYPE(bad)->tp_name);
            failed = RAISED;
        }
    }
    if (failed == NO_MEMORY) {
        if (PyErr_Occurred()) PyErr_Clear();
        PyErr_NoMemory();
    }
    /* after a failure the tokens of the lines before it are made when asked for */
    if (failed || make_tokens(self) < 0) goto done;
    if (ids.fixed) {
        if (_PyBytes_Resize(&flat, ids.size * (Py_ssize_t)sizeof(int64_t)) < 0) goto done;
    }
    else flat = PyBytes_FromStringAndSize((const char *)ids.items,
                                          ids.size * (Py_ssize_t)sizeof(int64_t));
    per_line = PyBytes_FromStringAndSize((const char *)counts.items,
                                         counts.size * (Py_ssize_t)sizeof(int64_t));
    if (flat != NULL && per_line != NULL) result = PyTuple_Pack(2, flat, per_line);
done:
    Py_XDECREF(flat);
    Py_XDECREF(per_line);
    Py_XDECREF(bad);
    if (ids.fixed) ids.items = NULL; /* the bytes object's, freed with it */
    if (held != NULL)
        for (Py_ssize_t k = 0; k < good; k++) Py_DECREF(held[k]);
    PyMem_Free(held);
    PyMem_RawFree(ids.items);
    PyMem_RawFree(counts.items);
    self->busy = 0;
    return result;
}

static void
Numbering_clear_tables(Numbering *self)
{
    strtable_free(&self->units);
    strtable_free(&self->tokens);
    PyMem_RawFree(self->unit_tokens.items);
    memset(&self->unit_tokens, 0, sizeof(Int64s));
    PyMem_RawFree(self->row_tokens.items);
    memset(&self->row_tokens, 0, sizeof(Int64s));
    for (int k = 0; k < 2; k++) {
        PyMem_RawFree(self->work[k].items);
        memset(&self->work[k], 0, sizeof(Chars));
    }
    Py_CLEAR(self->made);
    self->ready = 0;
}

static int
Numbering_init(Numbering *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"tokenize", "rules", NULL};
    PyObject *tokenize = Py_None, *rules = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O$O:Numbering", keywords, &tokenize,
                                     &rules))
        return -1;
    if (tokenize != Py_None && !PyCallable_Check(tokenize)) {
        PyErr_Format(PyExc_TypeError, "tokenize must be a callable or None, not %.100s",
                     Py_TYPE(tokenize)->tp_name);
        return -1;
    }
    Rules chosen = RULES_NONE;
    if (rules != Py_None) {
        static const char *names[] = {"13a", "char", "punctuation", "rouge", "rouge-porter"};
        for (int k = 0; k < 5 && PyUnicode_Check(rules); k++)
            if (PyUnicode_CompareWithASCIIString(rules, names[k]) == 0) chosen = (Rules)(k + 1);
        if (chosen == RULES_NONE) {
            PyErr_SetString(PyExc_ValueError, "rules must be None, '13a', 'char', "
                            "'punctuation', 'rouge' or 'rouge-porter'");
            return -1;
        }
        if (tokenize != Py_None) {
            PyErr_SetString(PyExc_ValueError, "give tokenize or rules, not both");
            return -1;
        }
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "Numbering.number() is running");
        return -1;
    }
    Numbering_clear_tables(self);
    Py_XSETREF(self->tokenize, tokenize == Py_None ? NULL : Py_NewRef(tokenize));
    self->rules = chosen;
    if (strtable_init(&self->units) < 0 || strtable_init(&self->tokens) < 0
        || (self->made = PyList_New(0)) == NULL) {
        Numbering_clear_tables(self);
        PyErr_NoMemory();
        return -1;
    }
    self->ready = 1;
    return 0;
}

static int
Numbering_traverse(Numbering *self, visitproc visit, void *arg)
{
    Py_VISIT(self->tokenize);
    Py_VISIT(self->made);
    return 0;
}

static int
Numbering_clear(Numbering *self)
{
    Py_CLEAR(self->tokenize);
    Py_CLEAR(self->made);
    return 0;
}

static void
Numbering_dealloc(Numbering *self)
{
    PyObject_GC_UnTrack(self);
    bs_numbering_rows_end((PyObject *)self);
    Numbering_clear(self);
    Numbering_clear_tables(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
Numbering_tokens(Numbering *self, void *closure)
{
    (void)closure;
    if (self->made == NULL) return PyList_New(0);
    /* while another thread numbers without the GIL, the tokens of the calls before */
    if (self->busy != 2 && self->ready && make_tokens(self) < 0) return NULL;
    return PyList_GetSlice(self->made, 0, PyList_GET_SIZE(self->made));
}

static Py_ssize_t
Numbering_length(Numbering *self)
{
    if (!self->ready) return 0;
    /* while another thread numbers without the GIL, the tokens of the calls before */
    return self->busy == 2 ? PyList_GET_SIZE(self->made) : strtable_size(vocabulary(self));
}

static PyMethodDef Numbering_methods[] = {
    {"number", (PyCFunction)Numbering_number, METH_O, number_doc},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Numbering_getset[] = {
    {"tokens", (getter)Numbering_tokens, NULL,
     "The token of each id, in order (a new list: changing it changes nothing here).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PySequenceMethods Numbering_as_sequence = {
    .sq_length = (lenfunc)Numbering_length,
};

PyDoc_STRVAR(Numbering_doc,
"Numbering(tokenize=None, *, rules=None)\n--\n\n"
"Numbers the tokens of lines by first appearance (see number()). Without tokenize or rules\n"
"the tokens are the whitespace-separated words of each line. rules='13a', 'char' (each\n"
"character), 'punctuation' (chrF++'s words), 'rouge' and 'rouge-porter' (rouge-score's,\n"
"with its stemmer) are built in; tokenize (str -> str, whose result is split on\n"
"whitespace) is a Python one. Either is applied once per distinct unit: a word, or a whole line where the line\n"
"holds a newline (line.rstrip()). Without tokenize the lines are numbered with the GIL\n"
"released. len() is the number of tokens so far.");

PyTypeObject bs_NumberingType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bleusuite._native.Numbering",
    .tp_basicsize = sizeof(Numbering),
    .tp_dealloc = (destructor)Numbering_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = Numbering_doc,
    .tp_traverse = (traverseproc)Numbering_traverse,
    .tp_clear = (inquiry)Numbering_clear,
    .tp_methods = Numbering_methods,
    .tp_getset = Numbering_getset,
    .tp_as_sequence = &Numbering_as_sequence,
    .tp_init = (initproc)Numbering_init,
    .tp_new = PyType_GenericNew,
};

/* ---------------------------------------------------- gather.c's use (see native.h) */

int
bs_numbering_begin(PyObject *object, int plain)
{
    if (!PyObject_TypeCheck(object, &bs_NumberingType)) {
        PyErr_Format(PyExc_TypeError, "numbering must be a Numbering, not %.100s",
                     Py_TYPE(object)->tp_name);
        return -1;
    }
    Numbering *self = (Numbering *)object;
    if (!self->ready) {
        PyErr_SetString(PyExc_ValueError, "Numbering was not initialised");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "Numbering.number() is already running");
        return -1;
    }
    if (plain && vocabulary(self) != &self->units) {
        PyErr_SetString(PyExc_ValueError, "tokens are numbered by a Numbering without tokenizer");
        return -1;
    }
    self->busy = 1;
    return 0;
}

void
bs_numbering_end(PyObject *object)
{
    ((Numbering *)object)->busy = 0;
}

int
bs_numbering_rows(PyObject *object)
{
    Numbering *self = (Numbering *)object;
    if (self->tokenize != NULL) {
        PyErr_SetString(PyExc_ValueError, "rows are numbered by the built-in rules only");
        return -1;
    }
    StrTable *table = PyMem_RawMalloc(sizeof(StrTable));
    if (table == NULL || strtable_init(table) < 0) {
        if (table != NULL) strtable_free(table);
        PyMem_RawFree(table);
        PyErr_NoMemory();
        return -1;
    }
    table->generation = 1;
    self->local = table;
    return 0;
}

void
bs_numbering_next_row(PyObject *object)
{
    strtable_next_row(((Numbering *)object)->local);
}

void
bs_numbering_rows_end(PyObject *object)
{
    Numbering *self = (Numbering *)object;
    if (self->local == NULL) return;
    strtable_free(self->local);
    PyMem_RawFree(self->local);
    self->local = NULL;
}

int
bs_numbering_pure(PyObject *object)
{
    return ((Numbering *)object)->tokenize == NULL;
}

void
bs_numbering_free_gil(PyObject *object, int released)
{
    ((Numbering *)object)->busy = released ? 2 : 1;
}

Py_ssize_t
bs_number_line_raw(PyObject *object, PyObject *line, bs_Int64s *ids)
{
    Numbering *self = (Numbering *)object;
    Text text = text_of_str(line);
    if (self->local != NULL) return row_line(self, text, ids);
    return number_line(self, text, self->tokenize != NULL ? line : NULL, ids);
}

int
bs_number_tokens_raw(PyObject *object, const bs_Token *tokens, Py_ssize_t count,
                     bs_Int64s *ids)
{
    Numbering *self = (Numbering *)object;
    StrTable *table = self->local != NULL ? self->local : &self->units;
    if (bs_int64s_reserve(ids, count) < 0) return NO_MEMORY;
    int64_t *to = ids->items + ids->size;
    for (Py_ssize_t k = 0; k < count; k++) {
        const bs_Token *token = &tokens[k];
        /* a short word: a row's table, where strtable_id would find it by the same word */
        int64_t id = token->object == NULL && table->generation != 0
                         ? short_word_id(table, token->word, token->length)
                     : token->object == NULL ? NO_MEMORY
                                             : strtable_id(table, text_of_str(token->object));
        if (id < 0) return NO_MEMORY;
        to[k] = id;
    }
    ids->size += count;
    return 0;
}

void
bs_numbering_ready(void)
{
    for (Py_UCS4 c = 0; c < 256; c++) {
        latin1_space[c] = Py_UNICODE_ISSPACE(c) ? 1 : 0;
        latin1_class[c] = (unsigned char)((latin1_space[c] ? CLASS_SPACE : 0)
                                          | (acts_on(c) ? CLASS_13A : 0)
                                          | ((c >= 'a' && c <= 'z') || is_digit(c)
                                                 ? 0 : CLASS_NOT_ROUGE));
    }
}
