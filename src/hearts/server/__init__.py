"""The web game: an ASGI app that plays solo matches over a WebSocket (docs/protocol.md).

Only ``hearts serve`` imports this package; the core never does.
"""
