/* cider_sums: the sums of pycocoevalcap 1.2's CIDEr-D (document frequencies from the call's
 * references) of a batch of token ids, with the GIL released: per sentence and order the
 * squared norm of its tf-idf vector, per reference and order the clipped dot product with
 * its image's hypothesis. sorted_orders.py computes the same sums with NumPy sorts; the
 * rest of the formula (square roots, the length penalty, the means) is NumPy's in both.
 *
 * 1. Every n-gram of order 1..K of every sentence gets an id: order 1 a table of the token
 *    values, order k a table of (the id of the (k-1)-gram at the position, the id of the
 *    k-th token); open addressing, grown at half full. While the references are numbered,
 *    an n-gram's document frequency counts the images whose references hold it (the last
 *    image that counted it is kept with it).
 * 2. Each n-gram's weight: log(N) - log(max(1, df)), from log_table (NumPy's logs, as
 *    sorted_orders.py takes them).
 * 3. Per image, per order: each sentence's n-grams in the order they first occur (the
 *    order of pycocoevalcap's dictionaries, which its sums follow), their tf counted with
 *    stamps per id (no clearing between sentences), value = tf * weight; the norm the sum
 *    of the values squared in that order; the dot product of a reference the sum over the
 *    hypothesis's n-grams, in the hypothesis's order, of min(hyp value, ref value) times
 *    the ref value, where the reference holds the n-gram (elsewhere pycocoevalcap adds 0).
 */
#include "native.h"

#define GOLDEN 0x9E3779B97F4A7C15ULL
#define MAX_ORDER 16

typedef enum { SUMS_DONE = 0, SUMS_NO_MEMORY, SUMS_BAD_INPUT, SUMS_STOPPED } SumsFailure;

typedef struct {
    uint64_t *keys;
    int32_t *values; /* -1: free */
    size_t capacity, used;
} Table;

static int
table_init(Table *t, size_t capacity)
{
    t->keys = PyMem_RawMalloc(capacity * sizeof(uint64_t));
    t->values = PyMem_RawMalloc(capacity * sizeof(int32_t));
    t->capacity = capacity;
    t->used = 0;
    if (t->keys == NULL || t->values == NULL) return -1;
    memset(t->values, 0xff, capacity * sizeof(int32_t));
    return 0;
}

static void
table_free(Table *t)
{
    PyMem_RawFree(t->keys);
    PyMem_RawFree(t->values);
    t->keys = NULL;
    t->values = NULL;
}

static inline size_t
slot_of(uint64_t key, size_t mask)
{
    uint64_t h = key * GOLDEN;
    return (size_t)(h ^ (h >> 31)) & mask;
}

static int
table_grow(Table *t)
{
    Table bigger;
    if (t->capacity > (size_t)PY_SSIZE_T_MAX / 32) return -1;
    if (table_init(&bigger, t->capacity * 2) < 0) {
        table_free(&bigger);
        return -1;
    }
    const size_t mask = bigger.capacity - 1;
    for (size_t k = 0; k < t->capacity; k++) {
        if (t->values[k] < 0) continue;
        size_t s = slot_of(t->keys[k], mask);
        while (bigger.values[s] >= 0) s = (s + 1) & mask;
        bigger.keys[s] = t->keys[k];
        bigger.values[s] = t->values[k];
    }
    bigger.used = t->used;
    table_free(t);
    *t = bigger;
    return 0;
}

/* the n-gram ids (a table shared by all orders: its keys of order 1 are token values,
 * those of order k > 1 are (prefix id, token id) pairs, told apart by the table) */
typedef struct {
    Table unigrams, longer;
    int32_t distinct;
    int32_t *df, *last_image, *count; /* per id: document frequency, its last image, occurrences (to 2) */
    size_t ids_capacity;
} Ids;

