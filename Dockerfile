# The service image: gunicorn serving service.wsgi:app with gunicorn.conf.py.
ARG PYTHON_IMAGE=python:3.11.14-slim-bookworm

# Build stage: the pinned runtime dependencies in a virtualenv, the service installed there,
# all byte-compiled (the root filesystem is read-only at run time, so nothing can be
# compiled later). The base image's pip installs into the virtualenv, which thus carries no
# pip (24 MB less).
FROM ${PYTHON_IMAGE} AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1
COPY requirements/runtime.lock /tmp/runtime.lock
RUN python -m venv --without-pip /opt/venv \
    && python -m pip --python /opt/venv/bin/python install --no-cache-dir -r /tmp/runtime.lock
# The service as a package (its dependencies are the lock's): the code, its message catalogs
# (compiled by setup.py as the package is built), and the tarot-rules command, which CI jobs
# run from this image.
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY service ./service
RUN python -m pip --python /opt/venv/bin/python install --no-cache-dir --no-deps . \
    && python -m compileall -q /opt/venv
WORKDIR /app
COPY gunicorn.conf.py ./

# Runtime stage: no build tools, a numeric non-root user.
FROM ${PYTHON_IMAGE}
LABEL org.opencontainers.image.title="tarot-rules" \
      org.opencontainers.image.description="French Tarot rules service: legal cards, trick winners, deal evaluation and scoring over HTTP/JSON."
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PORT=8000 \
    PROMETHEUS_MULTIPROC_DIR=/run/tarot-metrics
COPY --from=build /opt/venv /opt/venv
COPY --from=build /app /app
WORKDIR /app
RUN mkdir -p /run/tarot-metrics && chown 10001:10001 /run/tarot-metrics
USER 10001:10001
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=5s --retries=3 CMD ["python", "-m", "service.healthcheck"]
ENTRYPOINT ["gunicorn", "-c", "gunicorn.conf.py", "service.wsgi:app"]
