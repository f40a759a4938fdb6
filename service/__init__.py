"""French Tarot rules service.

:mod:`service.rules` is the rules core, a pure library: importing it loads no web framework.
:mod:`service.api` is the HTTP layer, :func:`service.app.create_app` builds the Flask
application that gunicorn serves through :mod:`service.wsgi`, and :mod:`service.worker` is the
gunicorn worker.
"""
