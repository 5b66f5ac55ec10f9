/* Arc consistency on packed domains: the loop of Network._propagate_python, in C.
 *
 * The queue is first in, first out and the crossings of a slot are revised in the network's
 * order, so the fixpoint and the first failure met are those of the Python loop. */
#include "core.h"

#include <stdlib.h>
#include <string.h>

int scratch_init(Scratch *scratch, const Structure *st) {
    size_t n = (size_t)(st->n > 0 ? st->n : 1);
    size_t glyphs = (size_t)(st->glyph_count > 0 ? st->glyph_count : 1);
    scratch->queue = malloc(sizeof(int64_t) * n);
    scratch->queued = calloc(n, 1);
    scratch->starts = malloc(sizeof(int64_t) * glyphs);
    scratch->ids = malloc(sizeof(int64_t) * KERNEL_WORDS_LIMIT);
    int64_t widest = 1;
    for (int64_t s = 0; s < st->n; s++)
        if (st->widths[s] > widest) widest = st->widths[s];
    scratch->union_words = malloc((size_t)widest * sizeof(uint64_t));
    scratch->residues = calloc(n * (size_t)(st->longest > 0 ? st->longest : 1) * glyphs, sizeof(int32_t));
    return scratch->queue && scratch->queued && scratch->starts && scratch->ids && scratch->residues &&
                   scratch->union_words
               ? 0
               : -1;
}

void scratch_free(Scratch *scratch) {
    free(scratch->queue);
    free(scratch->queued);
    free(scratch->starts);
    free(scratch->ids);
    free(scratch->residues);
    free(scratch->union_words);
    memset(scratch, 0, sizeof(*scratch));
}

void domains_measure(const Structure *st, Domains *d) {
    for (int64_t s = 0; s < st->n; s++) {
        int64_t base = st->offsets[s], width = st->widths[s], count = 0, lo = width, hi = -1;
        for (int64_t x = 0; x < width; x++) {
            uint64_t word = d->domains[base + x];
            if (word) {
                count += popcount64(word);
                if (lo == width) lo = x;
                hi = x;
            }
        }
        d->count[s] = count;
        d->lo[s] = lo;
        d->hi[s] = hi;
    }
}

int trail_init(Trail *trail, const Structure *st) {
    memset(trail, 0, sizeof(*trail));
    trail->row_stamp = calloc((size_t)(st->n > 0 ? st->n : 1), sizeof(uint64_t));
    trail->stamp = 1;
    return trail->row_stamp ? 0 : -1;
}

void trail_free(Trail *trail) {
    free(trail->rows);
    free(trail->starts);
    free(trail->row_stamp);
    memset(trail, 0, sizeof(*trail));
}

void trail_new_stamp(Trail *trail) { trail->stamp++; }

void trail_save_row(Trail *trail, const Structure *st, const Domains *d, int64_t s) {
    if (trail == NULL || trail->row_stamp[s] == trail->stamp) return;
    size_t width = (size_t)st->widths[s];
    size_t need = trail->rows_len + 2 + width;
    if (need > trail->rows_cap) {
        size_t cap = trail->rows_cap ? trail->rows_cap : 4096;
        while (cap < need) cap *= 2;
        uint64_t *rows = realloc(trail->rows, cap * sizeof(uint64_t));
        if (!rows) {
            trail->failed = 1;
            return;
        }
        trail->rows = rows;
        trail->rows_cap = cap;
    }
    if (trail->records == trail->records_cap) {
        size_t cap = trail->records_cap ? trail->records_cap * 2 : 1024;
        size_t *starts = realloc(trail->starts, cap * sizeof(size_t));
        if (!starts) {
            trail->failed = 1;
            return;
        }
        trail->starts = starts;
        trail->records_cap = cap;
    }
    trail->starts[trail->records++] = trail->rows_len;
    uint64_t *record = trail->rows + trail->rows_len;
    record[0] = (uint64_t)s;
    record[1] = trail->row_stamp[s];
    memcpy(record + 2, d->domains + st->offsets[s], width * sizeof(uint64_t));
    trail->rows_len = need;
    trail->row_stamp[s] = trail->stamp;
}

void trail_undo(Trail *trail, const Structure *st, Domains *d, size_t records) {
    while (trail->records > records) {
        size_t start = trail->starts[--trail->records];
        uint64_t *record = trail->rows + start;
        int64_t s = (int64_t)record[0];
        memcpy(d->domains + st->offsets[s], record + 2, (size_t)st->widths[s] * sizeof(uint64_t));
        trail->row_stamp[s] = record[1];
        trail->rows_len = start;
    }
    trail->stamp++;
}

int64_t domain_ids(const Structure *st, const Domains *d, int64_t s, int64_t *ids, int64_t limit) {
    int64_t base = st->offsets[s], found = 0;
    for (int64_t x = d->lo[s]; x <= d->hi[s] && found < limit; x++) {
        uint64_t word = d->domains[base + x];
        while (word && found < limit) {
            uint64_t low = word & (~word + 1);
            ids[found++] = x * 64 + popcount64(low - 1);
            word ^= low;
        }
    }
    return found;
}

