/* count_matches: BLEU's clipped n-gram matches (and GLEU's per-reference matches) of each
 * row of a batch, exact, with the GIL released.
 *
 * A row is one hypothesis and its R references, each a slice of an int64 id buffer. The row
 * is counted order by order:
 *
 * 1. Alphabet and unigrams. Every token value of the hypothesis gets an id 1..U (a lookup
 *    table over the row's value range where that range is at most a few entries per
 *    token of the call, else an open-addressing table over the values; the range is read
 *    just before the row is counted, while its values are in the cache); a reference
 *    token whose value is not in the hypothesis gets 0: no n-gram through it can match.
 * 2. Order n > 1. Each position still alive holds the id g of its (n-1)-gram; the pair
 *    (g, next token id t) is the n-gram. The first continuation of g met in the
 *    hypothesis is kept beside g (one comparison finds it); further ones go into an
 *    open-addressing table over the full keys g * (L + 2) + t (a collision costs a probe,
 *    never a wrong count), and a 64-bit mask per g (bit t % 64 of each further
 *    continuation) sends to that table only the reference keys that may be there. The
 *    hypothesis positions get dense n-gram ids; a reference position whose n-gram the
 *    hypothesis lacks dies.
 * 3. Counts. Per n-gram, min(hypothesis count, largest count in one reference) is BLEU's
 *    clipped match, and min(hypothesis count, count in reference r) GLEU's for r.
 * 4. Pruning. An (n+1)-gram can match only where the n-grams at p and p + 1 can: a
 *    hypothesis n-gram that no reference holds, or a reference n-gram the hypothesis does
 *    not hold, ends the position's part in the higher orders. Orders stop once nothing is
 *    alive, so the work of a row does not grow with max_order.
 * 5. Prefixes (optional). The clipped count of order n of the first t tokens grows by one
 *    at the n-gram starting at p = t - n exactly when that n-gram's occurrence so far in
 *    the hypothesis (1 for its first, 2 for its second...) is at most its largest count
 *    in one reference; the alive positions are visited in order with a running count per
 *    n-gram, and a running sum along the row gives every prefix.
 *
 * Ids, positions and per-row counts are 32-bit (a row has fewer than 2^31 hypothesis and
 * 2^31 reference tokens): the scratch of a row stays in the cache. The loops that drop
 * positions store every position and advance by the test's result, with no branch on it.
 * Memory: a few arrays of the call's widest row and, for the lookup table, at most four
 * int32 entries per token of the call (or 65536). Every offset and length is checked
 * against its buffer when it is read, so input changed by another thread during the call
 * can give wrong counts but never a read or write outside the buffers.
 */
#include "native.h"

#include <string.h>

typedef struct {
    uint64_t *keys;
    int64_t *values;
    uint32_t *stamps; /* a slot is used where its stamp is the table's */
    uint32_t stamp;
    size_t capacity; /* a power of two */
    size_t mask;
    int shift;
} Table;

static int
table_init(Table *table, int64_t items)
{
    size_t capacity = 16;
    while (capacity < 2 * (size_t)items) capacity *= 2;
    table->keys = PyMem_RawMalloc(capacity * sizeof(uint64_t));
    table->values = PyMem_RawMalloc(capacity * sizeof(int64_t));
    table->stamps = PyMem_RawCalloc(capacity, sizeof(uint32_t));
    table->stamp = 0;
    table->capacity = capacity;
    return table->keys && table->values && table->stamps ? 0 : -1;
}

static void
table_free(Table *table)
{
    PyMem_RawFree(table->keys);
    PyMem_RawFree(table->values);
    PyMem_RawFree(table->stamps);
}

/* empty the table, sized for `items` keys at a load of at most 1/2 */
static inline void
table_reset(Table *table, int64_t items)
{
    size_t slots = 16;
    int bits = 4;
    while (slots < 2 * (size_t)items && slots < table->capacity) {
        slots *= 2;
        bits++;
    }
    table->mask = slots - 1;
    table->shift = 64 - bits;
    if (++table->stamp == 0) { /* the stamps wrapped: forget them all */
        memset(table->stamps, 0, table->capacity * sizeof(uint32_t));
        table->stamp = 1;
    }
}

