"""HTTP routes: pages, the guest and record API, health."""
