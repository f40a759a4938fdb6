"""The server: gunicorn's settings made into behaviour, for the application in :mod:`service.app`.

- :mod:`.worker` — the gunicorn worker (gevent): connections, deadlines, keep-alive, the
  bound on connections, problem answers to requests gunicorn cannot parse, draining;
- :mod:`.response` — its response, which sends or keeps a streamed answer without waiting;
- :mod:`.limits` — the deadlines and bounds an operator sets (``gunicorn.conf.py``);
- :mod:`.problems` — the answers the server writes itself, before any application runs;
- :mod:`.hooks` — the server hooks ``gunicorn.conf.py`` calls (settings refused at start-up,
  the metrics directory, draining on SIGTERM);
- :mod:`.logs` — gunicorn's logger, as JSON lines.

The gunicorn internals the worker relies on are listed, and checked against the pinned
release, by ``tests/test_serving_gunicorn_pin.py``; why each custom part is kept is in
``docs/performance.md`` (Serving: the stock gevent worker beside ours).

What the server and the application tell each other lives in :mod:`service.connection`:
neither side imports the other, and nothing here imports Flask. This module imports nothing,
so that naming the package loads neither gevent nor gunicorn.
"""