/* the id of `key` in `t` (a new one where absent); -1: no memory, -2: too many ids */
static inline int32_t
id_of(Ids *ids, Table *t, uint64_t key)
{
    size_t mask = t->capacity - 1;
    size_t s = slot_of(key, mask);
    while (t->values[s] >= 0) {
        if (t->keys[s] == key) return t->values[s];
        s = (s + 1) & mask;
    }
    if (ids->distinct == INT32_MAX) return -2;
    if ((size_t)ids->distinct + 1 > ids->ids_capacity) {
        size_t more = ids->ids_capacity ? ids->ids_capacity * 2 : 1024;
        int32_t *df = PyMem_RawRealloc(ids->df, more * sizeof(int32_t));
        if (df == NULL) return -1;
        ids->df = df;
        int32_t *last = PyMem_RawRealloc(ids->last_image, more * sizeof(int32_t));
        if (last == NULL) return -1;
        ids->last_image = last;
        int32_t *count = PyMem_RawRealloc(ids->count, more * sizeof(int32_t));
        if (count == NULL) return -1;
        ids->count = count;
        ids->ids_capacity = more;
    }
    const int32_t id = ids->distinct++;
    ids->df[id] = 0;
    ids->last_image[id] = -1;
    ids->count[id] = 0;
    t->keys[s] = key;
    t->values[s] = id;
    if (++t->used * 2 > t->capacity && table_grow(t) < 0) return -1;
    return id;
}

typedef struct {
    /* input */
    const int64_t *hyp_ids, *hyp_starts, *hyp_lengths;
    const int64_t *ref_ids, *ref_starts, *ref_lengths, *ref_counts;
    Py_ssize_t hyp_size, ref_size, images, refs;
    int order;
    const double *log_table;
    Py_ssize_t log_size;
    double log_documents;
    /* output: (B, K), (R, K), (R, K) */
    double *hyp_norm2, *ref_norm2, *dot;
    /* work */
    int64_t *hyp_first, *ref_first; /* per sentence: its first position in the id arrays */
    int32_t *hyp_grams, *ref_grams; /* K x positions: each position's k-gram id (or -1) */
    Py_ssize_t hyp_total, ref_total;
    double *weight;
    double single[2]; /* the value of an n-gram that occurs once: in a hypothesis, a reference */
    int32_t *stamp, *tf, mark;
    int32_t *list;
    double *hyp_value;
    Ids ids;
} Call;

static SumsFailure
check_slices(const Call *c)
{
    for (Py_ssize_t b = 0; b < c->images; b++) {
        const int64_t s = c->hyp_starts[b], n = c->hyp_lengths[b];
        if (s < 0 || n < 0 || s > c->hyp_size || n > c->hyp_size - s) return SUMS_BAD_INPUT;
        if (c->ref_counts[b] < 1) return SUMS_BAD_INPUT;
    }
    for (Py_ssize_t r = 0; r < c->refs; r++) {
        const int64_t s = c->ref_starts[r], n = c->ref_lengths[r];
        if (s < 0 || n < 0 || s > c->ref_size || n > c->ref_size - s) return SUMS_BAD_INPUT;
    }
    return SUMS_DONE;
}

/* step 1, order k, for one side (hypotheses, or references counting document
 * frequencies). A k-gram (k > 1) whose (k-1)-grams at its position and the next occur once
 * in the batch occurs once itself: it gets no id (-1), tf 1 and df at most 1, so weight
 * log(N) (log(max(1, df)) = 0), and meets nothing (sorted_orders.py prunes the same). */
