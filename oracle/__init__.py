"""The simrd oracle and its Python client (oracle/README.md)."""