/* the slot of `key`: where it is, or where it would go */
static inline size_t
table_slot(const Table *table, uint64_t key)
{
    size_t slot = (size_t)((key * BS_GOLDEN) >> table->shift);
    while (table->stamps[slot] == table->stamp && table->keys[slot] != key)
        slot = (slot + 1) & table->mask;
    return slot;
}

static inline int
table_has(const Table *table, size_t slot)
{
    return table->stamps[slot] == table->stamp;
}

static inline void
table_put(Table *table, size_t slot, uint64_t key, int64_t value)
{
    table->stamps[slot] = table->stamp;
    table->keys[slot] = key;
    table->values[slot] = value;
}

/* a token or n-gram id of a row, a position in it, or a count of one n-gram in it */
typedef uint32_t Id;

typedef struct {
    /* the input (the rows: bs_ragged_read's) and the outputs */
    bs_Ragged in;
    Py_ssize_t refs, max_order;
    int64_t *clipped, *per_reference; /* per_reference may be NULL */
    int64_t *prefix; /* (B, prefix_width, max_order) or NULL */
    int64_t prefix_width;
    /* sizes of the call's widest row */
    int64_t max_hyp, max_ref;
    /* the alphabet of a row: a lookup table from value - low where the row's values span
     * at most `limit` entries (grown to the widest span so far, `ident_size`), else (span
     * 0) the value table */
    int32_t *ident;
    uint64_t span, limit, ident_size;
    int64_t low;
    Table values;
    /* per position of a row: the hypothesis at [0, L), reference r after reference r - 1 */
    Id *token, *gram, *hyp_alive, *ref_alive;
    int64_t *end, *ref_begin;
    int64_t *segment; /* reference r's alive positions: ref_alive[segment[r]:segment[r + 1]] */
    uint8_t *live, *useful;
    /* per (n-1)-gram id: its first continuation in the hypothesis, and whether it has more */
    Id *next_token, *next_gram;
    uint64_t *forked; /* bit t % 64 set for each further continuation t */
    Id *hyp_count, *ref_count; /* per n-gram id; ref_count (id, reference) */
    int64_t *clip, *rank; /* per n-gram id, for the prefixes: the clip, the occurrences */
    Table grams;
    bs_Fault failure;
} Counter;

/* widen [*low, *high] to hold values[0:n] (four running minima and maxima: a chain of
 * one compare per value would wait on the previous one) */
static void
widen(const int64_t *values, int64_t n, int64_t *low, int64_t *high)
{
    int64_t lo[4] = {*low, *low, *low, *low}, hi[4] = {*high, *high, *high, *high};
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        for (int k = 0; k < 4; k++) {
            lo[k] = values[i + k] < lo[k] ? values[i + k] : lo[k];
            hi[k] = values[i + k] > hi[k] ? values[i + k] : hi[k];
        }
    }
    for (; i < n; i++) {
        lo[0] = values[i] < lo[0] ? values[i] : lo[0];
        hi[0] = values[i] > hi[0] ? values[i] : hi[0];
    }
    for (int k = 1; k < 4; k++) {
        lo[0] = lo[k] < lo[0] ? lo[k] : lo[0];
        hi[0] = hi[k] > hi[0] ? hi[k] : hi[0];
    }
    *low = lo[0];
    *high = hi[0];
}

/* choose the row's alphabet: the lookup table where its values (the hypothesis `hyp`, and
 * the references at c->ref_begin up to c->end) span at most c->limit entries, grown as
 * needed; -1 where it cannot grow (no memory) */
static int
alphabet(Counter *c, const int64_t *hyp, int64_t length, Py_ssize_t refs)
{
    int64_t low = INT64_MAX, high = INT64_MIN, base = length;
    widen(hyp, length, &low, &high);
    for (Py_ssize_t r = 0; r < refs; r++) {
        widen(c->in.ref_ids + c->ref_begin[r], c->end[r] - base, &low, &high);
        base = c->end[r];
    }
    const uint64_t span = (uint64_t)high - (uint64_t)low + 1; /* 0: every int64 value */
    c->low = low;
    c->span = span != 0 && span <= c->limit ? span : 0;
    if (c->span > c->ident_size) { /* twice as wide at least, so few rows grow it */
        uint64_t size = 2 * c->ident_size > c->span ? 2 * c->ident_size : c->span;
        if (size > c->limit) size = c->limit;
        int32_t *wider = PyMem_RawRealloc(c->ident, (size_t)size * sizeof(int32_t));
        if (wider == NULL) return -1;
        memset(wider + c->ident_size, 0, (size_t)(size - c->ident_size) * sizeof(int32_t));
        c->ident = wider;
        c->ident_size = size;
    }
    return 0;
}

