# Build stage: the pinned runtime dependencies in a virtualenv.
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
COPY requirements/runtime.lock /tmp/runtime.lock
RUN python -m venv /opt/venv && /opt/venv/bin/pip install --no-compile -r /tmp/runtime.lock

# Runtime stage: the virtualenv and the service, run by a numeric non-root user.
FROM python:3.11-slim
ENV PATH=/opt/venv/bin:$PATH PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PORT=8000
COPY --from=build /opt/venv /opt/venv
WORKDIR /app
COPY gunicorn.conf.py ./
COPY service ./service
USER 10001:10001
EXPOSE 8000
ENTRYPOINT ["gunicorn", "-c", "gunicorn.conf.py", "service.wsgi:app"]
