"""The JSON API v1, one module per resource."""
