/* What the compiled search learns from its failures (the reference is backends/ac_learning.py):
 * dom/wdeg conflict weights, and the no-goods recorded at restarts, propagated with arc
 * consistency to a common fixpoint. */
#include <stdlib.h>
#include <string.h>

#include "search.h"

int weights_init(Weights *weights, const Structure *st, double decay) {
    size_t edges = (size_t)st->nb_start[st->n];
    weights->edge = malloc(sizeof(double) * (edges ? edges : 1));
    weights->slot_weight = calloc((size_t)(st->n ? st->n : 1), sizeof(double));
    weights->conflicts = calloc((size_t)(st->n ? st->n : 1), sizeof(int64_t));
    if (!weights->edge || !weights->slot_weight || !weights->conflicts) return -1;
    for (size_t e = 0; e < edges; e++) weights->edge[e] = 1.0;
    weights->bump = 1.0;
    weights->decay = decay;
    return 0;
}

void weights_free(Weights *weights) {
    free(weights->edge);
    free(weights->slot_weight);
    free(weights->conflicts);
    memset(weights, 0, sizeof(*weights));
}

/* The last crossing of slot s with slot t, or -1. */
static int64_t edge_between(const Structure *st, int64_t s, int64_t t) {
    int64_t found = -1;
    for (int64_t e = st->nb_start[s]; e < st->nb_start[s + 1]; e++)
        if (st->nb_other[e] == t) found = e;
    return found;
}

void weights_record(Weights *weights, const Structure *st, int64_t s, int64_t t) {
    double bump = weights->bump;
    weights->conflicts[s]++;
    if (t >= 0 && t != s) weights->conflicts[t]++;
    int64_t forward = t >= 0 ? edge_between(st, s, t) : -1;
    if (forward < 0) { /* empty from the start, a repeat or a no-good */
        weights->slot_weight[s] += bump;
        if (t >= 0 && t != s) weights->slot_weight[t] += bump;
    } else {
        weights->edge[forward] += bump;
        weights->edge[edge_between(st, t, s)] += bump;
    }
    if (weights->decay < 1.0) {
        weights->bump = bump / weights->decay;
        if (weights->bump > WEIGHT_RESCALE) {
            weights->bump /= WEIGHT_RESCALE;
            for (int64_t u = 0; u < st->n; u++) weights->slot_weight[u] /= WEIGHT_RESCALE;
            for (int64_t e = 0; e < st->nb_start[st->n]; e++) weights->edge[e] /= WEIGHT_RESCALE;
        }
    }
}

int64_t select_slot(const Search *search) {
    const Structure *st = &search->st;
    const int64_t *count = search->d.count;
    int64_t best = -1;
    double best_key = 1.0 / 0.0;
    for (int64_t s = 0; s < st->n; s++) {
        if (count[s] <= 1) continue;
        double weight = 1 + search->weights.slot_weight[s];
        for (int64_t e = st->nb_start[s]; e < st->nb_start[s + 1]; e++)
            if (count[st->nb_other[e]] > 1) weight += search->weights.edge[e];
        double key = (double)count[s] / weight;
        if (key < best_key) {
            best = s;
            best_key = key;
        }
    }
    return best;
}

void nogoods_free(Nogoods *nogoods) {
    free(nogoods->literals);
    free(nogoods->starts);
    free(nogoods->keys);
    free(nogoods->first);
    free(nogoods->last);
    free(nogoods->post_nogood);
    free(nogoods->post_next);
    memset(nogoods, 0, sizeof(*nogoods));
}

static inline uint64_t literal_key(int64_t slot, int64_t word) { return ((uint64_t)slot << 32 | (uint64_t)word) + 1; }

static inline size_t slot_of_key(const Nogoods *nogoods, uint64_t key) {
    size_t at = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 20) & (nogoods->table_cap - 1);
    while (nogoods->keys[at] && nogoods->keys[at] != key) at = (at + 1) & (nogoods->table_cap - 1);
    return at;
}

