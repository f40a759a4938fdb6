# The service image: gunicorn serving service.wsgi:app with gunicorn.conf.py, on the compiled
# rules core. `make image` builds it (scripts/image: with a local Debian base where no image
# registry can be reached, passed as PYTHON_IMAGE).
ARG PYTHON_IMAGE=python:3.11.14-slim-bookworm

# Build stage: a C compiler (here only), the pinned runtime dependencies in a virtualenv, and the
# service built as a wheel with its rules core compiled by mypyc, using the build tools pinned in
# requirements/build.lock (those of `make compile`), then installed there and byte-compiled (the
# root filesystem is read-only at run time, so nothing can be compiled later). The base image's
# pip installs into the virtualenvs, which thus carry no pip.
FROM ${PYTHON_IMAGE} AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1
# The compiler follows the base's own Debian release, whose security updates it takes: pinning
# its version would break the build at each of them. The official base has the Python headers;
# Debian's own Python needs python3-dev for them.
# hadolint ignore=DL3008
RUN headers="$(python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h" \
    && apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && { [ -f "$headers" ] || apt-get install -y --no-install-recommends python3-dev; } \
    && rm -rf /var/lib/apt/lists/*
COPY requirements/runtime.lock requirements/build.lock /tmp/
RUN python -m venv --without-pip /opt/venv \
    && python -m pip --python /opt/venv/bin/python install -r /tmp/runtime.lock \
    && python -m venv --without-pip /opt/build \
    && python -m pip --python /opt/build/bin/python install -r /tmp/build.lock
# The package: the code, its message catalogs (compiled by setup.py as the wheel is built), the
# conformance kit (which the wheel carries), and the tarot-rules command, which CI jobs run
# from this image. The build fails if the core it made is not the one the service loads.
WORKDIR /src
COPY pyproject.toml setup.py README.md LICENSE MANIFEST.in ./
COPY service ./service
COPY conformance/v1 ./conformance/v1
RUN TAROT_RULES_COMPILE=1 python -m pip --python /opt/build/bin/python wheel --no-build-isolation --no-deps --wheel-dir /tmp/wheel . \
    && python -m pip --python /opt/venv/bin/python install --no-deps /tmp/wheel/*.whl \
    && python -m compileall -q /opt/venv \
    && /opt/venv/bin/python -I -c "import sys, service.rules as r; sys.exit(r.CORE != 'compiled')"
WORKDIR /app
COPY gunicorn.conf.py ./

# Runtime stage: no compiler, no build tools, a numeric non-root user.
FROM ${PYTHON_IMAGE}
LABEL org.opencontainers.image.title="tarot-rules" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.description="French Tarot rules service: legal cards, trick winners, deal evaluation and scoring over HTTP/JSON."
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PORT=8000 \
    HEALTH_PORT=8001 \
    PROMETHEUS_MULTIPROC_DIR=/run/tarot-metrics
COPY --from=build /opt/venv /opt/venv
COPY --from=build /app /app
WORKDIR /app
RUN mkdir -p /run/tarot-metrics && chown 10001:10001 /run/tarot-metrics
USER 10001:10001
# 8000: the operations; 8001: the probes and the metrics only, answered whatever the load.
EXPOSE 8000 8001
HEALTHCHECK --interval=15s --timeout=3s --start-period=5s --retries=3 CMD ["python", "-m", "service.healthcheck"]
ENTRYPOINT ["gunicorn", "-c", "gunicorn.conf.py", "service.wsgi:app"]
