"""Configuration: limits, plugin names and runtime settings (the bottom layer)."""
