"""Cache: the set of train jobs, their loading status, and the detail-cache LRU."""
