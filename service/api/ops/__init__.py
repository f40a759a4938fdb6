"""Operational endpoints: health, the contract (openapi.json / openapi.yaml) and its Swagger UI."""