static SumsFailure
number_side(Call *c, int refs_side, int k, bs_Watch *watch)
{
    const int64_t *tokens = refs_side ? c->ref_ids : c->hyp_ids;
    const int64_t *starts = refs_side ? c->ref_starts : c->hyp_starts;
    const int64_t *lengths = refs_side ? c->ref_lengths : c->hyp_lengths;
    const int64_t *first = refs_side ? c->ref_first : c->hyp_first;
    int32_t *grams = refs_side ? c->ref_grams : c->hyp_grams;
    const Py_ssize_t total = refs_side ? c->ref_total : c->hyp_total;
    const Py_ssize_t sentences = refs_side ? c->refs : c->images;
    int32_t *row = grams + (size_t)(k - 1) * (size_t)total;
    const int32_t *prefix = k > 1 ? grams + (size_t)(k - 2) * (size_t)total : grams;
    const int32_t *unigram = grams;
    const int32_t *count = c->ids.count;
    if (sentences == 0) return SUMS_DONE;
    Py_ssize_t image = 0, image_end = refs_side ? (Py_ssize_t)c->ref_counts[0] : 1;
    for (Py_ssize_t s = 0; s < sentences; s++) {
        if (bs_watch_poll(watch)) return SUMS_STOPPED;
        if (refs_side) {
            while (s >= image_end) {
                image++;
                image_end += c->ref_counts[image];
            }
        }
        else image = s;
        const int64_t *t = tokens + starts[s];
        const int64_t n = lengths[s], at = first[s];
        for (int64_t p = 0; p + k <= n; p++) {
            int32_t id;
            if (k == 1) id = id_of(&c->ids, &c->ids.unigrams, (uint64_t)t[p]);
            else {
                const int32_t left = prefix[at + p], right = prefix[at + p + 1];
                if (left < 0 || right < 0 || count[left] < 2 || count[right] < 2) {
                    row[at + p] = -1;
                    continue;
                }
                id = id_of(&c->ids, &c->ids.longer,
                           (uint64_t)(uint32_t)left << 32 | (uint32_t)unigram[at + p + k - 1]);
            }
            if (id < 0) return SUMS_NO_MEMORY;
            count = c->ids.count; /* id_of may have moved it */
            row[at + p] = id;
            if (c->ids.count[id] < 2) c->ids.count[id]++;
            if (refs_side && c->ids.last_image[id] != (int32_t)image) {
                c->ids.last_image[id] = (int32_t)image;
                c->ids.df[id]++;
            }
        }
    }
    return SUMS_DONE;
}

/* the next stamp (the stamps cleared where they would wrap) */
static inline int32_t
next_mark(Call *c)
{
    if (c->mark == INT32_MAX) {
        memset(c->stamp, 0, (size_t)c->ids.distinct * sizeof(int32_t));
        c->mark = 0;
    }
    return ++c->mark;
}

/* the distinct n-grams of a sentence of order k (their ids `row`, `count` of them) in
 * first-occurrence order into `list`, their tf into c->tf (stamped `mark`): their number */
static inline Py_ssize_t
distinct_grams(Call *c, const int32_t *row, int64_t count, int32_t mark, int32_t *list)
{
    Py_ssize_t listed = 0;
    for (int64_t p = 0; p < count; p++) {
        const int32_t id = row[p];
        if (id < 0) { /* occurs once in the batch */
            list[listed++] = -1;
            continue;
        }
        if (c->stamp[id] != mark) {
            c->stamp[id] = mark;
            c->tf[id] = 1;
            list[listed++] = id;
        }
        else c->tf[id]++;
    }
    return listed;
}