/* the alphabet id of a hypothesis value, numbering it if new (*distinct: ids so far) */
static inline Id
hyp_id(Counter *c, int64_t value, Id *distinct)
{
    Id id;
    if (c->span) {
        uint64_t at = (uint64_t)value - (uint64_t)c->low;
        if (at >= c->span) at = 0; /* only where the input changed during the call */
        id = (Id)c->ident[at];
        if (id == 0) c->ident[at] = (int32_t)(id = ++*distinct);
        else return id;
    }
    else {
        size_t slot = table_slot(&c->values, (uint64_t)value);
        if (table_has(&c->values, slot)) return (Id)c->values.values[slot];
        table_put(&c->values, slot, (uint64_t)value, id = ++*distinct);
    }
    c->hyp_count[id] = 0;
    memset(c->ref_count + (size_t)id * c->refs, 0, (size_t)c->refs * sizeof(Id));
    return id;
}

/* the alphabet id of a reference value: 0 where the hypothesis does not hold it */
static inline Id
ref_id(const Counter *c, int64_t value)
{
    if (c->span) {
        uint64_t at = (uint64_t)value - (uint64_t)c->low;
        return at < c->span ? (Id)c->ident[at] : 0;
    }
    size_t slot = table_slot(&c->values, (uint64_t)value);
    return table_has(&c->values, slot) ? (Id)c->values.values[slot] : 0;
}

/* ------------------------------------------------------------------- the steps of a row */

/* the row's outputs, zeroed: its clipped matches, per reference (or NULL), per prefix (or
 * NULL) */
static void
zero_outputs(const Counter *c, Py_ssize_t row, int64_t **clipped, int64_t **per_ref,
             int64_t **prefix)
{
    const Py_ssize_t refs = c->refs, max_order = c->max_order;
    *clipped = c->clipped + row * max_order;
    *per_ref = c->per_reference ? c->per_reference + row * refs * max_order : NULL;
    *prefix = c->prefix ? c->prefix + row * c->prefix_width * max_order : NULL;
    memset(*clipped, 0, (size_t)max_order * sizeof(int64_t));
    if (*per_ref) memset(*per_ref, 0, (size_t)(refs * max_order) * sizeof(int64_t));
    if (*prefix) memset(*prefix, 0, (size_t)(c->prefix_width * max_order) * sizeof(int64_t));
}

/* the row's slices read again (another thread may have changed them since measure) and
 * checked against the buffers and the scratch: the hypothesis' start and length, and
 * c->end, c->ref_begin of the references (none read where the hypothesis is empty);
 * -1 where they no longer fit */
static int
read_row(Counter *c, Py_ssize_t row, int64_t *start, int64_t *length)
{
    const bs_Ragged *in = &c->in;
    *length = in->hyp_lengths[row];
    *start = in->hyp_starts[row];
    if (!bs_slice_fits(*start, *length, in->hyp_size) || *length > c->max_hyp) return -1;
    if (*length == 0) return 0;
    int64_t width = *length;
    for (Py_ssize_t r = 0; r < c->refs; r++) {
        const int64_t ref_length = in->ref_lengths[row * c->refs + r];
        const int64_t ref_start = in->ref_starts[row * c->refs + r];
        if (!bs_slice_fits(ref_start, ref_length, in->ref_size)
            || ref_length > c->max_ref - (width - *length))
            return -1;
        width += ref_length;
        c->end[r] = width;
        c->ref_begin[r] = ref_start;
    }
    return 0;
}

