"""The settings of the ``ac`` search and its restart schedule (read by both of its loops, the
Python one in :mod:`.ac` and the compiled one in :mod:`.ac_native`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from .ac_learning import NOGOOD_LITERALS

#: Restart policy and unit: the k-th run may fail RESTART_BASE x luby(k) times. Measured on eight
#: Herald grids x 3 seeds at 30 s (docs/benchmarks.md): Luby 128 and geometric 64 x 1.2^k both
#: solved 22/24 (mean PAR-2 11.9 s and 11.6 s), geometric 64 x 1.5^k 21/25 (15.4 s); Luby keeps
#: restarting on long runs, where a geometric cutoff soon stops doing so.
RESTART_POLICY: Literal["geometric", "luby"] = "luby"
RESTART_BASE = 128
#: Cutoff growth per restart (geometric policy).
RESTART_GROWTH = 1.5
#: Seconds between progress callbacks.
PROGRESS_INTERVAL = 0.5


def luby(i: int) -> int:
    """The i-th term (from 1) of Luby, Sinclair and Zuckerman's universal restart sequence
    1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...

    >>> [luby(i) for i in range(1, 16)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    """
    k = i.bit_length()  # 2^(k-1) <= i <= 2^k - 1
    while i != (1 << k) - 1:  # inside a block: the block repeats the sequence so far
        i -= (1 << (k - 1)) - 1
        k = i.bit_length()
    return 1 << (k - 1)


@dataclass(frozen=True)
class ACOptions:
    """Search settings of the ``ac`` backend (the defaults are the measured best; see
    docs/benchmarks.md). Each can be given to :class:`ACBackend` as a keyword, or on the command
    line as ``--backend-option name=value``.

    Attributes:
        branching: ``slot`` decides a whole entry (slot = word, or not); ``letter`` decides one
            crossing cell of the dom/wdeg slot (cell = glyph, or not), the slot's fewest-glyph
            cell first, the glyph keeping the most words in both slots first. No-goods are
            learned from slot decisions only.
        value_order: ``tier`` ranks every word tied on score with the VALUE_WINDOW-th best by
            look-ahead (the whole domain for an unscored list); ``window`` ranks only the
            VALUE_WINDOW best-scored words; ``lookahead`` ranks the whole domain by look-ahead,
            ignoring scores (fillability first: the quality-first fill uses it at the user's own
            minimum score, then raises the scores in the time left).
        restart_policy: ``geometric`` (restart_base x restart_growth^k failures) or ``luby``
            (restart_base x the Luby sequence).
        restart_base: Failures allowed in the first run (the Luby unit).
        restart_growth: Cutoff growth per restart.
        nogoods: Record reduced nld-nogoods at each restart and propagate them.
        nogood_literals: Literals kept over all no-goods; learning stops when the next no-good
            would pass it (``ac_learning.NOGOOD_LITERALS``: the store's memory stays bounded).
        weight_decay: dom/wdeg weight decay: each failure bumps weights by 1/decay times the
            previous bump, so old conflicts count less (1.0: classic wdeg).
        core: ``compiled`` runs the search loop in the compiled core (:mod:`.ac_native`) when
            the extension is built and the problem is one it takes, else in Python;
            ``python`` always runs the Python reference loop (the same search, slower).
    """

    branching: Literal["slot", "letter"] = "slot"
    value_order: Literal["tier", "window", "lookahead"] = "tier"
    restart_policy: Literal["geometric", "luby"] = RESTART_POLICY
    restart_base: float = RESTART_BASE
    restart_growth: float = RESTART_GROWTH
    nogoods: bool = True
    nogood_literals: int = NOGOOD_LITERALS
    weight_decay: float = 1.0
    core: Literal["compiled", "python"] = "compiled"

    def __post_init__(self) -> None:
        if self.restart_base <= 0:
            raise ValueError("restart_base must be more than 0")
        if self.restart_growth < 1.0:
            raise ValueError("restart_growth must be 1 or more")
        if self.nogood_literals < 0:
            raise ValueError("nogood_literals must be 0 or more")
        if not 0.0 < self.weight_decay <= 1.0:
            raise ValueError("weight_decay must be in (0, 1]")


def restart_cutoffs(options: ACOptions) -> Iterator[float]:
    """Failure cutoffs of the successive runs: geometric (base x growth^k) or Luby (base x luby(k))."""
    k = 0
    while True:
        k += 1
        if options.restart_policy == "luby":
            yield options.restart_base * luby(k)
        else:
            yield options.restart_base * options.restart_growth ** (k - 1)
