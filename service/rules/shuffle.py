"""The shuffle from a seed (rules.md §2.2): the same seed gives the same deck in every language.

A game backend that keeps its seeds lets players check a deal after the game, and an engine in
another language reproduces it from the rulebook alone. So the algorithm is stated exactly,
on standard parts, and never changes within ``/v1``:

1. **Bytes.** The seed is a string; its UTF-8 bytes ``S``, exactly as given (no Unicode
   normalisation). Block ``i`` (``i = 0, 1, 2, …``) is ``SHA-256(S ‖ i)``, ``i`` written as
   8 bytes, big-endian. The stream is block 0, block 1, … one after the other.
2. **Words.** The stream is read 4 bytes at a time, each an unsigned 32-bit integer, big-endian.
3. **Whole numbers below n** (``1 ≤ n ≤ 78``), by rejection: with ``limit = 2³² − (2³² mod n)``,
   read words until one, ``w``, is below ``limit``; the number is ``w mod n``. Every number
   below ``n`` is then exactly as likely.
4. **Fisher–Yates.** Start from the deck in canonical order (rules.md §1.5: spades ace → king,
   hearts, diamonds, clubs, trumps 1 → 21, the Excuse). For ``i`` from 77 down to 1: draw
   ``j`` below ``i + 1`` and swap the cards at positions ``i`` and ``j``. Position 0 is the
   top of the deck: the first card dealt.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable
from typing import Final

from .cards import DECK_SIZE, Card

SEED_MAX_LENGTH: Final = 256
"""The longest seed, in characters: a bound on the work one request asks for."""

_WORD_BYTES: Final = 4
_WORD_RANGE: Final = 1 << 32
_COUNTER_BYTES: Final = 8
_BLOCK_WORDS: Final = struct.Struct(">8I")
"""A SHA-256 block read as its eight big-endian 32-bit words (step 2)."""


class ByteStream:
    """The seed's bytes as 32-bit words: SHA-256 of the seed and a block counter (step 1 and 2)."""

    def __init__(self, seed: str) -> None:
        self._seed = seed.encode("utf-8")  # a lone surrogate raises: the contract refuses those first
        self._block = b""
        self._offset = 0
        self._counter = 0

    def word(self) -> int:
        """The next unsigned 32-bit word of the stream."""
        if self._offset == len(self._block):
            counter = self._counter.to_bytes(_COUNTER_BYTES, "big")
            self._block = hashlib.sha256(self._seed + counter).digest()
            self._counter += 1
            self._offset = 0
        start = self._offset
        self._offset += _WORD_BYTES
        return int.from_bytes(self._block[start : self._offset], "big")

    def below(self, n: int) -> int:
        """A whole number in ``0 … n − 1``, each as likely, by rejection sampling (step 3)."""
        return draw_below(self.word, n)


def draw_below(word: Callable[[], int], n: int) -> int:
    """A whole number in ``0 … n − 1`` from the 32-bit words ``word`` gives: the first word below
    ``2³² − (2³² mod n)``, modulo ``n``; a word refused is used up (step 3)."""
    if not 1 <= n <= _WORD_RANGE:
        raise ValueError(f"no draw below {n}")
    limit = _WORD_RANGE - _WORD_RANGE % n
    while True:
        w = word()
        if w < limit:
            return w % n


def shuffled_deck(seed: str) -> tuple[Card, ...]:
    """The 78 cards in the order the seed shuffles them, the first card dealt first (step 4).

    The stream's words are read a block (eight words) at a time: the same words in the same order
    as :class:`ByteStream` gives them one by one (``reference_shuffled_deck``, which tests hold this
    to), at a fraction of the cost; a tournament's étuis are hundreds of shuffles."""
    key = seed.encode("utf-8")
    deck = list(range(DECK_SIZE))
    words: tuple[int, ...] = ()
    used = counter = 0
    for i in range(DECK_SIZE - 1, 0, -1):
        n = i + 1
        limit = _WORD_RANGE - _WORD_RANGE % n
        while True:
            if used == len(words):
                block = hashlib.sha256(key + counter.to_bytes(_COUNTER_BYTES, "big")).digest()
                words = _BLOCK_WORDS.unpack(block)
                counter += 1
                used = 0
            w = words[used]
            used += 1
            if w < limit:
                break
        j = w % n
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def reference_shuffled_deck(seed: str) -> tuple[Card, ...]:
    """:func:`shuffled_deck` as the rulebook states it, word by word from a :class:`ByteStream`."""
    stream = ByteStream(seed)
    deck = list(range(DECK_SIZE))
    for i in range(DECK_SIZE - 1, 0, -1):
        j = stream.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def is_valid_seed(seed: str) -> bool:
    """Whether ``seed`` can seed a shuffle: 1 to :data:`SEED_MAX_LENGTH` characters UTF-8 can write."""
    return 1 <= len(seed) <= SEED_MAX_LENGTH and utf8_writable(seed)


def utf8_writable(seed: str) -> bool:
    """Whether UTF-8 can write ``seed`` (JSON allows a lone surrogate, which it cannot)."""
    try:
        seed.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
