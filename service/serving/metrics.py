"""The server's own metrics: what the worker decides before the application runs.

Written to the same multiprocess files as the application's (``PROMETHEUS_MULTIPROC_DIR``),
so ``/metrics`` shows them beside the request metrics, summed over the workers.
"""

from __future__ import annotations

from prometheus_client import Counter

REFUSED = Counter(
    "tarot_rules_requests_refused_total",
    "Requests refused with 503 overloaded before they were served: queue_full (the work queued "
    "was over its bound when they came), deadline (they waited past their deadline for their turn).",
    ["reason"],
)


def count_refused(reason: str, n: int = 1) -> None:
    REFUSED.labels(reason).inc(n)
