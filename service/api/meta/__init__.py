"""The service's endpoints about itself: health (liveness, readiness), the contract
(openapi.json, openapi.yaml) and its Swagger UI."""