/* 1. the row's alphabet (token ids of hyp[0:length], 0 for a reference token it lacks),
 * the unigram counts, and the reference positions where a bigram of hypothesis tokens
 * starts (alive for order 2, in ref_alive by reference: segment); the row's distinct
 * tokens into *distinct; the alive reference positions returned */
static int64_t
unigrams(Counter *c, const int64_t *hyp, int64_t length, Id *distinct)
{
    const Py_ssize_t refs = c->refs;
    Id *token = c->token, *gram = c->gram, *hyp_count = c->hyp_count;
    Id *ref_count = c->ref_count, *ref_alive = c->ref_alive;
    uint8_t *live = c->live;
    int64_t *segment = c->segment;
    const int64_t width = refs ? c->end[refs - 1] : length;
    memset(live, 0, (size_t)width + 1);
    memset(ref_count, 0, (size_t)refs * sizeof(Id)); /* id 0's, never read */
    if (!c->span) table_reset(&c->values, length);
    *distinct = 0;
    for (int64_t i = 0; i < length; i++) {
        Id id = hyp_id(c, hyp[i], distinct);
        token[i] = gram[i] = id;
        hyp_count[id]++;
    }
    int64_t num_ref = 0, base = length;
    for (Py_ssize_t r = 0; r < refs; r++) {
        segment[r] = num_ref;
        const int64_t *ref = c->in.ref_ids + c->ref_begin[r];
        const int64_t ref_length = c->end[r] - base;
        Id *counts = ref_count + r, previous = 0;
        for (int64_t j = 0; j < ref_length; j++) {
            const int64_t p = base + j;
            const Id found = ref_id(c, ref[j]);
            token[p] = gram[p] = found;
            counts[(size_t)found * refs]++;
            /* a bigram of hypothesis tokens starts at p - 1 (previous is 0 at j = 0) */
            const uint8_t pair = (previous != 0) & (found != 0);
            ref_alive[num_ref] = (Id)(p - 1);
            num_ref += pair;
            live[p - 1] |= pair;
            previous = found;
        }
        base = c->end[r];
    }
    segment[refs] = num_ref;
    if (c->span) { /* the lookup table empty again for the next row */
        for (int64_t i = 0; i < length; i++) {
            uint64_t at = (uint64_t)hyp[i] - (uint64_t)c->low;
            c->ident[at < c->span ? at : 0] = 0;
        }
    }
    return num_ref;
}

/* 2. (hypothesis) the n-gram id of each of the num_hyp alive hypothesis positions, from
 * its (n-1)-gram id g (of `grams` ids) and next token t: g's first continuation
 * (next_token[g], next_gram[g]), else the table, where forked[g] has t's bit; every id and
 * token id is below `ids`. The n-gram ids of this order: 1 to the returned value - 1 */
static int64_t
hyp_grams(Counter *c, Py_ssize_t order, uint64_t ids, int64_t grams, int64_t num_hyp)
{
    const Py_ssize_t refs = c->refs;
    Id *token = c->token, *gram = c->gram, *hyp_count = c->hyp_count;
    Id *hyp_alive = c->hyp_alive, *next_token = c->next_token, *next_gram = c->next_gram;
    uint64_t *forked = c->forked;
    memset(next_token + 1, 0, (size_t)(grams - 1) * sizeof(Id));
    memset(forked + 1, 0, (size_t)(grams - 1) * sizeof(uint64_t));
    table_reset(&c->grams, num_hyp);
    /* at most num_hyp new n-grams: their counts start at 0 */
    memset(hyp_count + 1, 0, (size_t)num_hyp * sizeof(Id));
    memset(c->ref_count + refs, 0, (size_t)(num_hyp * refs) * sizeof(Id));
    Id new_grams = 1;
    for (int64_t k = 0; k < num_hyp; k++) {
        const int64_t p = hyp_alive[k];
        const Id g = gram[p], t = token[p + order - 1];
        Id made;
        if (next_token[g] == t) made = next_gram[g];
        else if (next_token[g] == 0) {
            next_token[g] = t;
            next_gram[g] = made = new_grams++;
        }
        else {
            forked[g] |= (uint64_t)1 << (t & 63);
            uint64_t key = (uint64_t)g * ids + t;
            size_t slot = table_slot(&c->grams, key);
            if (!table_has(&c->grams, slot)) table_put(&c->grams, slot, key, new_grams++);
            made = (Id)c->grams.values[slot];
        }
        hyp_count[made]++;
        gram[p] = made;
    }
    return new_grams;
}

