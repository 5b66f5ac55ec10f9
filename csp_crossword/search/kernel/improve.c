/* The branch and bound of one improvement neighbourhood (the reference is
 * strategies/improvement.py, _BranchAndBound): the touched slots' highest total score above the
 * one to beat, best words first, the slot with the fewest words next. */
#include <math.h>
#include <string.h>
#include <time.h>

#include "search.h"

static inline int64_t first_word(const Search *search, int64_t s) {
    int64_t w = -1;
    domain_ids(&search->st, &search->d, s, &w, 1);
    return w;
}

static inline int64_t score_of(const Search *search, int64_t s, int64_t w) {
    return search->scores[search->score_offsets[search->st.kinds[s]] + w];
}

/* The next word of slot s after word `after` (-1: the first), or -1. */
static int64_t next_id(const Search *search, int64_t s, int64_t after) {
    const uint64_t *row = search->d.domains + search->st.offsets[s];
    int64_t w = after + 1, x = w / 64;
    if (x > search->d.hi[s]) return -1;
    uint64_t word = row[x] & (~(uint64_t)0 << (w % 64));
    for (;;) {
        if (word) return x * 64 + popcount64((word & (~word + 1)) - 1);
        if (++x > search->d.hi[s]) return -1;
        word = row[x];
    }
}

static int spent(const Improve *b, int64_t nodes) {
    if (b->node_budget >= 0 && nodes >= b->node_budget) return 1;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9 >= b->deadline;
}

/* One level of the depth-first search; -1 when out of memory. */
static int descend(Search *search, Improve *b, int64_t depth) {
    int64_t total = 0, best_slot = -1, best_count = 0;
    for (int64_t k = 0; k < b->n_touched; k++) {
        int64_t t = b->touched[k];
        total += score_of(search, t, first_word(search, t));
        int64_t count = search->d.count[t];
        if (count > 1 && (best_slot < 0 || count < best_count)) {
            best_slot = t;
            best_count = count;
        }
    }
    if (total <= b->best_total) return 0;
    if (best_slot < 0) {
        b->best_total = total;
        for (int64_t k = 0; k < b->n_touched; k++) b->best[k] = first_word(search, b->touched[k]);
        b->found = 1;
        return 0;
    }
    int64_t t = best_slot;
    int64_t others = total - score_of(search, t, first_word(search, t));
    int64_t w = -1;
    search_mark(search, depth); /* the level's state, restored after each child */
    for (;;) {
        w = next_id(search, t, w);
        if (w < 0) return 0;
        if (others + score_of(search, t, w) <= b->best_total) return 0; /* best first: none later can do better */
        b->nodes++;
        if (b->nodes > b->node_cap || spent(b, b->spent + b->nodes)) return 0;
        const Structure *st = &search->st;
        Domains *d = &search->d;
        trail_save_row(&search->trail, st, d, t);
        uint64_t *row = d->domains + st->offsets[t];
        memset(row, 0, (size_t)st->widths[t] * sizeof(uint64_t));
        row[w / 64] = (uint64_t)1 << (w % 64);
        d->count[t] = 1;
        d->lo[t] = d->hi[t] = w / 64;
        int64_t failed, cause;
        memset(d->touched, 0, (size_t)st->n);
        int status = fixpoint(st, d, &search->trail, &search->scratch, &t, 1, &failed, &cause);
        if (status < 0) return -1;
        if (status == 0 && descend(search, b, depth + 1) < 0) return -1;
        search_restore(search, depth);
    }
}

int improve_run(Search *search, Improve *b) {
    /* the neighbourhood's domains were just written: glyph masks open, nothing settled, then
     * arc consistency over every slot (Network.initial_state and propagate) */
    Structure *st = &search->st;
    Domains *d = &search->d;
    uint64_t all = st->glyph_count >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << st->glyph_count) - 1;
    for (int64_t c = 0; c < st->crossing_count; c++) d->masks[c] = all;
    memset(d->settled, 0, (size_t)st->n);
    memset(d->touched, 0, (size_t)st->n);
    domains_measure(st, d);
    for (int64_t s = 0; s < st->n; s++) search->removed[s] = s;
    int64_t failed, cause;
    int status = fixpoint(st, d, NULL, &search->scratch, search->removed, st->n, &failed, &cause);
    if (status != 0) return status < 0 ? -1 : 0; /* no re-fill: the neighbourhood has no word left */
    return descend(search, b, 0);
}
