"""HTTP layer: Flask app factory, blueprints, error mapping, gunicorn configuration."""
