"""Metrics and verdict logs.

``GET /metrics`` serves Prometheus metrics: per operation (the URL rule, so that fuzzed
paths cannot multiply the label values) a request count and latency histogram by status,
and counters of the rule verdicts. Under gunicorn the workers share their samples through
``PROMETHEUS_MULTIPROC_DIR`` (set by gunicorn.conf.py); without it, as under the Flask test
client, each app counts in a registry of its own.

prometheus-flask-exporter serves ``/metrics`` and reads the workers' shared files back; the
request samples are taken by :class:`RequestMetrics`, a WSGI layer, rather than by the
exporter's own Flask hooks. Those hooks cost about 30 µs a request (three hooks, each reached
through context locals, and labelled children looked up by keyword every time), a fifth of a
legal-cards request; this layer keeps each labelled child once looked up and costs a few µs.
Metric names and labels are the exporter's, so dashboards do not change.

Each verdict also goes into the request's access log line (``verdict``; see
:mod:`service.logs`), as codes only: request bodies are the callers' game data. One line
per request keeps logging off the hot path's bill.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from time import perf_counter
from typing import TYPE_CHECKING, Any

from flask import Flask, current_app, request
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_flask_exporter import PrometheusMetrics
from prometheus_flask_exporter.multiprocess import GunicornInternalPrometheusMetrics
from werkzeug.routing import Map
from werkzeug.wsgi import ClosingIterator

from ... import __version__
from ...connection import STREAMED
from ...contract.declaration import Decided
from ...logs import VERDICT_KEY
from ...rules import CORE
from ...rules.deal import Evaluation

if TYPE_CHECKING:  # the standard WSGI types, as typeshed states them
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment


MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
METRICS_PATH = "/metrics"

UNMATCHED = "unmatched"
"""The ``url_rule`` label of every request that reached no route (404, 405, redirects)."""

# Methods outside this set are counted as "other", so that odd methods cannot multiply labels.
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_OTHER_METHOD = "other"


BATCH_COUNTS_EVERY = 500
"""Deals of a batch counted between two updates of the metrics."""


class RequestMetrics:
    """WSGI layer: times every request and counts it by method, operation and status.

    The time runs from the request's arrival in the app to its answer being ready, routing,
    parsing and error handling included. Every 5xx answer here comes from an exception (see
    :mod:`service.contract.problems`), so it also counts in ``flask_http_request_exceptions_total``.
    """

    def __init__(self, inner: WSGIApplication, url_map: Map, registry: CollectorRegistry | None) -> None:
        self._next = inner
        self._url_map = url_map
        # Routes without variables (all the operations) are found with one dict lookup; other
        # paths go through the URL map, as Flask routes them.
        self._static = {
            (method, rule.rule): rule.rule
            for rule in url_map.iter_rules()
            if not rule.arguments
            for method in rule.methods or ()
        }
        self._duration = Histogram(
            "flask_http_request_duration_seconds",
            "Flask HTTP request duration in seconds",
            ["method", "url_rule", "status"],
            registry=registry,
        )
        self._total = Counter(
            "flask_http_request_total", "Total number of HTTP requests", ["method", "status"], registry=registry
        )
        self._exceptions = Counter(
            "flask_http_request_exceptions_total",
            "Total number of HTTP requests which resulted in an exception",
            ["method", "status"],
            registry=registry,
        )
        self._children: dict[tuple[str, str, str], tuple[Any, Any]] = {}

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        started = perf_counter()
        statuses: list[str] = []

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            statuses.append(status)
            return start_response(status, headers, exc_info)

        try:
            answer = self._next(environ, start)
        except BaseException:
            self._record(environ, "500", perf_counter() - started)
            raise
        status = statuses[-1][:3] if statuses else "500"
        if environ.get(STREAMED):
            # The answer is made as it is sent: timed to its end.
            return ClosingIterator(answer, lambda: self._record(environ, status, perf_counter() - started))
        self._record(environ, status, perf_counter() - started)
        return answer

    def _record(self, environ: dict[str, Any], status: str, seconds: float) -> None:
        method = environ.get("REQUEST_METHOD", "")
        if method not in _METHODS:
            method = _OTHER_METHOD
        key = (method, environ.get("PATH_INFO", ""), status)
        children = self._children.get(key)
        if children is None:
            rule = self._static.get(key[:2])
            children = (
                self._duration.labels(method, rule or self._route(environ), status),
                self._total.labels(method, status),
            )
            if rule is not None:  # other paths are unbounded in number: not kept
                self._children[key] = children
        duration, total = children
        duration.observe(seconds)
        total.inc()
        if status[0] == "5":
            self._exceptions.labels(method, status).inc()

    def _route(self, environ: dict[str, Any]) -> str:
        try:
            rule, _ = self._url_map.bind_to_environ(environ).match(return_rule=True)
        except Exception:  # NotFound, MethodNotAllowed, RequestRedirect: no route reached
            return UNMATCHED
        return str(rule.rule)


@dataclass(frozen=True)
class Verdicts:
    legal_cards: Counter
    evaluations: Counter
    violations: Counter
    scores: Counter
    batch_records: Counter
    claims: Counter
    _children: dict[tuple[int, tuple[str, ...]], Any] = field(default_factory=dict)

    def inc(self, counter: Counter, *labels: str, amount: int = 1) -> None:
        """Count ``amount`` under ``labels``; the labelled child is looked up once, then kept."""
        key = (id(counter), labels)  # the counters live as long as this object
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = counter.labels(*labels)
        child.inc(amount)


def _verdict_counters(registry: CollectorRegistry | None) -> Verdicts:
    return Verdicts(
        legal_cards=Counter(
            "tarot_legal_cards_total",
            "Legal-card answers, by the rule of play that decided them.",
            ["reason"],
            registry=registry,
        ),
        evaluations=Counter(
            "tarot_deal_evaluations_total",
            "Deals evaluated, by status and validity.",
            ["status", "valid"],
            registry=registry,
        ),
        violations=Counter(
            "tarot_deal_violations_total",
            "Faults found in evaluated deals, by verdict code.",
            ["code"],
            registry=registry,
        ),
        scores=Counter(
            "tarot_deals_scored_total",
            "Deals scored (from a summary or an evaluation), by contract and outcome.",
            ["contract", "won"],
            registry=registry,
        ),
        batch_records=Counter(
            "tarot_batch_records_total",
            "Records of batch evaluations, by outcome: a valid or faulty deal, or a malformed record.",
            ["outcome"],
            registry=registry,
        ),
        claims=Counter(
            "tarot_claims_checked_total",
            "Deals sent with claims, by whether every claim agreed with the rules.",
            ["agree"],
            registry=registry,
        ),
    )


def init_app(app: Flask) -> CollectorRegistry | None:
    """Serve ``/metrics`` and create the verdict counters for this app; the registry the
    request metrics go to (``None``: the multiprocess files)."""
    if os.environ.get(MULTIPROC_ENV):
        # Samples go to the shared files; the scrape reads them all back.
        GunicornInternalPrometheusMetrics(app, path=METRICS_PATH, export_defaults=False)
        registry = None
    else:
        registry = CollectorRegistry()
        PrometheusMetrics(app, path=METRICS_PATH, export_defaults=False, registry=registry)
    app.extensions["tarot_verdicts"] = _verdict_counters(registry)
    _build_info(registry)
    return registry


def _build_info(registry: CollectorRegistry | None) -> None:
    """``tarot_rules_build_info{version, core} 1``: what this instance runs, in the form of an
    info metric (a gauge at 1 whose labels are the information), which dashboards join on."""
    info = Gauge(
        "tarot_rules_build_info",
        "The service's version and the rules core it runs (compiled or pure), as labels; always 1.",
        ["version", "core"],
        registry=registry,
        # Every worker sets the same labels: one series for the instance, not one per worker.
        multiprocess_mode="max",
    )
    info.labels(__version__, CORE).set(1)


def _verdicts() -> Verdicts:
    counters: Verdicts = current_app.extensions["tarot_verdicts"]
    return counters


def count(decided: Decided) -> None:
    """Count what the rules decided of one request, and leave it, as codes, for its access log line."""
    counters = _verdicts()
    if decided.legal_reason is not None:
        counters.inc(counters.legal_cards, decided.legal_reason)
        _note({"operation": "legal_cards", "reason": decided.legal_reason})
    if decided.scored is not None:
        contract, won = decided.scored
        counters.inc(counters.scores, contract, "true" if won else "false")
        _note({"operation": "score", "contract": contract, "won": won})
    evaluation = decided.evaluation
    if evaluation is not None:
        for counter, labels in _evaluation_counts(counters, evaluation):
            counters.inc(counter, *labels)
        _note(
            {
                "operation": "evaluate",
                "status": evaluation.status,
                "valid": evaluation.valid,
                "violations": [v.code for v in evaluation.violations],
                "redeal_reason": evaluation.redeal_reason,
            }
        )
    if decided.claims_agree is not None:
        counters.inc(counters.claims, "true" if decided.claims_agree else "false")


def _evaluation_counts(counters: Verdicts, evaluation: Evaluation) -> Iterator[tuple[Counter, tuple[str, ...]]]:
    """The counters an evaluation counts in, each with its labels."""
    yield counters.evaluations, (evaluation.status, "true" if evaluation.valid else "false")
    for violation in evaluation.violations:
        yield counters.violations, (violation.code,)
    if evaluation.score is not None and evaluation.contract is not None:
        yield counters.scores, (evaluation.contract, "true" if evaluation.score.won else "false")


class BatchTelemetry:
    """The counts of one batch: each deal as it is evaluated, the records and claims at the end.

    Made in the view; usable after it returns, while a streamed answer is produced outside the
    request's context. Counts are kept here and added to the metrics every
    :data:`BATCH_COUNTS_EVERY` deals and at the end: under gunicorn each increment writes to
    the shared metric files (a lock and a pid check), a tenth of a deal's cost.
    """

    def __init__(self, every: int | None = BATCH_COUNTS_EVERY) -> None:
        """``every``: None keeps every count until :meth:`done` (a batch that may still be
        refused whole, whose deals must then not be counted)."""
        self._counters = _verdicts()
        self._pending: dict[tuple[Counter, tuple[str, ...]], int] = {}
        self._deals = 0
        self._every = every

    def observe(self, decided: Decided) -> None:
        if decided.evaluation is None:
            return
        pending = self._pending
        for key in _evaluation_counts(self._counters, decided.evaluation):
            pending[key] = pending.get(key, 0) + 1
        self._deals += 1
        if self._every is not None and self._deals % self._every == 0:
            self._flush()

    def _flush(self) -> None:
        for (counter, labels), count in self._pending.items():
            self._counters.inc(counter, *labels, amount=count)
        self._pending.clear()

    def done(self, environ: dict[str, Any], summary: dict[str, Any]) -> None:
        """Count the batch's records by outcome, and leave its counts for its access log line."""
        self._flush()
        counters = self._counters
        for outcome in ("valid", "faulty", "malformed"):
            if summary[outcome]:
                counters.inc(counters.batch_records, outcome, amount=summary[outcome])
        agree = summary["claims_checked"] - summary["claims_disagree"]
        for label, count in (("true", agree), ("false", summary["claims_disagree"])):
            if count:
                counters.inc(counters.claims, label, amount=count)
        environ[VERDICT_KEY] = {"operation": "evaluate_batch", **summary}


def _note(verdict: dict[str, Any]) -> None:
    request.environ[VERDICT_KEY] = verdict
