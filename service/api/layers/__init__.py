"""WSGI layers around the application: request metrics and request ids (assembled in ``service.api.init_app``)."""
