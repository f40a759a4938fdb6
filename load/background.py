"""Work that runs beside a measurement, in threads of its own, for as long as a ``with`` block lasts."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Self


class Background:
    """Threads started on entering the block and joined on leaving it; each watches :attr:`stop`
    (``self.stop.wait(seconds)`` between rounds) to end in time."""

    def __init__(self, targets: Sequence[Callable[[], None]]) -> None:
        self.stop = threading.Event()
        self._threads = [threading.Thread(target=target) for target in targets]

    def __enter__(self) -> Self:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *_: Any) -> None:
        self.stop.set()
        for thread in self._threads:
            thread.join()