static int table_grow(Nogoods *nogoods) {
    size_t old_cap = nogoods->table_cap, cap = old_cap ? old_cap * 2 : 1024;
    uint64_t *keys = calloc(cap, sizeof(uint64_t));
    int64_t *first = malloc(cap * sizeof(int64_t)), *last = malloc(cap * sizeof(int64_t));
    if (!keys || !first || !last) { /* the old table stays as it was */
        free(keys);
        free(first);
        free(last);
        return -1;
    }
    uint64_t *old_keys = nogoods->keys;
    int64_t *old_first = nogoods->first, *old_last = nogoods->last;
    nogoods->keys = keys;
    nogoods->first = first;
    nogoods->last = last;
    nogoods->table_cap = cap;
    for (size_t k = 0; k < old_cap; k++) {
        if (!old_keys[k]) continue;
        size_t at = slot_of_key(nogoods, old_keys[k]);
        nogoods->keys[at] = old_keys[k];
        nogoods->first[at] = old_first[k];
        nogoods->last[at] = old_last[k];
    }
    free(old_keys);
    free(old_first);
    free(old_last);
    return 0;
}

#define GROW(pointer, cap, need, type)                                        \
    do {                                                                      \
        if ((need) > (cap)) {                                                 \
            size_t grown = (cap) ? (cap) : 256;                               \
            while (grown < (need)) grown *= 2;                                \
            type *moved = realloc((pointer), grown * sizeof(type));           \
            if (!moved) return -1;                                            \
            (pointer) = moved;                                                \
            (cap) = grown;                                                    \
        }                                                                     \
    } while (0)

/* Records the no-good made of the literals pairs[0..size). */
static int nogood_add(Nogoods *nogoods, const int64_t *pairs, size_t size) {
    GROW(nogoods->literals, nogoods->literals_cap, nogoods->literals_len + 2 * size, int64_t);
    GROW(nogoods->starts, nogoods->starts_cap, nogoods->count + 2, size_t);
    size_t posts_cap = nogoods->posts_cap;
    GROW(nogoods->post_nogood, posts_cap, nogoods->posts + size, int64_t);
    if (posts_cap != nogoods->posts_cap) {
        int64_t *next = realloc(nogoods->post_next, posts_cap * sizeof(int64_t));
        if (!next) return -1;
        nogoods->post_next = next;
        nogoods->posts_cap = posts_cap;
    }
    /* the hash table has room for every literal before anything is written */
    while (2 * (nogoods->table_used + size) > nogoods->table_cap)
        if (table_grow(nogoods)) return -1;
    int64_t id = (int64_t)nogoods->count;
    nogoods->starts[id] = nogoods->literals_len;
    memcpy(nogoods->literals + nogoods->literals_len, pairs, 2 * size * sizeof(int64_t));
    nogoods->literals_len += 2 * size;
    nogoods->starts[id + 1] = nogoods->literals_len;
    nogoods->count++;
    for (size_t k = 0; k < size; k++) {
        uint64_t key = literal_key(pairs[2 * k], pairs[2 * k + 1]);
        size_t at = slot_of_key(nogoods, key);
        int64_t post = (int64_t)nogoods->posts++;
        nogoods->post_nogood[post] = id;
        nogoods->post_next[post] = -1;
        if (!nogoods->keys[at]) {
            nogoods->keys[at] = key;
            nogoods->first[at] = post;
            nogoods->table_used++;
        } else {
            nogoods->post_next[nogoods->last[at]] = post;
        }
        nogoods->last[at] = post;
    }
    return 0;
}

int nogoods_learn(Search *search) {
    /* every frame below the top holds its word; the top one's word was just refuted */
    int64_t *pairs = search->pairs;
    for (int64_t k = 1; k < search->depth; k++) {
        const Frame *frame = &search->frames[k];
        if (k + 1 > MAX_NOGOOD) break;
        for (int64_t f = 0; f < k; f++) {
            pairs[2 * f] = search->frames[f].slot;
            pairs[2 * f + 1] = search->frames[f].word;
        }
        int64_t end = k + 1 < search->depth ? search->frames[k + 1].refuted_start : (int64_t)search->refuted_len;
        for (int64_t r = frame->refuted_start; r < end; r++) {
            pairs[2 * k] = frame->slot;
            pairs[2 * k + 1] = search->refuted[r];
            /* the store is full: the search stays complete without more (NogoodStore.learn) */
            if (search->opt.nogood_literals >= 0 &&
                (int64_t)(search->nogoods.literals_len / 2) + k + 1 > search->opt.nogood_literals)
                return 0;
            if (nogood_add(&search->nogoods, pairs, (size_t)k + 1)) return -1;
            search->counters.nogoods++;
        }
    }
    return 0;
}

