"""What the application and the server's worker tell each other about a connection.

Both sides name these keys from here, so neither imports the other: the application has no
need of gevent, and the worker none of Flask.
"""

CLOSE_CONNECTION = "tarot.close_connection"
"""WSGI environ key: the application sets it when the connection must not serve another
request (a body it could not read, or would not read), so that its answer goes out with
``Connection: close`` and the connection ends."""

DRAINING = "DRAINING"
"""Application config key, set when the instance begins to shut down: ``/readyz`` answers 503
and every answer closes its connection, so that clients reconnect to instances in service."""

STREAMED = "tarot.streamed"
"""WSGI environ key: the application sets it when its answer is streamed, produced while the
application iterates (the request metrics then time the whole stream)."""

STREAMED_PATHS = frozenset({"/v1/deals/evaluate-batch"})
"""Paths whose requests may run long (a batch streams for as long as its body lasts): the
worker serves them in a greenlet of their own, never in its acceptor."""

HEALTH_PATHS = frozenset({"/livez", "/readyz", "/metrics"})
"""The probes an orchestrator acts on, and the metrics that show the load: what the health port
serves."""

UNQUEUED_PATHS = HEALTH_PATHS | {"/"}
"""Paths the worker answers as they come, never queued behind other requests nor refused for
load: the probes and the metrics, and the service's index, which a load balancer asks by
default (refused for load, it would take a busy instance out and push its load onto the others)."""

NEGOTIATE = "tarot.negotiate"
"""Application config key: a function from an ``Accept-Language`` header (or None) to the
language to answer in, which the server's own answers (a refusal for load) use too."""

ANSWER_LAYERS = "tarot.answer_layers"
"""Application config key: a function that wraps a WSGI application in the layers every answer
of the application goes through (its request id, its language, CORS), for the answers the
server makes itself (a refusal for load), so that a client reads them as it reads the others."""

PAUSE = "tarot.pause"
"""WSGI environ key: a callable, without arguments, that a long answer (a batch) calls between
two steps to let the server's other work run; absent where there is nothing else to run (the
worker gives gevent's ``sleep``, a switch to the other greenlets)."""

VERDICT_KEY = "tarot.verdict"
"""WSGI environ key under which a view leaves its rule verdict for the request's access line
(the server's logger writes it there: :mod:`service.serving.logs`)."""
