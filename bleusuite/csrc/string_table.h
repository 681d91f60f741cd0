/* Strings numbered by first appearance (the Numbering's tables of units and tokens, and
 * gather's tables of one row): code points hashed and looked up in open-addressing tables,
 * private to numbering.c, tokenizers.c and string_table.c. Hot: everything a lookup runs is
 * inline here; string_table.c holds the slow paths (growing, the hash of long or wide text).
 *
 * Units and tokens are kept as code points (UCS4) in one pool and looked up by their code
 * points, whatever the width of the str that holds them (1, 2 or 4 bytes per character): a
 * word read from lines of different widths is one word.
 *
 * A row's table (gather's rows, where ids need only compare within a row) keeps a string
 * of 1 to 8 code points below 256, most tokens, in its slot as one 64-bit word of its
 * characters (bs_short_word) beside its length: found and added with one multiply for its
 * hash and one comparison of words, with no characters copied to the pool or compared
 * there. gather holds such str tokens as their words, so that the numbering reads no str
 * object for them.
 */
#ifndef BLEUSUITE_STRING_TABLE_H
#define BLEUSUITE_STRING_TABLE_H

#include "native.h"

#include <string.h>

/* FNV-1a's offset and prime (the hash of wide text, a code point at a time); a word of 8
 * one-byte characters is mixed in by one multiply by BS_GOLDEN */
#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

/* whether each of the first 256 code points is whitespace (Py_UNICODE_ISSPACE; filled by
 * bs_numbering_ready) */
extern unsigned char bs_latin1_space[256];

static inline int
is_space(Py_UCS4 c)
{
    return c < 256 ? bs_latin1_space[c] : bs_is_space(c);
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

/* `*items` grown (doubled, from 256) to hold `needed` items of `item` bytes: 0, or
 * NO_MEMORY */
int bs_reserve_bytes(void **items, Py_ssize_t *capacity, Py_ssize_t needed, size_t item);

static inline int
chars_reserve(Chars *array, Py_ssize_t more)
{
    if (more > PY_SSIZE_T_MAX - array->size) return NO_MEMORY;
    return bs_reserve_bytes((void **)&array->items, &array->capacity, array->size + more,
                         sizeof(Py_UCS4));
}

static inline int
push(Int64s *array, int64_t value)
{
    if (array->size == array->capacity
        && (array->fixed || bs_reserve_bytes((void **)&array->items, &array->capacity, array->size + 1,
                         sizeof(int64_t)) < 0))
        return NO_MEMORY;
    array->items[array->size++] = value;
    return 0;
}

typedef bs_Text Text;

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
static inline uint64_t
bytes_word(Text text, Py_ssize_t at, Py_ssize_t n)
{
    if (text.kind == PyUnicode_1BYTE_KIND) return bs_short_word((const char *)text.data + at, n);
    uint64_t w = 0;
    if (n == 8)
        for (int j = 0; j < 8; j++) w |= (uint64_t)bs_text_at(text, at + j) << (8 * j);
    else if (n >= 4)
        for (int j = 0; j < 4; j++)
            w |= (uint64_t)bs_text_at(text, at + j) << (8 * j)
                 | (uint64_t)bs_text_at(text, at + n - 4 + j) << (8 * j + 32);
    else
        w = (uint64_t)bs_text_at(text, at) | (uint64_t)bs_text_at(text, at + (n >> 1)) << 8
            | (uint64_t)bs_text_at(text, at + n - 1) << 16;
    return w;
}

/* the hash of code points. A text whose code points are all below 256 (whatever the width
 * of its str) is hashed 8 characters at a time, a multiply each; any other text (which no
 * such text equals) a code point at a time, FNV-1a. A finaliser mixes in the length and
 * spreads the bits (the table's index takes the low bits) */
uint64_t bs_hash_general(int kind, const void *data, Py_ssize_t length);

/* bs_hash_general, with the common case inline: a str of one byte per character, of at most
 * 8 of them (one word) */
static inline uint64_t
hash_text(Text text)
{
    if (text.kind == PyUnicode_1BYTE_KIND && text.length <= 8 && text.length > 0)
        return finish_hash((FNV_OFFSET ^ bs_short_word(text.data, text.length)) * BS_GOLDEN,
                           text.length);
    return bs_hash_general(text.kind, text.data, text.length);
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

/* an empty table (a numbering of every row): 0, or NO_MEMORY */
int bs_strtable_init(StrTable *table);
void bs_strtable_free(StrTable *table);

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
int bs_strtable_grow(StrTable *table);

static inline int
strtable_reserve(StrTable *table)
{
    if ((size_t)(strtable_size(table) + 1) * 2 <= table->mask + 1) return 0;
    return bs_strtable_grow(table);
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
static inline int
strtable_insert(StrTable *table, Slot *slot, Text text, uint64_t hash)
{
    if (chars_reserve(&table->pool, text.length) < 0) return NO_MEMORY;
    Py_UCS4 *to = table->pool.items + table->pool.size;
    for (Py_ssize_t i = 0; i < text.length; i++) to[i] = bs_text_at(text, i);
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
            if (bs_text_at(text, i) > 255) return 0;
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
    uint64_t hash = (word ^ (uint64_t)length << 58) * BS_GOLDEN;
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
static inline int64_t
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
static inline void
strtable_next_row(StrTable *table)
{
    if (++table->generation == 0) { /* after 2^32 rows: the slots cleared once */
        memset(table->slots, 0, (table->mask + 1) * sizeof(Slot));
        table->generation = 1;
    }
    table->pool.size = 0;
    table->start.size = 1;
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
    while (i < text.length && is_space(bs_text_at(text, i))) i++;
    if (i == text.length) return -1;
    Py_ssize_t start = i;
    while (i < text.length && !is_space(bs_text_at(text, i))) i++;
    *at = i;
    return start;
}

#endif