static inline int is_word(const Search *search, int64_t u, int64_t w) {
    return (int)(search->d.domains[search->st.offsets[u] + w / 64] >> (w % 64) & 1);
}

/* Checks the no-goods of the slots filled since the touched flags were cleared; prunes the one
 * open literal of a no-good whose others all hold. 0: none pruned; 1: some pruned (listed in
 * search->removed, *n_removed); 2: failure. */
static int check_nogoods(Search *search, int64_t *n_removed, int64_t *failed, int64_t *cause) {
    const Structure *st = &search->st;
    Domains *d = &search->d;
    Nogoods *nogoods = &search->nogoods;
    *n_removed = 0;
    for (int64_t t = 0; t < st->n; t++) {
        if (d->count[t] != 1 || !d->touched[t]) continue;
        int64_t word;
        domain_ids(st, d, t, &word, 1);
        size_t at = slot_of_key(nogoods, literal_key(t, word));
        if (!nogoods->keys[at]) continue;
        for (int64_t post = nogoods->first[at]; post >= 0; post = nogoods->post_next[post]) {
            int64_t id = nogoods->post_nogood[post], open_slot = -1, open_word = -1;
            int broken = 0;
            for (size_t x = nogoods->starts[id]; x < nogoods->starts[id + 1]; x += 2) {
                int64_t u = nogoods->literals[x], w = nogoods->literals[x + 1];
                if (d->count[u] == 1 && is_word(search, u, w)) continue;
                if (open_slot >= 0 || !is_word(search, u, w)) {
                    broken = 1;
                    break;
                }
                open_slot = u;
                open_word = w;
            }
            if (broken) continue;
            if (open_slot < 0) {
                search->counters.nogood_failures++;
                *failed = t;
                *cause = t;
                return 2;
            }
            trail_save_row(&search->trail, st, d, open_slot);
            d->domains[st->offsets[open_slot] + open_word / 64] &= ~((uint64_t)1 << (open_word % 64));
            d->count[open_slot]--;
            d->touched[open_slot] = 1;
            search->counters.nogood_prunings++;
            if (d->count[open_slot] == 0) {
                *failed = open_slot;
                *cause = open_slot;
                return 2;
            }
            if (!search->marks[open_slot]) { /* listed once, where first pruned */
                search->marks[open_slot] = 1;
                search->removed[(*n_removed)++] = open_slot;
            }
        }
    }
    return *n_removed ? 1 : 0;
}

int propagate_with_nogoods(Search *search, const int64_t *changed, int64_t n_changed, int64_t *failed,
                           int64_t *cause) {
    const Structure *st = &search->st;
    Domains *d = &search->d;
    memset(d->touched, 0, (size_t)st->n);
    int status = fixpoint(st, d, &search->trail, &search->scratch, changed, n_changed, failed, cause);
    if (search->nogoods.count == 0) return status;
    while (status == 0) {
        int64_t n_removed;
        int checked = check_nogoods(search, &n_removed, failed, cause);
        if (checked == 2) {
            for (int64_t k = 0; k < st->n; k++) search->marks[k] = 0;
            return 1;
        }
        for (int64_t k = 0; k < n_removed; k++) search->marks[search->removed[k]] = 0;
        if (checked == 0) return 0;
        if (search->trail.failed) return -1;
        memset(d->touched, 0, (size_t)st->n);
        status = fixpoint(st, d, &search->trail, &search->scratch, search->removed, n_removed, failed, cause);
    }
    return status;
}