/* 2. (references) each reference's alive positions: those whose n-gram the hypothesis
 * holds are counted, and of them those that may start a longer match kept (4.): their
 * number returned */
static int64_t
ref_grams(Counter *c, Py_ssize_t order, uint64_t ids)
{
    const Py_ssize_t refs = c->refs;
    const Id *token = c->token, *next_token = c->next_token, *next_gram = c->next_gram;
    Id *gram = c->gram, *ref_alive = c->ref_alive;
    const uint64_t *forked = c->forked;
    uint8_t *live = c->live;
    int64_t *segment = c->segment;
    int64_t kept = 0;
    for (Py_ssize_t r = 0; r < refs; r++) {
        const int64_t from = segment[r], to = segment[r + 1], end = c->end[r];
        Id *counts = c->ref_count + r;
        segment[r] = kept;
        const int64_t first = kept;
        for (int64_t k = from; k < to; k++) {
            /* t >= 1: a kept position's next token is one of the hypothesis */
            const int64_t p = ref_alive[k];
            const Id g = gram[p], t = token[p + order - 1];
            Id made = next_token[g] == t ? next_gram[g] : 0;
            if (made == 0 && ((forked[g] >> (t & 63)) & 1)) {
                size_t slot = table_slot(&c->grams, (uint64_t)g * ids + t);
                if (table_has(&c->grams, slot)) made = (Id)c->grams.values[slot];
            }
            counts[(size_t)made * refs]++;
            gram[p] = made;
            ref_alive[kept] = (Id)p;
            kept += made != 0;
            live[p] = made != 0; /* 0: not an n-gram of the hypothesis */
        }
        const int64_t found = kept;
        kept = first;
        for (int64_t k = first; k < found; k++) {
            const int64_t p = ref_alive[k];
            const uint8_t longer = (p + order < end) & live[p + 1];
            ref_alive[kept] = (Id)p;
            kept += longer;
            live[p] = longer;
        }
    }
    segment[refs] = kept;
    return kept;
}

/* 3. the clipped matches of this order's n-grams (ids 1 to grams - 1), per reference too
 * where per_ref is not NULL; whether each n-gram is in a reference into `useful`, and
 * (prefix) its clip */
static void
clip_counts(Counter *c, Py_ssize_t order, int64_t grams, int64_t *clipped, int64_t *per_ref,
            int prefix)
{
    const Py_ssize_t refs = c->refs, max_order = c->max_order;
    int64_t total = 0;
    for (int64_t made = 1; made < grams; made++) {
        int64_t best = 0, count = c->hyp_count[made];
        const Id *seen = c->ref_count + made * refs;
        for (Py_ssize_t r = 0; r < refs; r++) {
            const int64_t here = seen[r];
            if (here > best) best = here;
            if (per_ref) per_ref[r * max_order + order - 1] += count < here ? count : here;
        }
        total += count < best ? count : best;
        c->useful[made] = best > 0;
        if (prefix) {
            c->clip[made] = best;
            c->rank[made] = 0;
        }
    }
    clipped[order - 1] = total;
}

/* 5. where each prefix gains a match of this order (the alive positions in order; at
 * order 1 every position) */
static void
prefix_gains(Counter *c, Py_ssize_t order, int64_t length, int64_t num_hyp, int64_t *prefix)
{
    const Py_ssize_t max_order = c->max_order;
    const Id *gram = c->gram, *hyp_alive = c->hyp_alive;
    int64_t *column = prefix + order - 1, *rank = c->rank;
    const int64_t *clip = c->clip;
    if (order == 1) {
        for (int64_t i = 0; i < length; i++)
            if (++rank[gram[i]] <= clip[gram[i]]) column[i * max_order]++;
        return;
    }
    for (int64_t k = 0; k < num_hyp; k++) {
        const int64_t p = hyp_alive[k];
        if (++rank[gram[p]] <= clip[gram[p]]) column[(p + order - 1) * max_order]++;
    }
}

