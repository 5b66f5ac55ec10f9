/* The value order of the compiled search (the reference is backends/ac_values.py): the best
 * scored words, ranked by the look-ahead (sum over crossings of log(words the crossing keeps)),
 * with seeded noise from search/noise.py's generator. */
#include <math.h>

#include "search.h"

/* Look-ahead stand-in for a glyph with no support left (ac_values.NO_SUPPORT). */
#define NO_SUPPORT 1e-9
/* Look-ahead of a crossing left without a word, in the small-window ranking. */
#define DEAD_CROSSING (-1e9)

#define GOLDEN 0x9E3779B97F4A7C15ULL

static inline uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline double uniform(Noise *noise) {
    noise->counter++;
    return (double)(mix(noise->key + noise->counter * GOLDEN) >> 11) * (1.0 / 9007199254740992.0);
}

double noise_draw(Noise *noise) {
    double a = uniform(noise);
    double b = uniform(noise);
    double c = uniform(noise);
    return 2.0 * ((a + b) + c) - 3.0;
}

/* Inserts (value, word) into the best-first list `best` of `*kept` entries (at most
 * VALUE_WINDOW), ties going to the earlier word. */
static void keep_best(double value, int64_t word, double *values, int64_t *words, int64_t *kept) {
    int64_t at = *kept;
    if (at == VALUE_WINDOW) {
        if (!(value > values[VALUE_WINDOW - 1])) return;
        at = VALUE_WINDOW - 1;
    } else {
        (*kept)++;
    }
    while (at > 0 && value > values[at - 1]) {
        values[at] = values[at - 1];
        words[at] = words[at - 1];
        at--;
    }
    values[at] = value;
    words[at] = word;
}

static inline int64_t glyph_count_in(const Search *search, int64_t t, int64_t j, int64_t g) {
    const Structure *st = &search->st;
    int64_t start = column_start(st, st->kinds[t], j, g);
    if (start < 0) return 0;
    const uint64_t *row = search->d.domains + st->offsets[t];
    int64_t count = 0;
    for (int64_t x = search->d.lo[t]; x <= search->d.hi[t]; x++) count += popcount64(row[x] & st->columns[start + x]);
    return count;
}

/* The first VALUE_WINDOW words (or fewer) by look-ahead over every crossing. */
static int64_t rank_window(Search *search, int64_t s, int64_t *out) {
    const Structure *st = &search->st;
    int64_t window[VALUE_WINDOW];
    int64_t size = domain_ids(st, &search->d, s, window, VALUE_WINDOW);
    double values[VALUE_WINDOW];
    int64_t kept = 0, kind = st->kinds[s], length = st->lengths[s];
    for (int64_t k = 0; k < size; k++) {
        int64_t w = window[k];
        double value = 0.0;
        for (int64_t e = st->nb_start[s]; e < st->nb_start[s + 1]; e++) {
            int64_t g = word_code(st, kind, length, w, st->nb_pos[e]);
            int64_t count = glyph_count_in(search, st->nb_other[e], st->nb_other_pos[e], g);
            value += count ? log((double)count) : DEAD_CROSSING;
        }
        if (search->spread != 0.0) value += noise_draw(&search->noise) * search->spread;
        keep_best(value, w, values, out, &kept);
    }
    return kept;
}

int64_t rank_words(Search *search, int64_t s, int64_t *out) {
    const Structure *st = &search->st;
    const Domains *d = &search->d;
    int64_t count = d->count[s];
    if (count == 1) {
        domain_ids(st, d, s, out, 1);
        return 1;
    }
    if (count <= VALUE_WINDOW || search->opt.value_order == ORDER_WINDOW) return rank_window(search, s, out);
    int64_t *ids = search->ids;
    int64_t kind = st->kinds[s], length = st->lengths[s];
    const int64_t *scores = search->scores + search->score_offsets[kind];
    int64_t tier;
    if (search->opt.value_order == ORDER_LOOKAHEAD) {
        tier = domain_ids(st, d, s, ids, count);
    } else {
        /* every word scored at least the VALUE_WINDOW-th best: a prefix, as scores descend */
        domain_ids(st, d, s, ids, VALUE_WINDOW);
        int64_t floor = scores[ids[VALUE_WINDOW - 1]];
        tier = 0;
        const uint64_t *row = d->domains + st->offsets[s];
        for (int64_t x = d->lo[s]; x <= d->hi[s]; x++) {
            uint64_t word = row[x];
            int done = 0;
            while (word) {
                uint64_t low = word & (~word + 1);
                int64_t w = x * 64 + popcount64(low - 1);
                word ^= low;
                if (scores[w] < floor) {
                    done = 1;
                    break;
                }
                ids[tier++] = w;
            }
            if (done) break;
        }
    }
    double *values = search->values;
    for (int64_t k = 0; k < tier; k++) values[k] = 0.0;
    double *logs = search->logs;
    for (int64_t e = st->nb_start[s]; e < st->nb_start[s + 1]; e++) {
        int64_t t = st->nb_other[e], i = st->nb_pos[e], j = st->nb_other_pos[e];
        if (d->count[t] == 1) continue; /* a filled crossing keeps its word whatever goes here */
        uint64_t mask = d->masks[st->nb_cell[e]];
        for (int64_t g = 0; g < st->glyph_count; g++) {
            if (mask & ((uint64_t)1 << (uint64_t)g)) {
                int64_t n = glyph_count_in(search, t, j, g);
                logs[g] = log(n ? (double)n : NO_SUPPORT);
            } else {
                logs[g] = 0.0;
            }
        }
        for (int64_t k = 0; k < tier; k++) values[k] += logs[word_code(st, kind, length, ids[k], i)];
    }
    if (search->spread != 0.0) {
        for (int64_t k = 0; k < tier; k++) values[k] += noise_draw(&search->noise) * search->spread;
    }
    double best[VALUE_WINDOW];
    int64_t kept = 0;
    for (int64_t k = 0; k < tier; k++) keep_best(values[k], ids[k], best, out, &kept);
    return kept;
}
