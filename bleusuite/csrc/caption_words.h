/* caption_words.h: the words of captions (str) as keys, shared by caption_lcs.c and
 * cider_sums.c.
 *
 * A word's key: where it has at most 8 code points, all below 256, the code points packed
 * one a byte (with its length, the key is the word: no comparison needed); else a hash of
 * its code points, a match confirmed by comparing them. The key does not depend on the
 * str's kind, so the same word in a one-byte and a two-byte str matches.
 */
#ifndef BLEUSUITE_CAPTION_WORDS_H
#define BLEUSUITE_CAPTION_WORDS_H

#include "native.h"

/* the compiler's builtins where it has them (GCC, clang), plain C elsewhere (MSVC) */
#if defined(__GNUC__) || defined(__clang__)
#define BS_ALWAYS_INLINE inline __attribute__((always_inline))
#define BS_PREFETCH(address) __builtin_prefetch(address)
static inline int
bs_popcount64(uint64_t x)
{
    return __builtin_popcountll(x);
}
#else
#define BS_ALWAYS_INLINE inline
#define BS_PREFETCH(address) ((void)(address))
static inline int
bs_popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
#endif

#if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) \
    && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define WORDS_FROM_LOADS 1
#else
#define WORDS_FROM_LOADS 0
#endif

typedef struct {
    int kind;
    const void *data;
    Py_ssize_t length;
} Line;

typedef struct {
    uint64_t key;      /* packed code points (short) or a hash */
    Py_ssize_t start;  /* in the hypothesis */
    Py_ssize_t length; /* code points */
    int exact;         /* the key is the word (short) */
} Word;

static inline Py_UCS4
line_at(const Line *t, Py_ssize_t i)
{
    return PyUnicode_READ(t->kind, t->data, i);
}

/* the key of the word of `t` at [start, start + length) */
static inline Word
word_key(const Line *t, Py_ssize_t start, Py_ssize_t length)
{
    Word w = {0, start, length, 0};
    if (t->kind == PyUnicode_1BYTE_KIND) {
        const unsigned char *p = (const unsigned char *)t->data + start;
        if (length <= 8) {
            uint64_t packed = 0;
#if WORDS_FROM_LOADS
            if (start + 8 <= t->length) { /* one load, the bytes after the word masked off */
                memcpy(&packed, p, 8);
                packed = length == 8 ? packed : packed & (((uint64_t)1 << (8 * length)) - 1);
            }
            else
#endif
                memcpy(&packed, p, (size_t)length); /* either endianness: the same keys */
            w.key = packed;
            w.exact = 1;
            return w;
        }
        uint64_t hash = (uint64_t)length * BS_GOLDEN;
        Py_ssize_t k = 0;
        for (; k + 8 <= length; k += 8) {
            uint64_t chunk;
            memcpy(&chunk, p + k, 8);
            hash = (hash ^ chunk) * BS_GOLDEN;
            hash ^= hash >> 29;
        }
        if (k < length) {
            uint64_t chunk = 0;
            memcpy(&chunk, p + k, (size_t)(length - k));
            hash = (hash ^ chunk) * BS_GOLDEN;
            hash ^= hash >> 29;
        }
        w.key = hash;
        return w;
    }
    /* two- and four-byte str: the same keys for words of code points below 256 (packed as
     * a one-byte str's bytes), a hash of the code points for the others */
    int latin1 = 1;
    for (Py_ssize_t k = 0; k < length && latin1; k++) latin1 = line_at(t, start + k) < 256;
    if (latin1) {
        unsigned char bytes[8];
        uint64_t hash = (uint64_t)length * BS_GOLDEN;
        Py_ssize_t k = 0;
        while (k < length) {
            const Py_ssize_t take = length - k < 8 ? length - k : 8;
            uint64_t chunk = 0;
            for (Py_ssize_t j = 0; j < take; j++) bytes[j] = (unsigned char)line_at(t, start + k + j);
            memcpy(&chunk, bytes, (size_t)take);
            if (length <= 8) {
                w.key = chunk;
                w.exact = 1;
                return w;
            }
            hash = (hash ^ chunk) * BS_GOLDEN;
            hash ^= hash >> 29;
            k += take;
        }
        w.key = hash;
        if (length == 0) w.exact = 1;
        return w;
    }
    uint64_t hash = 0xcbf29ce484222325ULL; /* FNV-1a: these never equal a latin-1 word */
    for (Py_ssize_t k = 0; k < length; k++) hash = (hash ^ line_at(t, start + k)) * 0x100000001b3ULL;
    w.key = hash;
    return w;
}

/* whether word `a` of `hyp` and word `b` of `t` are equal */
static inline int
same_word(const Line *hyp, const Word *a, const Line *t, const Word *b)
{
    if (a->key != b->key || a->length != b->length || a->exact != b->exact) return 0;
    if (a->exact) return 1;
    if (hyp->kind == t->kind)
        return memcmp((const char *)hyp->data + a->start * hyp->kind,
                      (const char *)t->data + b->start * t->kind,
                      (size_t)a->length * (size_t)t->kind) == 0;
    for (Py_ssize_t k = 0; k < a->length; k++)
        if (line_at(hyp, a->start + k) != line_at(t, b->start + k)) return 0;
    return 1;
}

#endif
