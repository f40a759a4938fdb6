"""French Tarot rules service.

:mod:`service.rules` is the rules core, a pure library: importing it loads no web framework.
:mod:`service.api` is the HTTP layer, :func:`service.app.create_app` builds the Flask
application that gunicorn serves through :mod:`service.wsgi`, and :mod:`service.serving` is the
server (gunicorn's worker, limits, hooks and logger). :mod:`service.connection` is what the
application and the server tell each other; neither imports the other.
"""
