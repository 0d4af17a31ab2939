"""The WebSocket: typed messages, a dispatch table, one connection per browser tab."""