/* 5. the running sums: entry t - 1 holds the first t tokens' matches */
static void
prefix_sums(const Counter *c, int64_t *prefix)
{
    const Py_ssize_t max_order = c->max_order;
    for (int64_t t = 1; t < c->prefix_width; t++)
        for (Py_ssize_t n = 0; n < max_order; n++)
            prefix[t * max_order + n] += prefix[(t - 1) * max_order + n];
}

/* 4. the hypothesis positions that may start a longer match (of the num_hyp alive ones;
 * at order 1 of all): their number */
static int64_t
hyp_pruned(Counter *c, Py_ssize_t order, int64_t length, int64_t num_hyp)
{
    const Id *gram = c->gram;
    Id *hyp_alive = c->hyp_alive;
    const uint8_t *useful = c->useful;
    uint8_t *live = c->live;
    if (order == 1) {
        for (int64_t i = 0; i < length; i++) live[i] = useful[gram[i]];
        num_hyp = 0;
        for (int64_t i = 0; i + 1 < length; i++) {
            const uint8_t longer = live[i] & live[i + 1];
            hyp_alive[num_hyp] = (Id)i;
            num_hyp += longer;
            live[i] = longer;
        }
        live[length - 1] = 0;
        return num_hyp;
    }
    for (int64_t k = 0; k < num_hyp; k++) live[hyp_alive[k]] = useful[gram[hyp_alive[k]]];
    const int64_t alive = num_hyp;
    num_hyp = 0;
    for (int64_t k = 0; k < alive; k++) {
        const int64_t p = hyp_alive[k];
        const uint8_t longer = live[p] & (p + order < length) & live[p + 1];
        hyp_alive[num_hyp] = (Id)p;
        num_hyp += longer;
        live[p] = longer;
    }
    return num_hyp;
}

/* count one row (the steps of the file's opening comment); -1 where its offsets no longer
 * fit the buffers or the scratch, -2 where the lookup table cannot grow (no memory).
 * Positions and ids are 32-bit (a row holds fewer than 2^31 hypothesis and 2^31 reference
 * tokens); the loops that drop positions write every position and advance by the test's
 * result instead of branching on it. Id 0 is no n-gram: its counts are never read. */
static int
count_row(Counter *c, Py_ssize_t row)
{
    const Py_ssize_t max_order = c->max_order;
    int64_t *clipped, *per_ref, *prefix, start, length;
    zero_outputs(c, row, &clipped, &per_ref, &prefix);
    if (read_row(c, row, &start, &length) < 0) return -1;
    if (length == 0) return 0;
    const int64_t *hyp = c->in.hyp_ids + start;
    if (alphabet(c, hyp, length, c->refs) < 0) return -2;
    Id distinct;
    int64_t num_ref = unigrams(c, hyp, length, &distinct), num_hyp = 0;
    const uint64_t ids = (uint64_t)length + 2; /* every n-gram id and token id is below */
    int64_t grams = (int64_t)distinct + 1;
    for (Py_ssize_t order = 1; order <= max_order; order++) {
        if (order > 1) {
            if (num_hyp == 0 || num_ref == 0) break; /* nothing of this order can match */
            grams = hyp_grams(c, order, ids, grams, num_hyp);
            num_ref = ref_grams(c, order, ids);
        }
        clip_counts(c, order, grams, clipped, per_ref, prefix != NULL);
        if (prefix) prefix_gains(c, order, length, num_hyp, prefix);
        if (order == max_order) break;
        num_hyp = hyp_pruned(c, order, length, num_hyp);
    }
    if (prefix) prefix_sums(c, prefix);
    return 0;
}

/* ------------------------------------------------------------------------ the scratch */