/* step 3 */
static SumsFailure
image_sums(Call *c, bs_Watch *watch)
{
    const size_t K = (size_t)c->order;
    Py_ssize_t r0 = 0;
    for (Py_ssize_t b = 0; b < c->images; b++) {
        if (bs_watch_poll(watch)) return SUMS_STOPPED;
        const int64_t m = c->hyp_lengths[b];
        for (size_t k = 1; k <= K; k++) {
            const int32_t *hyp_row = c->hyp_grams + (k - 1) * (size_t)c->hyp_total
                                     + c->hyp_first[b];
            int32_t *hyp_list = c->list;
            const Py_ssize_t hyp_distinct = distinct_grams(
                c, hyp_row, m - (int64_t)k + 1 > 0 ? m - (int64_t)k + 1 : 0, next_mark(c),
                hyp_list);
            double norm = 0.0;
            for (Py_ssize_t q = 0; q < hyp_distinct; q++) {
                const int32_t id = hyp_list[q];
                const double value = id < 0 ? c->single[0] : (double)c->tf[id] * c->weight[id];
                c->hyp_value[q] = value;
                norm += value * value;
            }
            c->hyp_norm2[(size_t)b * K + (k - 1)] = norm;
            int32_t *ref_list = hyp_list + hyp_distinct;
            for (int64_t j = 0; j < c->ref_counts[b]; j++) {
                const Py_ssize_t r = r0 + (Py_ssize_t)j;
                const int64_t n = c->ref_lengths[r];
                const int32_t *ref_row = c->ref_grams + (k - 1) * (size_t)c->ref_total
                                         + c->ref_first[r];
                const int32_t ref_mark = next_mark(c);
                const Py_ssize_t ref_distinct = distinct_grams(
                    c, ref_row, n - (int64_t)k + 1 > 0 ? n - (int64_t)k + 1 : 0, ref_mark,
                    ref_list);
                double ref_norm = 0.0;
                for (Py_ssize_t q = 0; q < ref_distinct; q++) {
                    const int32_t id = ref_list[q];
                    const double value = id < 0 ? c->single[1]
                                                : (double)c->tf[id] * c->weight[id];
                    ref_norm += value * value;
                }
                double product = 0.0;
                for (Py_ssize_t q = 0; q < hyp_distinct; q++) {
                    const int32_t id = hyp_list[q];
                    if (id < 0 || c->stamp[id] != ref_mark) continue; /* pycocoevalcap adds 0 */
                    const double ref_value = (double)c->tf[id] * c->weight[id];
                    const double low = c->hyp_value[q] < ref_value ? c->hyp_value[q]
                                                                  : ref_value;
                    product += low * ref_value;
                }
                c->ref_norm2[(size_t)r * K + (k - 1)] = ref_norm;
                c->dot[(size_t)r * K + (k - 1)] = product;
            }
        }
        r0 += (Py_ssize_t)c->ref_counts[b];
    }
    return SUMS_DONE;
}

static void
call_free(Call *c)
{
    PyMem_RawFree(c->hyp_first);
    PyMem_RawFree(c->ref_first);
    PyMem_RawFree(c->hyp_grams);
    PyMem_RawFree(c->ref_grams);
    PyMem_RawFree(c->weight);
    PyMem_RawFree(c->stamp);
    PyMem_RawFree(c->tf);
    PyMem_RawFree(c->list);
    PyMem_RawFree(c->hyp_value);
    table_free(&c->ids.unigrams);
    table_free(&c->ids.longer);
    PyMem_RawFree(c->ids.df);
    PyMem_RawFree(c->ids.last_image);
    PyMem_RawFree(c->ids.count);
}

/* positions of each sentence of one side in its id arrays: its total, or -1 (too many) */
static Py_ssize_t
first_positions(const int64_t *lengths, Py_ssize_t sentences, int64_t *first, int64_t *longest)
{
    Py_ssize_t total = 0;
    for (Py_ssize_t s = 0; s < sentences; s++) {
        first[s] = total;
        if (lengths[s] > *longest) *longest = lengths[s];
        if (lengths[s] > INT32_MAX - total) return -1;
        total += (Py_ssize_t)lengths[s];
    }
    return total;
}