/* Appends slot s to the circular queue unless it is queued already. */
static inline void enqueue(Scratch *scratch, int64_t n, int64_t head, int64_t *size, int64_t s) {
    if (!scratch->queued[s]) {
        scratch->queued[s] = 1;
        scratch->queue[(head + *size) % n] = s;
        (*size)++;
    }
}

/* Narrows the bounds of slot s's row to its first and last non-zero words. */
static inline void tighten(const Structure *st, Domains *d, int64_t s) {
    const uint64_t *row = d->domains + st->offsets[s];
    int64_t lo = d->lo[s], hi = d->hi[s];
    while (lo <= hi && !row[lo]) lo++;
    while (hi >= lo && !row[hi]) hi--;
    d->lo[s] = lo;
    d->hi[s] = hi;
}

/* Removes the repeated entry of settled slot s (its one word in row word `at`) from every other
 * slot of its length. 0, or 1 on a failure. */
static int remove_repeats(const Structure *st, Domains *d, Trail *trail, Scratch *scratch, int64_t s, int64_t at,
                          int64_t head, int64_t *size, int64_t *failed, int64_t *cause) {
    uint64_t word = d->domains[st->offsets[s] + at];
    for (int64_t k = st->same_start[s]; k < st->same_start[s + 1]; k++) {
        int64_t u = st->same_slots[k];
        uint64_t *cell = d->domains + st->offsets[u] + at;
        if (*cell & word) {
            trail_save_row(trail, st, d, u);
            *cell &= ~word;
            d->count[u] -= 1;
            d->touched[u] = 1;
            if (d->count[u] == 0) {
                *failed = u;
                *cause = s;
                return 1;
            }
            enqueue(scratch, st->n, head, size, u);
        }
    }
    return 0;
}

/* The first row word in [from, to) that has a word in common with the column, or -1. */
static inline int64_t first_common(const uint64_t *row, const uint64_t *column, int64_t from, int64_t to) {
    for (int64_t x = from; x < to; x++)
        if (row[x] & column[x]) return x;
    return -1;
}

/* The glyphs of `old` some word of slot s (count words, ids in scratch when small) has at
 * position i. */
static uint64_t supported(const Structure *st, const Domains *d, Scratch *scratch, int64_t s, int64_t i,
                          uint64_t old, int small) {
    uint64_t kept = 0;
    int64_t kind = st->kinds[s], length = st->lengths[s], count = d->count[s];
    if (small) {
        for (int64_t k = 0; k < count; k++) {
            kept |= (uint64_t)1 << (uint64_t)word_code(st, kind, length, scratch->ids[k], i);
            if ((kept & old) == old) break;
        }
        return kept & old;
    }
    const uint64_t *row = d->domains + st->offsets[s];
    int32_t *residues = scratch->residues + (s * st->longest + i) * st->glyph_count;
    int64_t lo = d->lo[s], hi = d->hi[s];
    uint64_t rest = old;
    while (rest) {
        uint64_t glyph = rest & (~rest + 1);
        rest ^= glyph;
        int64_t g = popcount64(glyph - 1);
        int64_t start = column_start(st, kind, i, g);
        if (start < 0) continue;
        const uint64_t *column = st->columns + start;
        int64_t at = residues[g];
        if (at < lo || at > hi) at = lo;
        /* from the residue on, then from the start: words are lost anywhere, and a support
         * found past the old one is usually near it */
        int64_t found = first_common(row, column, at, hi + 1);
        if (found < 0) found = first_common(row, column, lo, at);
        if (found >= 0) {
            kept |= glyph;
            residues[g] = (int32_t)found;
        }
    }
    return kept;
}

/* Keeps in slot t only the words whose glyph at position j is in `kept` (`removed` is the rest of
 * the cell's old mask). Returns whether the row changed. */