/* the scratch of a call; -1 with c->failure set (runs without the GIL) */
static int
allocate(Counter *c, int64_t tokens)
{
    Py_ssize_t width = (Py_ssize_t)(c->max_hyp + c->max_ref);
    Py_ssize_t ids = (Py_ssize_t)c->max_hyp + 2;
    Py_ssize_t per_ref = bs_size_product(ids, c->refs);
    if (per_ref < 0 || bs_size_product(width, (Py_ssize_t)sizeof(int64_t)) < 0
        || bs_size_product(per_ref, (Py_ssize_t)sizeof(int64_t)) < 0) {
        c->failure.kind = BS_TOO_LARGE;
        return -1;
    }
    /* a lookup table where the values span at most a few entries per token */
    uint64_t limit = (uint64_t)(tokens < (1 << 14) ? (1 << 16) : 4 * tokens);
    if (limit > ((uint64_t)1 << 24)) limit = (uint64_t)1 << 24; /* 64 MiB at most */
    c->limit = limit;
    if (table_init(&c->values, c->max_hyp) < 0) goto fail;
    c->token = PyMem_RawMalloc((size_t)(width + 1) * sizeof(Id));
    c->gram = PyMem_RawMalloc((size_t)(width + 1) * sizeof(Id));
    c->segment = PyMem_RawMalloc((size_t)(c->refs + 1) * sizeof(int64_t));
    c->next_token = PyMem_RawMalloc((size_t)ids * sizeof(Id));
    c->next_gram = PyMem_RawMalloc((size_t)ids * sizeof(Id));
    c->forked = PyMem_RawMalloc((size_t)ids * sizeof(uint64_t));
    c->live = PyMem_RawMalloc((size_t)width + 1);
    c->hyp_alive = PyMem_RawMalloc((size_t)(c->max_hyp + 1) * sizeof(Id));
    c->ref_alive = PyMem_RawMalloc((size_t)(c->max_ref + 1) * sizeof(Id));
    c->end = PyMem_RawMalloc((size_t)(c->refs + 1) * sizeof(int64_t));
    c->ref_begin = PyMem_RawMalloc((size_t)(c->refs + 1) * sizeof(int64_t));
    c->hyp_count = PyMem_RawMalloc((size_t)ids * sizeof(Id));
    c->ref_count = PyMem_RawMalloc((size_t)(per_ref + 1) * sizeof(Id));
    c->useful = PyMem_RawMalloc((size_t)ids);
    if (c->prefix) {
        c->clip = PyMem_RawMalloc((size_t)ids * sizeof(int64_t));
        c->rank = PyMem_RawMalloc((size_t)ids * sizeof(int64_t));
        if (!c->clip || !c->rank) goto fail;
    }
    if (!c->token || !c->gram || !c->segment || !c->live
        || !c->hyp_alive || !c->ref_alive || !c->end || !c->ref_begin || !c->hyp_count || !c->ref_count
        || !c->useful || !c->next_token || !c->next_gram || !c->forked || table_init(&c->grams, c->max_hyp) < 0)
        goto fail;
    return 0;
fail:
    c->failure.kind = BS_NO_MEMORY;
    return -1;
}

static void
release(Counter *c)
{
    void *const held[] = {c->ident, c->token, c->gram, c->segment, c->next_token, c->next_gram,
                          c->forked, c->live, c->hyp_alive, c->ref_alive, c->end, c->ref_begin,
                          c->hyp_count, c->ref_count, c->useful, c->clip, c->rank};
    bs_free_all(held, sizeof held / sizeof held[0]);
    table_free(&c->values);
    table_free(&c->grams);
}


const char bs_count_matches_doc[] =
"count_matches(hyp_ids, hyp_starts, hyp_lengths, ref_ids, ref_starts, ref_lengths,\n"
"              clipped, per_reference, begin, end, prefix=None, /)\n--\n\n"
"Clipped n-gram matches of rows begin..end-1, written into clipped and per_reference.\n\n"
"Every argument but the last three is a C-contiguous int64 buffer. Row b's hypothesis is\n"
"hyp_ids[hyp_starts[b] : hyp_starts[b] + hyp_lengths[b]], with hyp_starts and hyp_lengths\n"
"of shape (B,); its reference r is the same slice of ref_ids by ref_starts[b, r] and\n"
"ref_lengths[b, r], of shape (B, R). clipped, of shape (B, N), receives for orders\n"
"n = 1..N the sum over the hypothesis n-grams of min(count in the hypothesis, largest\n"
"count in one reference) (BLEU's clipped matches); per_reference, (B, R, N) or None, the\n"
"same with each reference's own count (GLEU's). The GIL is released while rows are\n"
"counted, so threads can count other rows of the same call at once. prefix, (B, W, N) or\n"
"None, W at least the longest hypothesis, receives the clipped matches of every prefix:\n"
"prefix[b, t - 1, n - 1] those of order n of the first t tokens of row b's hypothesis\n"
"(past its end, those of the whole hypothesis).";

