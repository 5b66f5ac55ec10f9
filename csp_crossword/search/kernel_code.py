"""The compiled propagation loop (numba): imported only when numba is installed.

See :mod:`csp_crossword.search.propagation_kernel` for the data layout and
:meth:`csp_crossword.search.propagation.Network.propagate` for the reference loop it mirrors.
"""

from typing import Any

import numba
import numpy as np

#: At or below this many words a domain's glyph supports are read from the words' glyph codes
#: (one pass over the words per crossing, stopping once every glyph of the cell is seen) instead
#: of one column scan per glyph (a scan over the whole row for each glyph no word has there).
KERNEL_SMALL_DOMAIN = 512
#: Return codes besides a slot number.
NO_FAILURE = -1
NO_CAUSE = -1


@numba.njit(cache=True, inline="always")
def _popcount(x: Any) -> Any:
    # SWAR popcount (numba compiles it to a few instructions; no intrinsic needed).
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@numba.njit(cache=True, nogil=True)
def propagate(
    domains: Any,
    masks: Any,
    settled: Any,
    touched: Any,
    changed: Any,
    offsets: Any,
    widths: Any,
    kinds: Any,
    column_offsets: Any,
    columns: Any,
    code_offsets: Any,
    codes: Any,
    lengths: Any,
    nb_start: Any,
    nb_other: Any,
    nb_pos: Any,
    nb_other_pos: Any,
    nb_cell: Any,
    same_start: Any,
    same_slots: Any,
    check_repeats: bool,
) -> Any:
    """Arc consistency to a fixpoint. Returns (failed slot, cause) or (NO_FAILURE, NO_CAUSE).

    ``touched[s]`` is set to 1 for every slot whose domain changed. ``column_offsets[kind, pos,
    glyph]`` is the start of that column in ``columns`` (-1: no word has the glyph there); a
    kind is a word length, ``kinds[s]`` the slot's.
    """
    n = offsets.shape[0]
    queue = np.empty(n, dtype=np.int64)
    queued = np.zeros(n, dtype=np.uint8)
    head = 0
    size = 0
    for k in range(changed.shape[0]):
        s = changed[k]
        if queued[s] == 0:
            queued[s] = 1
            queue[(head + size) % n] = s
            size += 1
    one = np.uint64(1)
    zero = np.uint64(0)
    glyph_count = column_offsets.shape[2]
    starts = np.empty(glyph_count, dtype=np.int64)
    ids = np.empty(KERNEL_SMALL_DOMAIN, dtype=np.int64)
    while size > 0:
        s = queue[head]
        head = (head + 1) % n
        size -= 1
        queued[s] = 0
        base = offsets[s]
        width = widths[s]
        count = 0
        first = width
        last = -1
        for x in range(width):
            word = domains[base + x]
            if word != zero:
                count += _popcount(word)
                last = x
                if first == width:
                    first = x
        if count == 0:
            return s, NO_CAUSE
        if check_repeats and settled[s] == 0 and count == 1:
            settled[s] = 1
            word = domains[base + last]
            for u_k in range(same_start[s], same_start[s + 1]):
                u = same_slots[u_k]
                cell = offsets[u] + last
                if domains[cell] & word:
                    domains[cell] &= ~word
                    touched[u] = 1
                    empty = True
                    for x in range(widths[u]):
                        if domains[offsets[u] + x] != zero:
                            empty = False
                            break
                    if empty:
                        return u, s
                    if queued[u] == 0:
                        queued[u] = 1
                        queue[(head + size) % n] = u
                        size += 1
        kind = kinds[s]
        length = lengths[s]
        small = count <= KERNEL_SMALL_DOMAIN
        if small:  # the domain's word ids, for the code look-ups below
            found = 0
            for x in range(first, last + 1):
                word = domains[base + x]
                while word != zero:
                    low = word & (~word + one)
                    ids[found] = x * 64 + np.int64(_popcount(low - one))
                    found += 1
                    word ^= low
        code_base = code_offsets[kind]
        for e in range(nb_start[s], nb_start[s + 1]):
            t = nb_other[e]
            i = nb_pos[e]
            j = nb_other_pos[e]
            c = nb_cell[e]
            old = masks[c]
            kept = zero
            if small:
                for k in range(count):
                    kept |= one << np.uint64(codes[code_base + ids[k] * length + i])
                    if kept & old == old:
                        break
                kept &= old
            else:
                for g in range(glyph_count):
                    glyph = one << np.uint64(g)
                    if old & glyph == zero:
                        continue
                    start = column_offsets[kind, i, g]
                    if start < 0:
                        continue
                    for x in range(first, last + 1):
                        if domains[base + x] & columns[start + x]:
                            kept |= glyph
                            break
            if kept == old:
                continue
            if kept == zero:
                return s, t
            masks[c] = kept
            removed = old & ~kept
            other_kind = kinds[t]
            other_base = offsets[t]
            changed_t = False
            nonempty = False
            keep_side = _popcount(kept) < _popcount(removed)
            use = kept if keep_side else removed
            used = 0
            for g in range(glyph_count):
                if use & (one << np.uint64(g)):
                    start = column_offsets[other_kind, j, g]
                    if start >= 0:
                        starts[used] = start
                        used += 1
            for x in range(widths[t]):
                current = domains[other_base + x]
                if current == zero:
                    continue
                union = zero
                for k in range(used):
                    union |= columns[starts[k] + x]
                after = current & union if keep_side else current & ~union
                if after != current:
                    domains[other_base + x] = after
                    changed_t = True
                if after != zero:
                    nonempty = True
            if changed_t:
                touched[t] = 1
                if not nonempty:
                    return t, s
                if queued[t] == 0:
                    queued[t] = 1
                    queue[(head + size) % n] = t
                    size += 1
    return NO_FAILURE, NO_CAUSE