static int narrow(const Structure *st, Domains *d, Trail *trail, Scratch *scratch, int64_t t, int64_t j,
                  uint64_t kept, uint64_t removed) {
    int keep_side = popcount64(kept) < popcount64(removed);
    uint64_t use = keep_side ? kept : removed;
    int64_t used = 0, kind = st->kinds[t];
    for (int64_t g = 0; g < st->glyph_count; g++) {
        if (use & ((uint64_t)1 << (uint64_t)g)) {
            int64_t start = column_start(st, kind, j, g);
            if (start >= 0) scratch->starts[used++] = start;
        }
    }
    uint64_t *row = d->domains + st->offsets[t];
    int64_t lo = d->lo[t], hi = d->hi[t];
    if (lo > hi) return 0; /* empty already: found when the slot is taken from the queue */
    if (used == 0 && !keep_side) return 0; /* no word has a removed glyph there */
    int64_t lost = 0;
    if (d->count[t] < hi - lo + 1) {
        /* a sparse row (fewer words than row words): the columns are read only where it has words */
        for (int64_t x = lo; x <= hi; x++) {
            uint64_t current = row[x];
            if (!current) continue;
            uint64_t words = 0;
            for (int64_t k = 0; k < used; k++) words |= st->columns[scratch->starts[k] + x];
            uint64_t after = keep_side ? (current & words) : (current & ~words);
            if (after != current) {
                if (!lost) trail_save_row(trail, st, d, t);
                row[x] = after;
                lost += popcount64(current ^ after);
            }
        }
    } else {
        /* a dense one: the words to drop as one mask (one column read in place, or the union of
         * several built column by column), counted in one pass and removed in another; loops
         * without branches, which the compiler vectorises */
        const uint64_t *mask = NULL;
        uint64_t *uni = scratch->union_words;
        if (used == 1) {
            mask = st->columns + scratch->starts[0];
        } else if (used > 1) {
            const uint64_t *first = st->columns + scratch->starts[0];
            for (int64_t x = lo; x <= hi; x++) uni[x] = first[x];
            for (int64_t k = 1; k < used; k++) {
                const uint64_t *column = st->columns + scratch->starts[k];
                for (int64_t x = lo; x <= hi; x++) uni[x] |= column[x];
            }
            mask = uni;
        }
        if (mask == NULL) { /* keep side with no column: every word goes */
            for (int64_t x = lo; x <= hi; x++) lost += popcount64(row[x]);
            if (lost) {
                trail_save_row(trail, st, d, t);
                memset(row + lo, 0, (size_t)(hi - lo + 1) * sizeof(uint64_t));
            }
        } else if (keep_side) {
            for (int64_t x = lo; x <= hi; x++) lost += popcount64(row[x] & ~mask[x]);
            if (lost) {
                trail_save_row(trail, st, d, t);
                for (int64_t x = lo; x <= hi; x++) row[x] &= mask[x];
            }
        } else {
            for (int64_t x = lo; x <= hi; x++) lost += popcount64(row[x] & mask[x]);
            if (lost) {
                trail_save_row(trail, st, d, t);
                for (int64_t x = lo; x <= hi; x++) row[x] &= ~mask[x];
            }
        }
    }
    if (lost) {
        d->count[t] -= lost;
        d->touched[t] = 1;
    }
    return lost != 0;
}

int fixpoint(const Structure *st, Domains *d, Trail *trail, Scratch *scratch, const int64_t *changed,
             int64_t n_changed, int64_t *failed, int64_t *cause) {
    int64_t n = st->n, head = 0, size = 0;
    for (int64_t k = 0; k < n_changed; k++) enqueue(scratch, n, head, &size, changed[k]);
    int status = 0;
    while (size > 0) {
        int64_t s = scratch->queue[head];
        head = (head + 1) % n;
        size--;
        scratch->queued[s] = 0;
        tighten(st, d, s);
        int64_t count = d->count[s];
        if (count == 0) {
            *failed = s;
            *cause = NO_CAUSE;
            status = 1;
            break;
        }
        if (st->check_repeats && !d->settled[s] && count == 1) {
            d->settled[s] = 1;
            if (remove_repeats(st, d, trail, scratch, s, d->lo[s], head, &size, failed, cause)) {
                status = 1;
                break;
            }
        }
        /* few words over a wide span: reading each word's glyph is cheaper than scanning the
         * span once per glyph the crossing lost */
        int small = count <= KERNEL_SMALL_DOMAIN ||
                    (count <= KERNEL_WORDS_LIMIT && count <= KERNEL_WORDS_PER_BLOCK * (d->hi[s] - d->lo[s] + 1));
        if (small) domain_ids(st, d, s, scratch->ids, count);
        for (int64_t e = st->nb_start[s]; e < st->nb_start[s + 1]; e++) {
            int64_t t = st->nb_other[e], c = st->nb_cell[e];
            uint64_t old = d->masks[c];
            uint64_t kept = supported(st, d, scratch, s, st->nb_pos[e], old, small);
            if (kept == old) continue;
            if (kept == 0) {
                *failed = s;
                *cause = t;
                status = 1;
                break;
            }
            d->masks[c] = kept;
            if (narrow(st, d, trail, scratch, t, st->nb_other_pos[e], kept, old & ~kept)) {
                if (d->count[t] == 0) {
                    *failed = t;
                    *cause = s;
                    status = 1;
                    break;
                }
                enqueue(scratch, n, head, &size, t);
            }
        }
        if (status) break;
    }
    /* leave the scratch queue empty for the next call */
    while (size > 0) {
        scratch->queued[scratch->queue[head]] = 0;
        head = (head + 1) % n;
        size--;
    }
    if (trail != NULL && trail->failed) return -1;
    return status;
}
