"""Services: pure functions of cached data and a query (no HTTP, no Flask)."""
