"""The seating's draw (rules.md §16.5): every choice the seating makes at random.

32-bit words from xoshiro128** (Blackman and Vigna), written out here so that the pure and the
compiled core, on any machine, draw alike from one seed. Its state is the first 16 bytes of
SHA-256 of the seed's UTF-8 bytes, a zero byte and a label, so that each use draws apart.
"""

from __future__ import annotations

import hashlib
from typing import Final

_MASK32: Final = 0xFFFFFFFF


class Draw:
    """The words of one seed and label."""

    def __init__(self, seed: str, label: str) -> None:
        digest = hashlib.sha256(seed.encode("utf-8") + b"\x00" + label.encode("utf-8")).digest()
        self.s0 = int.from_bytes(digest[0:4], "big")
        self.s1 = int.from_bytes(digest[4:8], "big")
        self.s2 = int.from_bytes(digest[8:12], "big")
        self.s3 = int.from_bytes(digest[12:16], "big") or 1  # never the all-zero state

    def word(self) -> int:
        s1 = self.s1
        x = (s1 * 5) & _MASK32
        result = ((((x << 7) | (x >> 25)) & _MASK32) * 9) & _MASK32
        t = (s1 << 9) & _MASK32
        self.s2 ^= self.s0
        self.s3 ^= s1
        self.s1 = s1 ^ self.s2
        self.s0 ^= self.s3
        self.s2 ^= t
        s3 = self.s3
        self.s3 = ((s3 << 11) | (s3 >> 21)) & _MASK32
        return result

    def below(self, n: int) -> int:
        """A whole number in ``0 … n − 1`` (the multiply-shift method: the bias, below n/2³², is
        nothing for the sizes here)."""
        return (self.word() * n) >> 32

    def shuffle(self, items: list[int]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
