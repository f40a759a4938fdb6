"""WSGI layers around the application: request metrics, request ids and the answer's language
(assembled in ``service.api.init_app``)."""

OPERATIONS_PREFIX = "/v1/"
"""Where the operations are: the answers with texts for people, and those CORS opens to pages
(not the probes, metrics, contract or docs page)."""