/* the widest row of rows begin..end-1 and their tokens, every slice checked against its
 * buffer (the values of a row are read once it is counted, while they are in the cache),
 * the prefix's width against the longest hypothesis: -1 with c->failure set (runs without
 * the GIL) */
static int
measure(Counter *c, Py_ssize_t begin, Py_ssize_t end, int64_t *tokens)
{
    if (bs_ragged_measure(&c->in, begin, end, 1, &c->max_hyp, &c->max_ref, tokens,
                          &c->failure) != BS_DONE)
        return -1;
    if (c->prefix && c->max_hyp > c->prefix_width) {
        bs_fail(&c->failure, BS_PREFIX_NARROW, 0, 0, c->prefix_width, c->max_hyp);
        return -1;
    }
    return 0;
}

/* measure and allocate (the rows' preparation in bs_rows_released): `fault` is
 * &c->failure, which they set */
static bs_Failure
prepare_rows(void *state, Py_ssize_t begin, Py_ssize_t end, bs_Watch *watch, bs_Fault *fault)
{
    (void)watch;
    Counter *c = state;
    int64_t tokens;
    if (measure(c, begin, end, &tokens) < 0 || allocate(c, tokens) < 0) return fault->kind;
    return BS_DONE;
}

/* count_row as bs_rows_released calls it */
static bs_Failure
counted_row(void *state, Py_ssize_t row, bs_Watch *watch, bs_Fault *fault)
{
    (void)watch;
    switch (count_row(state, row)) {
    case -1:
        return bs_fail(fault, BS_CHANGED, row, 0, 0, 0);
    case -2: /* no memory for a wider lookup table */
        return fault->kind = BS_NO_MEMORY;
    default:
        return BS_DONE;
    }
}

PyObject *
bs_count_matches(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (bs_arg_count("count_matches", nargs, 10, 11) < 0) return NULL;
    Py_buffer views[9];
    int held = 0;
    PyObject *result = NULL;
    Counter c;
    memset(&c, 0, sizeof(c));
    if (bs_ragged_read(args, bs_ragged_names, 1, BS_MAX_ROW_TOKENS, "row", "counted", &c.in,
                       views, &held) < 0)
        goto done;
    const Py_ssize_t rows = c.in.rows, refs = c.in.refs;
    Py_ssize_t two_dim[2] = {rows, -1}, three_dim[3] = {rows, refs, -1};
    if (bs_int64_buffer(args[6], &views[held], "clipped", 2, two_dim, 1) < 0) goto done;
    const Py_ssize_t max_order = views[held].shape[1];
    c.clipped = views[held++].buf;
    three_dim[2] = max_order;
    if (args[7] != Py_None) {
        if (bs_int64_buffer(args[7], &views[held], "per_reference", 3, three_dim, 1) < 0)
            goto done;
        c.per_reference = views[held++].buf;
    }
    if (nargs == 11 && args[10] != Py_None) {
        three_dim[1] = -1;
        if (bs_int64_buffer(args[10], &views[held], "prefix", 3, three_dim, 1) < 0)
            goto done;
        c.prefix = views[held].buf;
        c.prefix_width = views[held++].shape[1];
    }
    if (max_order < 1) {
        PyErr_SetString(PyExc_ValueError, "clipped: needs at least one column (one order)");
        goto done;
    }
    Py_ssize_t begin, end;
    if (bs_rows_range(args[8], args[9], rows, "row", &begin, &end) < 0) goto done;
    c.refs = refs;
    c.max_order = max_order;
    if (bs_checked_mul(bs_checked_mul(rows, refs + 1), max_order) < 0) goto done;
    /* the measuring and the scratch without the GIL too: threads overlap them */
    result = bs_rows_released(prepare_rows, counted_row, &c, begin, end, &c.failure, &c.in);
done:
    release(&c);
    bs_release_views(views, held);
    return result;
}
