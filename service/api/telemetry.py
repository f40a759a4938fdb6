"""Metrics and verdict logs.

``GET /metrics`` serves Prometheus metrics: per operation (the URL rule, so that fuzzed
paths cannot multiply the label values) a request count and latency histogram by status,
and counters of the rule verdicts. Under gunicorn the workers share their samples through
``PROMETHEUS_MULTIPROC_DIR`` (set by gunicorn.conf.py); without it, as under the Flask test
client, each app counts in a registry of its own.

Each verdict also goes into the request's access log line (``verdict``; see
:mod:`service.logs`), as codes only: request bodies are the callers' game data. One line
per request keeps logging off the hot path's bill.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, Request, current_app, request
from prometheus_client import CollectorRegistry, Counter
from prometheus_flask_exporter import PrometheusMetrics
from prometheus_flask_exporter.multiprocess import GunicornInternalPrometheusMetrics

from ..logs import VERDICT_KEY
from ..rules.deal import Evaluation
from ..rules.play import LegalReason
from ..rules.scoring import Contract

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
METRICS_PATH = "/metrics"


def url_rule(request: Request) -> str:
    """The operation a request reached, as its route; every unrouted path counts as one."""
    rule = request.url_rule
    return "unmatched" if rule is None else rule.rule


@dataclass(frozen=True)
class Verdicts:
    legal_cards: Counter
    evaluations: Counter
    violations: Counter
    scores: Counter
    _children: dict[tuple[int, tuple[str, ...]], Any] = field(default_factory=dict)

    def inc(self, counter: Counter, *labels: str) -> None:
        """Count one under ``labels``; the labelled child is looked up once, then kept."""
        key = (id(counter), labels)  # the counters live as long as this object
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = counter.labels(*labels)
        child.inc()


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
    )


def init_app(app: Flask) -> None:
    """Serve ``/metrics`` and create the verdict counters for this app."""
    if os.environ.get(MULTIPROC_ENV):
        # Samples go to the shared files; the scrape reads them all back.
        GunicornInternalPrometheusMetrics(app, path=METRICS_PATH, group_by=url_rule)
        registry = None
    else:
        registry = CollectorRegistry()
        PrometheusMetrics(app, path=METRICS_PATH, group_by=url_rule, registry=registry)
    app.extensions["tarot_verdicts"] = _verdict_counters(registry)


def _verdicts() -> Verdicts:
    counters: Verdicts = current_app.extensions["tarot_verdicts"]
    return counters


def legal_cards_decided(reason: LegalReason) -> None:
    counters = _verdicts()
    counters.inc(counters.legal_cards, reason.value)
    _note({"operation": "legal_cards", "reason": reason.value})


def deal_scored(contract: Contract, won: bool) -> None:
    counters = _verdicts()
    counters.inc(counters.scores, contract.value, "true" if won else "false")
    _note({"operation": "score", "contract": contract.value, "won": won})


def deal_evaluated(evaluation: Evaluation) -> None:
    counters = _verdicts()
    codes = [v.code for v in evaluation.violations]
    counters.inc(counters.evaluations, evaluation.status.value, "true" if evaluation.valid else "false")
    for code in codes:
        counters.inc(counters.violations, code)
    if evaluation.score is not None and evaluation.contract is not None:
        counters.inc(counters.scores, evaluation.contract.value, "true" if evaluation.score.won else "false")
    _note(
        {
            "operation": "evaluate",
            "status": evaluation.status.value,
            "valid": evaluation.valid,
            "violations": codes,
            "redeal_reason": evaluation.redeal_reason,
        }
    )


def _note(verdict: dict[str, Any]) -> None:
    request.environ[VERDICT_KEY] = verdict