static SumsFailure
run_call(Call *c, bs_Watch *watch)
{
    SumsFailure failure = check_slices(c);
    if (failure != SUMS_DONE) return failure;
    int64_t sum = 0;
    for (Py_ssize_t b = 0; b < c->images; b++) {
        if (c->ref_counts[b] > c->refs - sum) return SUMS_BAD_INPUT;
        sum += c->ref_counts[b];
    }
    if (sum != c->refs) return SUMS_BAD_INPUT;
    c->hyp_first = PyMem_RawMalloc(((size_t)c->images + 1) * sizeof(int64_t));
    c->ref_first = PyMem_RawMalloc(((size_t)c->refs + 1) * sizeof(int64_t));
    if (c->hyp_first == NULL || c->ref_first == NULL) return SUMS_NO_MEMORY;
    int64_t longest_hyp = 0, longest_ref = 0;
    c->hyp_total = first_positions(c->hyp_lengths, c->images, c->hyp_first, &longest_hyp);
    c->ref_total = first_positions(c->ref_lengths, c->refs, c->ref_first, &longest_ref);
    if (c->hyp_total < 0 || c->ref_total < 0) return SUMS_NO_MEMORY;
    const size_t K = (size_t)c->order;
    c->hyp_grams = PyMem_RawMalloc(K * ((size_t)c->hyp_total + 1) * sizeof(int32_t));
    c->ref_grams = PyMem_RawMalloc(K * ((size_t)c->ref_total + 1) * sizeof(int32_t));
    c->list = PyMem_RawMalloc(((size_t)longest_hyp + (size_t)longest_ref + 2) * sizeof(int32_t));
    c->hyp_value = PyMem_RawMalloc(((size_t)longest_hyp + 1) * sizeof(double));
    if (c->hyp_grams == NULL || c->ref_grams == NULL || c->list == NULL || c->hyp_value == NULL)
        return SUMS_NO_MEMORY;
    size_t capacity = 1024;
    while (capacity < (size_t)(c->hyp_total + c->ref_total) / 2 && capacity < ((size_t)1 << 40))
        capacity *= 2;
    if (table_init(&c->ids.unigrams, 1024) < 0 || table_init(&c->ids.longer, capacity) < 0)
        return SUMS_NO_MEMORY;
    for (int k = 1; k <= c->order; k++) {
        if ((failure = number_side(c, 0, k, watch)) != SUMS_DONE) return failure;
        if ((failure = number_side(c, 1, k, watch)) != SUMS_DONE) return failure;
    }
    if (c->images == 0) return SUMS_DONE;
    c->single[0] = 1.0 * (c->log_documents - c->log_table[0]);
    c->single[1] = 1.0 * (c->log_documents - c->log_table[1]);
    const size_t distinct = (size_t)c->ids.distinct + 1;
    c->weight = PyMem_RawMalloc(distinct * sizeof(double));
    c->stamp = PyMem_RawCalloc(distinct, sizeof(int32_t));
    c->tf = PyMem_RawMalloc(distinct * sizeof(int32_t));
    if (c->weight == NULL || c->stamp == NULL || c->tf == NULL) return SUMS_NO_MEMORY;
    for (int32_t id = 0; id < c->ids.distinct; id++) {
        const int32_t df = c->ids.df[id];
        if (df >= c->log_size) return SUMS_BAD_INPUT;
        c->weight[id] = c->log_documents - c->log_table[df];
    }
    return image_sums(c, watch);
}

const char bs_cider_sums_doc[] =
"cider_sums(hyp_ids, hyp_starts, hyp_lengths, ref_ids, ref_starts, ref_lengths, ref_counts,\n"
"           order, log_table, log_documents, hyp_norm2, ref_norm2, dot, /)\n--\n\n"
"The sums of pycocoevalcap's CIDEr-D with the batch's own document frequencies.\n\n"
"Image b's hypothesis is hyp_ids[hyp_starts[b]:][:hyp_lengths[b]] (C-contiguous int64\n"
"buffers, shape (B,)); its ref_counts[b] >= 1 references follow one another in ref_starts\n"
"and ref_lengths (shape (R,), R their sum), slices of ref_ids. log_table[d] (float64, at\n"
"least B + 1 values) is log(max(1, d)), log_documents log(B). Written: hyp_norm2 (B x\n"
"order float64) and ref_norm2 (R x order), each sentence's squared tf-idf norm per order;\n"
"dot (R x order), each reference's clipped dot product with its hypothesis. The GIL is\n"
"released while the sums are made.";

