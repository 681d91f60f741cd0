/* caption_words.h: the words of captions (str) as keys, and the captions' lists as
 * pycocoevalcap's dictionaries give them, shared by caption_lcs.c and cider_sums.c.
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
#define BS_PREFETCH(address) __builtin_prefetch(address)
static inline int
bs_popcount64(uint64_t x)
{
    return __builtin_popcountll(x);
}
#else
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

/* ------------------------------------------- the captions as pycocoevalcap passes them */

/* hypotheses and references (args[0], args[1]): tuples or lists of the same length (the
 * images); their length, or -1 with a TypeError or ValueError naming them */
static inline Py_ssize_t
caption_images(PyObject *const *args)
{
    static const char *names[2] = {"hypotheses", "references"};
    for (int k = 0; k < 2; k++) {
        if (!PyTuple_CheckExact(args[k]) && !PyList_CheckExact(args[k])) {
            PyErr_Format(PyExc_TypeError, "%s must be a tuple or list, not %.100s", names[k],
                         Py_TYPE(args[k])->tp_name);
            return -1;
        }
    }
    const Py_ssize_t images = PySequence_Fast_GET_SIZE(args[0]);
    if (PySequence_Fast_GET_SIZE(args[1]) != images) {
        PyErr_Format(PyExc_ValueError, "references has %zd items where hypotheses has %zd",
                     PySequence_Fast_GET_SIZE(args[1]), images);
        return -1;
    }
    return images;
}

/* image b's lists checked: `hyp` (hypotheses[b]) a list of one item, `refs` (references[b])
 * a non-empty list; the number of its references, or -1 with a ValueError naming them */
static inline Py_ssize_t
image_references(PyObject *hyp, PyObject *refs, Py_ssize_t b)
{
    if (!PyList_CheckExact(hyp) || PyList_GET_SIZE(hyp) != 1) {
        PyErr_Format(PyExc_ValueError, "hypotheses[%zd] must be a list of one str", b);
        return -1;
    }
    if (!PyList_CheckExact(refs) || PyList_GET_SIZE(refs) == 0) {
        PyErr_Format(PyExc_ValueError, "references[%zd] must be a non-empty list of str", b);
        return -1;
    }
    return PyList_GET_SIZE(refs);
}

/* image b's captions (its lists checked by image_references), the hypothesis then the
 * references, each a str (ready), appended to held[*count:] with a reference each, so that
 * they outlive a change of the lists while the GIL is released: 0, or -1 with a ValueError
 * naming the caption (*count: those held) */
static inline int
hold_captions(PyObject *hyp, PyObject *refs, Py_ssize_t b, PyObject **held, Py_ssize_t *count)
{
    for (Py_ssize_t k = -1; k < PyList_GET_SIZE(refs); k++) {
        PyObject *item = k < 0 ? PyList_GET_ITEM(hyp, 0) : PyList_GET_ITEM(refs, k);
        if (!PyUnicode_CheckExact(item)) {
            if (k < 0)
                PyErr_Format(PyExc_ValueError, "hypotheses[%zd][0] must be a str, not %.100s", b,
                             Py_TYPE(item)->tp_name);
            else
                PyErr_Format(PyExc_ValueError, "references[%zd][%zd] must be a str, not "
                             "%.100s", b, k, Py_TYPE(item)->tp_name);
            return -1;
        }
#if PY_VERSION_HEX < 0x030C0000
        if (PyUnicode_READY(item) < 0) return -1;
#endif
        held[(*count)++] = Py_NewRef(item);
    }
    return 0;
}

#endif
