/* The slow paths of string_table.h's tables: growing arrays and tables, the hash of text
 * longer than a word or wider than a byte a character. */
#include "string_table.h"

unsigned char bs_latin1_space[256];

int
bs_reserve_bytes(void **items, Py_ssize_t *capacity, Py_ssize_t needed, size_t item)
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

int
bs_int64s_reserve(bs_Int64s *array, Py_ssize_t more)
{
    if (more > PY_SSIZE_T_MAX - array->size) return NO_MEMORY;
    if (array->size + more <= array->capacity) return 0;
    if (array->fixed) return NO_MEMORY;
    return bs_reserve_bytes((void **)&array->items, &array->capacity, array->size + more,
                         sizeof(int64_t));
}

uint64_t
bs_hash_general(int kind, const void *data, Py_ssize_t length) /* a Text's fields: in registers */
{
    const Text text = {kind, data, length};
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
            h = (h ^ bytes_word(text, at, 8)) * BS_GOLDEN;
            h ^= h >> 29;
        }
        if (n > 0) h = (h ^ bytes_word(text, at, n)) * BS_GOLDEN;
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

int
bs_strtable_init(StrTable *table)
{
    memset(table, 0, sizeof(StrTable));
    table->slots = PyMem_RawCalloc(64, sizeof(Slot));
    table->mask = 63;
    if (table->slots == NULL || push(&table->start, 0) < 0) return NO_MEMORY;
    return 0;
}

void
bs_strtable_free(StrTable *table)
{
    PyMem_RawFree(table->slots);
    PyMem_RawFree(table->pool.items);
    PyMem_RawFree(table->start.items);
    memset(table, 0, sizeof(StrTable));
}

/* room for one more string at a load of at most 1/2 */
int
bs_strtable_grow(StrTable *table)
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