PyObject *
bs_cider_sums(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 13) {
        PyErr_Format(PyExc_TypeError, "cider_sums takes 13 arguments, not %zd", nargs);
        return NULL;
    }
    Py_ssize_t order;
    if (bs_index_argument(args[7], "order", &order) < 0) return NULL;
    if (order < 1 || order > MAX_ORDER) {
        PyErr_Format(PyExc_ValueError, "order must be 1 to %d; got %zd", MAX_ORDER, order);
        return NULL;
    }
    const double log_documents = PyFloat_AsDouble(args[9]);
    if (log_documents == -1.0 && PyErr_Occurred()) return NULL;
    Py_buffer views[11];
    int held = 0;
    PyObject *result = NULL;
    static const char *names[7] = {"hyp_ids", "hyp_starts", "hyp_lengths", "ref_ids",
                                   "ref_starts", "ref_lengths", "ref_counts"};
    const Py_ssize_t any[1] = {-1};
    Py_ssize_t images = 0, refs = 0;
    for (int k = 0; k < 7; k++) {
        Py_ssize_t shape[1] = {k == 2 || k == 6 ? images : k == 5 ? refs : -1};
        if (bs_int64_buffer(args[k], &views[held], names[k], 1, k == 0 || k == 3 ? any : shape,
                            0) < 0)
            goto done;
        if (k == 1) images = views[held].shape[0];
        if (k == 4) refs = views[held].shape[0];
        held++;
    }
    static const char *outputs[4] = {"log_table", "hyp_norm2", "ref_norm2", "dot"};
    const Py_ssize_t sizes[4] = {-1, images * order, refs * order, refs * order};
    for (int k = 0; k < 4; k++) {
        if (bs_float64_buffer(args[k == 0 ? 8 : 9 + k], &views[held], outputs[k], k > 0) < 0)
            goto done;
        held++;
        if (k > 0 && views[held - 1].len != sizes[k] * (Py_ssize_t)sizeof(double)) {
            PyErr_Format(PyExc_ValueError, "%s must hold %zd values; it holds %zd", outputs[k],
                         sizes[k], views[held - 1].len / (Py_ssize_t)sizeof(double));
            goto done;
        }
    }
    if (views[7].len / (Py_ssize_t)sizeof(double) < images + 1) {
        PyErr_Format(PyExc_ValueError, "log_table must hold at least %zd values", images + 1);
        goto done;
    }
    Call c;
    memset(&c, 0, sizeof(c));
    c.hyp_ids = views[0].buf, c.hyp_starts = views[1].buf, c.hyp_lengths = views[2].buf;
    c.ref_ids = views[3].buf, c.ref_starts = views[4].buf, c.ref_lengths = views[5].buf;
    c.ref_counts = views[6].buf;
    c.hyp_size = views[0].len / 8, c.ref_size = views[3].len / 8;
    c.images = images, c.refs = refs, c.order = (int)order;
    c.log_table = views[7].buf, c.log_size = views[7].len / (Py_ssize_t)sizeof(double);
    c.log_documents = log_documents;
    c.hyp_norm2 = views[8].buf, c.ref_norm2 = views[9].buf, c.dot = views[10].buf;
    SumsFailure failure;
    bs_Watch watch; /* Ctrl-C and stop_calls() end the call */
    bs_watch_begin(&watch);
    Py_BEGIN_ALLOW_THREADS
    failure = run_call(&c, &watch);
    Py_END_ALLOW_THREADS
    call_free(&c);
    if (bs_watch_end(&watch) < 0) goto done; /* KeyboardInterrupt is set */
    switch (failure) {
    case SUMS_NO_MEMORY:
        PyErr_NoMemory();
        goto done;
    case SUMS_BAD_INPUT:
        PyErr_SetString(PyExc_ValueError, "cider_sums: a slice outside its buffer, ref_counts "
                        "that are not positive or do not sum to the references, or a short "
                        "log_table");
        goto done;
    case SUMS_STOPPED:
        goto done;
    case SUMS_DONE:
        break;
    }
    result = Py_NewRef(Py_None);
done:
    for (int k = 0; k < held; k++) PyBuffer_Release(&views[k]);
    return result;
}
