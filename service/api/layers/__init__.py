"""WSGI layers around the application: request metrics, request ids and the answer's language
(assembled in ``service.api.init_app``)."""
