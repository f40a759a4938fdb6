"""The service's contract, free of any web framework: what a request may say and what the
answer says.

Request and answer schemas (marshmallow), the load plans and hand-written dumps that stand in
for them on the hot path (each held to its schema by a property test), deal records and batch
items, claims, problem documents and the examples. The HTTP layer (:mod:`service.api`) and the
command line (:mod:`service.cli`) both speak through it; it imports marshmallow, orjson, the
rules core and the texts, and nothing of Flask, so that replaying a log in-process never loads
a web framework.
"""
